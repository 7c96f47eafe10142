// SPDX-License-Identifier: GPL-3.0-or-later
#include "sortfilterproxy.h"

#include "models/modelroles.h"

#include <QRegularExpression>

namespace nsw {

SortFilterProxy::SortFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
    setDynamicSortFilter(true);
    setRecursiveFilteringEnabled(true);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

QString SortFilterProxy::setFilter(const QString& text, bool regex)
{
    if (!regex) {
        setFilterFixedString(text);
        return {};
    }
    const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
    if (!re.isValid())
        return re.errorString() + QStringLiteral(" (at %1)").arg(re.patternErrorOffset());
    setFilterRegularExpression(re);
    return {};
}

} // namespace nsw

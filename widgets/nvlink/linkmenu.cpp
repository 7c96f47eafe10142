// SPDX-License-Identifier: GPL-3.0-or-later
#include "linkmenu.h"

#include <algorithm>

namespace nsw {

LinkMenu::LinkMenu(QWidget* parent)
    : QMenu(parent)
{ }

std::vector<int> LinkMenu::switchTo(const QVariant& source)
{
    std::vector<int> off;
    if (m_source == source)
        for (const QAction* a : actions())
            if (a->isCheckable() && !a->isChecked())
                off.push_back(a->data().toInt());
    m_source = source;
    clear();
    return off;
}

void LinkMenu::clearLinks(const QVariant& source)
{
    switchTo(source);
}

void LinkMenu::setLinks(const QVariant& source, const std::vector<int>& links)
{
    const std::vector<int> off = switchTo(source);
    addAction(tr("All links"), this, [this]() {
        for (QAction* a : actions())
            a->setChecked(true);
    });
    addAction(tr("No link"), this, [this]() {
        for (QAction* a : actions())
            a->setChecked(false);
    });
    addSeparator();
    for (const int l : links) {
        QAction* a = addAction(tr("Link %1").arg(l));
        a->setCheckable(true);
        a->setChecked(std::find(off.begin(), off.end(), l) == off.end());
        a->setData(l);
    }
}

std::vector<int> LinkMenu::checkedLinks() const
{
    std::vector<int> links;
    for (const QAction* a : actions())
        if (a->isCheckable() && a->isChecked())
            links.push_back(a->data().toInt());
    return links;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/shippeddata.h"

#include <QFile>

// Static libraries need an explicit reference to their embedded resources (outside any namespace).
static void initShippedData()
{
    Q_INIT_RESOURCE(nsw_data);
}

namespace nsw {

nlohmann::json shippedData(const QString& file)
{
    static const bool initialised = [] {
        initShippedData();
        return true;
    }();
    (void)initialised;
    QFile f(QStringLiteral(":/data/") + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("shipped data file %s is missing", qPrintable(file));
    const QByteArray bytes = f.readAll();
    nlohmann::json json = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (json.is_discarded())
        qFatal("shipped data file %s is not valid JSON", qPrintable(file));
    return json;
}

QString shippedText(const nlohmann::json& value)
{
    return QString::fromStdString(value.get<std::string>());
}

} // namespace nsw

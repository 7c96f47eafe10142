// SPDX-License-Identifier: GPL-3.0-or-later
#include "csv.h"

#include <QAbstractItemModel>
#include <QIODevice>

namespace nsw {

QString csvField(const QString& field)
{
    const bool needsQuotes = field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"'))
        || field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r'));
    if (!needsQuotes)
        return field;
    QString quoted = field;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvRecord(const QStringList& fields)
{
    QStringList escaped;
    escaped.reserve(fields.size());
    for (const QString& f : fields)
        escaped.append(csvField(f));
    return escaped.join(QLatin1Char(','));
}

bool writeModelCsv(const QAbstractItemModel& model, QIODevice& out, int rawRole)
{
    const int columns = model.columnCount();
    QStringList header;
    for (int c = 0; c < columns; ++c) {
        const QVariant raw = rawRole >= 0 ? model.headerData(c, Qt::Horizontal, rawRole) : QVariant();
        header.append(raw.isValid() ? raw.toString() : model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    }
    QString text = csvRecord(header) + QStringLiteral("\r\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList fields;
        for (int c = 0; c < columns; ++c) {
            const QModelIndex index = model.index(r, c);
            QVariant value = rawRole >= 0 ? model.data(index, rawRole) : QVariant();
            if (!value.isValid() || value.typeId() == QMetaType::QString)
                value = model.data(index, Qt::DisplayRole);
            fields.append(value.toString());
        }
        text += csvRecord(fields) + QStringLiteral("\r\n");
        if (text.size() > (1 << 20)) {
            if (out.write(text.toUtf8()) < 0)
                return false;
            text.clear();
        }
    }
    return out.write(text.toUtf8()) >= 0;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "csv.h"

#include <QAbstractItemModel>
#include <QBuffer>
#include <QIODevice>

namespace nsw {

namespace {

void appendCsvField(QString& line, const QString& field, CsvQuoting quoting)
{
    const bool needsQuotes = quoting == CsvQuoting::CommaOnly
        ? field.contains(QLatin1Char(','))
        : field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) || field.contains(QLatin1Char('\n'))
            || field.contains(QLatin1Char('\r'));
    if (!needsQuotes) {
        line += field;
        return;
    }
    line += QLatin1Char('"');
    if (quoting == CsvQuoting::Rfc4180 && field.contains(QLatin1Char('"')))
        line += QString(field).replace(QLatin1Char('"'), QStringLiteral("\"\""));
    else
        line += field;
    line += QLatin1Char('"');
}

void appendCsvRecord(QString& line, const QStringList& fields, CsvQuoting quoting)
{
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i > 0)
            line += QLatin1Char(',');
        appendCsvField(line, fields[i], quoting);
    }
}

} // namespace

QString csvField(const QString& field, CsvQuoting quoting)
{
    QString escaped;
    appendCsvField(escaped, field, quoting);
    return escaped;
}

QString csvRecord(const QStringList& fields, CsvQuoting quoting)
{
    QString record;
    appendCsvRecord(record, fields, quoting);
    return record;
}

QString csvLine(const QStringList& fields, CsvQuoting quoting)
{
    QString line;
    appendCsvLine(line, fields, quoting);
    return line;
}

void appendCsvLine(QString& line, const QStringList& fields, CsvQuoting quoting)
{
    appendCsvRecord(line, fields, quoting);
    line += QLatin1Char('\n');
}

bool writeModelCsv(
    const QAbstractItemModel& model, QIODevice& out, int rawRole, const std::function<bool(int, int)>& keepGoing)
{
    const int columns = model.columnCount();
    const QVariant declaredQuoting = model.headerData(0, Qt::Horizontal, CsvQuotingRole);
    const CsvQuoting quoting = declaredQuoting.isValid() ? CsvQuoting(declaredQuoting.toInt()) : CsvQuoting::Rfc4180;
    QStringList header;
    for (int c = 0; c < columns; ++c) {
        QVariant text = model.headerData(c, Qt::Horizontal, CsvTextRole);
        if (!text.isValid() && rawRole >= 0)
            text = model.headerData(c, Qt::Horizontal, rawRole);
        header.append(
            text.isValid() ? text.toString() : model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    }
    QString text = csvLine(header, quoting);
    const int rows = model.rowCount();
    for (int r = 0; r < rows; ++r) {
        if (keepGoing && r % 4096 == 0 && !keepGoing(r, rows))
            return false;
        QStringList fields;
        for (int c = 0; c < columns; ++c) {
            const QModelIndex index = model.index(r, c);
            QVariant value = model.data(index, CsvTextRole);
            if (!value.isValid() && rawRole >= 0) {
                value = model.data(index, rawRole);
                if (value.typeId() == QMetaType::QString)
                    value = QVariant();
            }
            if (!value.isValid())
                value = model.data(index, Qt::DisplayRole);
            fields.append(value.toString());
        }
        appendCsvLine(text, fields, quoting);
        if (text.size() > (1 << 20)) {
            if (out.write(text.toUtf8()) < 0)
                return false;
            text.clear();
        }
    }
    return out.write(text.toUtf8()) >= 0;
}

QString modelCsv(const QAbstractItemModel& model, int rawRole)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    writeModelCsv(model, buffer, rawRole);
    return QString::fromUtf8(buffer.data());
}

} // namespace nsw

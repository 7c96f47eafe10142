// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportformat.h"

#include "core/util/csv.h"
#include "core/util/numberformat.h"

namespace nsw {

namespace {

QString cellText(const ReportValue& value, const ReportColumn& column, bool grouped)
{
    if (const auto* i = std::get_if<qint64>(&value))
        return grouped ? withThousandsSeparators(*i) : QString::number(*i);
    if (const auto* d = std::get_if<double>(&value)) {
        if (column.decimals >= 0)
            return grouped ? withThousandsSeparators(*d, column.decimals) : QString::number(*d, 'f', column.decimals);
        return grouped ? withThousandsSeparators(*d, 1) : pythonFloatRepr(*d);
    }
    if (const auto* s = std::get_if<QString>(&value))
        return *s;
    return {};
}

/// nsys's "column" format clips cells to 100 characters.
constexpr qsizetype kMaxColumnWidth = 100;

} // namespace

QString reportCellText(const ReportValue& value, const ReportColumn& column)
{
    return cellText(value, column, false);
}

QString reportToCsv(const ReportTable& report)
{
    QStringList header;
    for (const ReportColumn& c : report.columns)
        header.append(c.header);
    QString out = csvLine(header, CsvQuoting::CommaOnly);
    for (const auto& row : report.rows) {
        QStringList fields;
        for (std::size_t c = 0; c < row.size(); ++c)
            fields.append(cellText(row[c], report.columns[c], false));
        out += csvLine(fields, CsvQuoting::CommaOnly);
    }
    return out;
}

QString reportToText(const ReportTable& report)
{
    const std::size_t n = report.columns.size();
    std::vector<QStringList> cells;
    std::vector<qsizetype> width(n, 0);
    auto clip
        = [](const QString& s) { return s.size() > kMaxColumnWidth ? s.left(kMaxColumnWidth - 1) + QChar(0x2026) : s; };
    for (std::size_t c = 0; c < n; ++c)
        width[c] = report.columns[c].header.size();
    for (const auto& row : report.rows) {
        QStringList texts;
        for (std::size_t c = 0; c < n; ++c) {
            const QString t = clip(cellText(row[c], report.columns[c], true));
            width[c] = std::max(width[c], t.size());
            texts.append(t);
        }
        cells.push_back(texts);
    }
    // One leading space, cells joined by two spaces; headers centred; numbers right, text left aligned.
    QStringList header, rule;
    for (std::size_t c = 0; c < n; ++c) {
        const QString& h = report.columns[c].header;
        const qsizetype pad = width[c] - h.size();
        header.append(QString(pad / 2, QLatin1Char(' ')) + h + QString(pad - pad / 2, QLatin1Char(' ')));
        rule.append(QString(width[c], QLatin1Char('-')));
    }
    QString out = QLatin1Char(' ') + header.join(QStringLiteral("  ")) + QLatin1Char('\n');
    out += QLatin1Char(' ') + rule.join(QStringLiteral("  ")) + QLatin1Char('\n');
    for (const QStringList& row : cells) {
        QStringList aligned;
        for (std::size_t c = 0; c < n; ++c) {
            const bool text = report.columns[c].type == ReportColumn::Type::Text;
            aligned.append(
                text ? row[qsizetype(c)].leftJustified(width[c]) : row[qsizetype(c)].rightJustified(width[c]));
        }
        out += QLatin1Char(' ') + aligned.join(QStringLiteral("  ")) + QLatin1Char('\n');
    }
    return out;
}

nlohmann::ordered_json reportToJson(const ReportTable& report)
{
    nlohmann::ordered_json j;
    j["report"] = report.name.toStdString();
    j["title"] = report.title.toStdString();
    if (!report.skipped.isEmpty())
        j["skipped"] = report.skipped.toStdString();
    auto columns = nlohmann::ordered_json::array();
    for (const ReportColumn& c : report.columns)
        columns.push_back(c.header.toStdString());
    j["columns"] = columns;
    auto rows = nlohmann::ordered_json::array();
    for (const auto& row : report.rows) {
        nlohmann::ordered_json r;
        for (std::size_t c = 0; c < report.columns.size(); ++c) {
            const std::string key = report.columns[c].header.toStdString();
            const ReportValue& v = row[c];
            if (const auto* i = std::get_if<qint64>(&v))
                r[key] = *i;
            else if (const auto* d = std::get_if<double>(&v))
                r[key] = report.columns[c].decimals >= 0 ? sqliteRound(*d, report.columns[c].decimals) : *d;
            else if (const auto* s = std::get_if<QString>(&v))
                r[key] = s->toStdString();
            else
                r[key] = nullptr;
        }
        rows.push_back(std::move(r));
    }
    j["rows"] = rows;
    return j;
}

} // namespace nsw

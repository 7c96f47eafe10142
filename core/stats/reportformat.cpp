// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportformat.h"

#include "core/util/csv.h"
#include "core/util/numberformat.h"

#include <QIODevice>
#include <QStringEncoder>
#include <functional>

namespace nsw {

namespace {

QString cellText(const ReportValue& value, const ReportColumn& column, bool grouped)
{
    if (const auto* i = std::get_if<qint64>(&value)) {
        if (column.type == ReportColumn::Type::Address)
            return *i >= 0 ? QStringLiteral("0x") + QString::number(*i, 16).toUpper() : QString::number(*i);
        return grouped ? withThousandsSeparators(*i) : QString::number(*i);
    }
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

QString reportDisplayText(const ReportValue& value, const ReportColumn& column)
{
    return cellText(value, column, true);
}

namespace {

/// Takes a report's lines one by one; false stops the report (a write failed).
using LineSink = std::function<bool(const QString&)>;

/// Writes a report line by line through @p sink (false stops: a write failed).
bool emitCsv(const ReportTable& report, const LineSink& sink)
{
    QStringList header;
    for (const ReportColumn& c : report.columns)
        header.append(c.header);
    if (!sink(csvLine(header, CsvQuoting::CommaOnly)))
        return false;
    std::vector<ReportValue> buffer;
    QStringList fields; // the cells share the report's strings: no copy of a long name
    QString line; // reused: its capacity stays, so a long name is not a new allocation on every row
    for (std::size_t r = 0; r < report.rowCount(); ++r) {
        const std::vector<ReportValue>& row = report.rowAt(r, buffer);
        fields.clear();
        for (std::size_t c = 0; c < row.size(); ++c)
            fields.append(cellText(row[c], report.columns[c], false));
        line.resize(0);
        appendCsvLine(line, fields, CsvQuoting::CommaOnly);
        if (!sink(line))
            return false;
    }
    return true;
}

QString clipCell(const QString& s)
{
    return s.size() > kMaxColumnWidth ? s.left(kMaxColumnWidth - 1) + QChar(0x2026) : s;
}

bool emitText(const ReportTable& report, const LineSink& sink)
{
    const std::size_t n = report.columns.size();
    std::vector<qsizetype> width(n, 0);
    for (std::size_t c = 0; c < n; ++c)
        width[c] = report.columns[c].header.size();
    std::vector<ReportValue> buffer;
    for (std::size_t r = 0; r < report.rowCount(); ++r) {
        const std::vector<ReportValue>& row = report.rowAt(r, buffer);
        for (std::size_t c = 0; c < n; ++c)
            width[c] = std::max(width[c], clipCell(cellText(row[c], report.columns[c], true)).size());
    }
    // One leading space, cells joined by two spaces; headers centred; numbers right, text left aligned.
    QStringList header, rule;
    for (std::size_t c = 0; c < n; ++c) {
        const QString& h = report.columns[c].header;
        const qsizetype pad = width[c] - h.size();
        header.append(QString(pad / 2, QLatin1Char(' ')) + h + QString(pad - pad / 2, QLatin1Char(' ')));
        rule.append(QString(width[c], QLatin1Char('-')));
    }
    const QString headerLine = QLatin1Char(' ') + header.join(QStringLiteral("  ")) + QLatin1Char('\n');
    const QString ruleLine = QLatin1Char(' ') + rule.join(QStringLiteral("  ")) + QLatin1Char('\n');
    if (!sink(headerLine) || !sink(ruleLine))
        return false;
    QStringList aligned;
    for (std::size_t r = 0; r < report.rowCount(); ++r) {
        const std::vector<ReportValue>& row = report.rowAt(r, buffer);
        aligned.clear();
        for (std::size_t c = 0; c < n; ++c) {
            const QString t = clipCell(cellText(row[c], report.columns[c], true));
            const bool text = report.columns[c].type == ReportColumn::Type::Text;
            aligned.append(text ? t.leftJustified(width[c]) : t.rightJustified(width[c]));
        }
        const QString line = QLatin1Char(' ') + aligned.join(QStringLiteral("  ")) + QLatin1Char('\n');
        if (!sink(line))
            return false;
    }
    return true;
}

using Emitter = bool (*)(const ReportTable&, const LineSink&);

QString collected(const ReportTable& report, Emitter emitLines)
{
    QString out;
    emitLines(report, [&out](const QString& line) {
        out += line;
        return true;
    });
    return out;
}

bool written(const ReportTable& report, Emitter emitLines, QIODevice& out)
{
    QStringEncoder toUtf8(QStringEncoder::Utf8, QStringConverter::Flag::Stateless);
    QByteArray utf8; // reused, as emitCsv's line
    return emitLines(report, [&](const QString& line) {
        utf8.resize(toUtf8.requiredSpace(line.size()));
        const qsizetype size = toUtf8.appendToBuffer(utf8.data(), line) - utf8.data();
        return out.write(utf8.constData(), size) == size;
    });
}

} // namespace

QString reportToCsv(const ReportTable& report)
{
    return collected(report, emitCsv);
}

bool writeReportCsv(const ReportTable& report, QIODevice& out)
{
    return written(report, emitCsv, out);
}

QString reportToText(const ReportTable& report)
{
    return collected(report, emitText);
}

bool writeReportText(const ReportTable& report, QIODevice& out)
{
    return written(report, emitText, out);
}

namespace {

nlohmann::ordered_json rowJson(const ReportTable& report, const std::vector<ReportValue>& row)
{
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
    return r;
}

/// A string no report holds: "rows" of report @p index until writeJsonDocument() streams them in its place.
std::string rowsPlaceholder(std::size_t index)
{
    return "\x01rows " + std::to_string(index) + "\x01";
}

} // namespace

nlohmann::ordered_json reportToJson(const ReportTable& report)
{
    nlohmann::ordered_json j = reportJsonShell(report, 0);
    auto rows = nlohmann::ordered_json::array();
    std::vector<ReportValue> buffer;
    for (std::size_t i = 0; i < report.rowCount(); ++i)
        rows.push_back(rowJson(report, report.rowAt(i, buffer)));
    j["rows"] = rows;
    return j;
}

nlohmann::ordered_json reportJsonShell(const ReportTable& report, std::size_t index)
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
    j["rows"] = rowsPlaceholder(index);
    return j;
}

bool writeJsonDocument(
    const nlohmann::ordered_json& document, const std::vector<const ReportTable*>& reports, QIODevice& out)
{
    auto put = [&out](const std::string& text) {
        return out.write(text.data(), qint64(text.size())) == qint64(text.size());
    };
    const std::string text = document.dump(2);
    std::size_t from = 0;
    std::vector<ReportValue> buffer;
    for (std::size_t r = 0; r < reports.size(); ++r) {
        // dump() escapes the placeholder's control characters: look for it as printed.
        const std::string printed = nlohmann::ordered_json(rowsPlaceholder(r)).dump();
        const std::size_t at = text.find(printed, from);
        if (at == std::string::npos)
            continue;
        if (!put(text.substr(from, at - from)))
            return false;
        from = at + printed.size();
        const ReportTable& report = *reports[r];
        if (report.rowCount() == 0) {
            if (!put("[]"))
                return false;
            continue;
        }
        // As dump(2) prints an array at the placeholder's depth: one element per line, indented two more.
        const std::size_t lineStart = text.rfind('\n', at) + 1;
        const std::string indent(text.find_first_not_of(' ', lineStart) - lineStart, ' ');
        const std::string elementIndent = indent + "  ";
        if (!put("["))
            return false;
        for (std::size_t i = 0; i < report.rowCount(); ++i) {
            std::string element = rowJson(report, report.rowAt(i, buffer)).dump(2);
            std::string indented = (i ? ",\n" : "\n") + elementIndent;
            for (const char c : element) {
                indented += c;
                if (c == '\n')
                    indented += elementIndent;
            }
            if (!put(indented))
                return false;
        }
        if (!put("\n" + indent + "]"))
            return false;
    }
    return put(text.substr(from) + "\n");
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/analysisformat.h"

#include "core/util/csv.h"

#include <QRegularExpression>
#include <algorithm>

namespace nsw {

namespace {

constexpr qsizetype kColumnMax = 100; // nsys's column format: auto widths are capped at 100 characters
constexpr qsizetype kAutoLines = 100; // ... and measured on the first 100 rows

bool rightAligned(ColumnKind kind)
{
    return kind != ColumnKind::Text;
}

QString centered(const QString& text, qsizetype width)
{
    const qsizetype pad = std::max<qsizetype>(0, width - text.size());
    return QString(pad / 2, QLatin1Char(' ')) + text + QString(pad - pad / 2, QLatin1Char(' '));
}

QString fitted(const QString& text, qsizetype width, bool right)
{
    if (text.size() > width)
        return text.left(width - 1) + QChar(0x2026);
    return right ? text.rightJustified(width) : text.leftJustified(width);
}

QString columnTable(const RuleTable& table)
{
    const auto& columns = table.spec->columns;
    std::vector<qsizetype> widths;
    for (size_t c = 0; c < columns.size(); ++c) {
        qsizetype w = columns[c].header.size();
        for (size_t r = 0; r < table.rows.size() && qsizetype(r) < kAutoLines; ++r)
            w = std::max(w, ruleCellText(table.rows[r][c], columns[c].kind).size());
        widths.push_back(std::min(w, std::max(kColumnMax, columns[c].header.size())));
    }
    QStringList header, dashes;
    for (size_t c = 0; c < columns.size(); ++c) {
        header << centered(columns[c].header, widths[c]);
        dashes << QString(widths[c], QLatin1Char('-'));
    }
    QString out = QLatin1Char(' ') + header.join(QLatin1String("  ")) + QLatin1Char('\n') + QLatin1Char(' ')
        + dashes.join(QLatin1String("  ")) + QLatin1Char('\n');
    for (const RuleRow& row : table.rows) {
        QStringList cells;
        for (size_t c = 0; c < columns.size(); ++c)
            cells << fitted(ruleCellText(row[c], columns[c].kind), widths[c], rightAligned(columns[c].kind));
        out += QLatin1Char(' ') + cells.join(QLatin1String("  ")) + QLatin1Char('\n');
    }
    return out;
}

/// nsys counts each word with the blank after it (all but the paragraph's last word): a line ends before the
/// word that would take it, blank included, past @p width.
QString wrapLine(const QString& line, int width)
{
    const qsizetype indent = line.size() - QString(line).remove(QRegularExpression(QStringLiteral("^\\s+"))).size();
    const QStringList words = line.mid(indent).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QStringList lines;
    QString current = line.left(indent);
    bool empty = true;
    for (qsizetype k = 0; k < words.size(); ++k) {
        const QString& w = words[k];
        const qsizetype blank = k + 1 < words.size() ? 1 : 0;
        if (!empty && current.size() + 1 + w.size() + blank > width) {
            lines << current;
            current = w;
            continue;
        }
        current += (empty ? QString() : QStringLiteral(" ")) + w;
        empty = false;
    }
    lines << current;
    return lines.join(QLatin1Char('\n'));
}

} // namespace

QString ruleCellText(const RuleCell& cell, ColumnKind kind)
{
    if (const auto* i = std::get_if<qint64>(&cell))
        return kind == ColumnKind::Megabytes ? QString::number(double(*i) / 1e6, 'f', 3) : QString::number(*i);
    if (const auto* d = std::get_if<double>(&cell))
        return QString::number(*d, 'f', 1);
    if (const auto* s = std::get_if<QString>(&cell))
        return *s;
    return {};
}

QString ruleToCsv(const RuleTable& table)
{
    if (table.rows.empty())
        return {};
    QStringList header;
    for (const RuleColumn& c : table.spec->columns)
        header << c.header;
    QString out = csvLine(header, CsvQuoting::CommaOnly);
    for (const RuleRow& row : table.rows) {
        QStringList fields;
        for (size_t c = 0; c < row.size(); ++c)
            fields << ruleCellText(row[c], table.spec->columns[c].kind);
        out += csvLine(fields, CsvQuoting::CommaOnly);
    }
    return out;
}

QString wrapText(const QString& text, int width)
{
    QStringList out;
    for (const QString& line : text.split(QLatin1Char('\n')))
        out << (line.trimmed().isEmpty() ? QString() : wrapLine(line, width));
    return out.join(QLatin1Char('\n'));
}

QString ruleToText(const RuleTable& table)
{
    if (!table.skipped.isEmpty())
        return QStringLiteral("SKIPPED: %1\n\n").arg(table.skipped);
    QString out = QStringLiteral("\n ** %1 (%2):\n\n").arg(table.spec->title, table.spec->name);
    if (table.rows.empty())
        return out + wrapText(table.noResult) + QStringLiteral("\n\n");
    out += wrapText(table.advice) + QStringLiteral("\n\n") + columnTable(table) + QLatin1Char('\n');
    if (!table.rowLimitNote.isEmpty())
        out += table.rowLimitNote + QStringLiteral("\n\n\n");
    return out;
}

nlohmann::ordered_json ruleToJson(const RuleTable& table)
{
    nlohmann::ordered_json j;
    j["rule"] = table.spec->name.toStdString();
    j["title"] = table.spec->title.toStdString();
    j["arguments"] = table.arguments.toStdString();
    if (!table.skipped.isEmpty()) {
        j["skipped"] = table.skipped.toStdString();
        return j;
    }
    j["advice"] = (table.rows.empty() ? table.noResult : table.advice).toStdString();
    nlohmann::ordered_json columns = nlohmann::ordered_json::array();
    for (const RuleColumn& c : table.spec->columns)
        columns.push_back((c.kind == ColumnKind::Megabytes ? QStringLiteral("Bytes (B)") : c.header).toStdString());
    j["columns"] = columns;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const RuleRow& row : table.rows) {
        nlohmann::ordered_json r = nlohmann::ordered_json::array();
        for (const RuleCell& cell : row) {
            if (const auto* i = std::get_if<qint64>(&cell))
                r.push_back(*i);
            else if (const auto* d = std::get_if<double>(&cell))
                r.push_back(*d);
            else if (const auto* s = std::get_if<QString>(&cell))
                r.push_back(s->toStdString());
            else
                r.push_back(nullptr);
        }
        rows.push_back(r);
    }
    j["rows"] = rows;
    if (!table.rowLimitNote.isEmpty())
        j["note"] = table.rowLimitNote.toStdString();
    return j;
}

} // namespace nsw

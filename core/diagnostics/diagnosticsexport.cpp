// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/diagnosticsexport.h"

#include "core/util/csv.h"
#include "core/util/outputtext.h"
#include "core/util/timeformat.h"

#include <cmath>
#include <utility>
#include <vector>

namespace nsw {

namespace {

nlohmann::ordered_json cellJson(const DiagnosticsCell& c)
{
    if (const auto* v = std::get_if<qint64>(&c))
        return *v;
    if (const auto* v = std::get_if<double>(&c))
        return std::isfinite(*v) ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
    if (const auto* v = std::get_if<QString>(&c))
        return cutLongText(*v).toStdString();
    return nullptr;
}

QString cellText(const DiagnosticsCell& c)
{
    if (const auto* v = std::get_if<qint64>(&c))
        return QString::number(*v);
    if (const auto* v = std::get_if<double>(&c))
        return QString::number(*v, 'g', 15);
    if (const auto* v = std::get_if<QString>(&c))
        return cutLongText(*v);
    return {};
}

/// Cells for people: durations in ns columns formatted, reals with two decimals.
QString cellDisplay(const QString& column, const DiagnosticsCell& c)
{
    if (const auto* v = std::get_if<qint64>(&c))
        return column.endsWith(QLatin1String("_ns")) ? formatDuration(*v)
            : column == QLatin1String("bytes")       ? formatBytes(*v)
                                                     : QString::number(*v);
    if (const auto* v = std::get_if<double>(&c))
        return column.endsWith(QLatin1String("_ns")) ? formatDuration(qint64(std::llround(*v)))
                                                     : QString::number(*v, 'f', 2);
    return cellText(c);
}

std::string s(const QString& text)
{
    return text.toStdString();
}

QStringList cutLongTexts(QStringList texts)
{
    for (QString& text : texts)
        text = cutLongText(text);
    return texts;
}

/// @p t on the session clock, to the nanosecond: typed back into --range it selects the same events.
QString onClock(const DiagnosticsResult& r, TimeNs t)
{
    return formatSeconds(t - r.clockOrigin, 9);
}

QString evidenceText(const DiagnosticsResult& r, const Evidence& e)
{
    QStringList parts;
    if (e.hasTimeRange())
        parts << QStringLiteral("time %1 to %2").arg(onClock(r, e.start), onClock(r, e.end));
    if (!e.devices.empty()) {
        QStringList d;
        for (int key : e.devices)
            d << r.deviceLabel(key);
        parts << d.join(QStringLiteral(", "));
    }
    if (!e.kernelNames.isEmpty())
        parts << QStringLiteral("kernels: %1").arg(cutLongTexts(e.kernelNames).join(QStringLiteral("; ")));
    if (!e.nvtxRange.isEmpty())
        parts << QStringLiteral("NVTX range: %1").arg(cutLongText(e.nvtxRange));
    if (!e.apiNames.isEmpty())
        parts << QStringLiteral("API: %1").arg(cutLongTexts(e.apiNames).join(QStringLiteral(", ")));
    if (!e.pids.empty()) {
        QStringList p;
        for (int pid : e.pids)
            p << QString::number(pid);
        parts << QStringLiteral("pid %1").arg(p.join(QStringLiteral(", ")));
    }
    return parts.join(QStringLiteral("; "));
}

QString header(const DiagnosticsResult& r)
{
    QString window
        = QStringLiteral("%1 (%2)").arg(formatTimeSpan(r.windowStart - r.clockOrigin, r.windowEnd - r.clockOrigin),
            formatDuration(r.windowEnd - r.windowStart));
    if (r.focus.isActive())
        window += QStringLiteral(", focus: ") + r.focus.label;
    return window;
}

/// The tables the Markdown and HTML reports show, at most kRows rows each (the CSVs have them all).
const QStringList kShownTables { QStringLiteral("gpu_time_breakdown"), QStringLiteral("gpu_idle_by_device"),
    QStringLiteral("gpu_idle_gaps"), QStringLiteral("cpu_samples_gpu_idle"), QStringLiteral("overlap_by_gpu"),
    QStringLiteral("nccl_by_collective"), QStringLiteral("kernels"), QStringLiteral("launch_rate_by_pid"),
    QStringLiteral("sync_by_thread"), QStringLiteral("sync_by_pid"), QStringLiteral("memory_by_direction"),
    QStringLiteral("memory_by_kind"), QStringLiteral("processes"), QStringLiteral("nvtx_ranges"),
    QStringLiteral("nvtx_phases"), QStringLiteral("iterations") };
constexpr int kRows = 15;

QString htmlEscape(const QString& text)
{
    return text.toHtmlEscaped();
}

QString mdEscape(QString text)
{
    text.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

} // namespace

QString findingGpuCostText(const DiagnosticsResult& r, const Finding& f)
{
    if (f.gpuCostNs <= 0)
        return {};
    return QStringLiteral("%1 of GPU time (%2 % of the window%3)")
        .arg(formatDuration(f.gpuCostNs))
        .arg(f.gpuCostPercent, 0, 'f', 1)
        .arg(f.gpuCostDevice >= 0 ? QStringLiteral(", ") + r.deviceLabel(f.gpuCostDevice) : QString());
}

QString findingHostTimeText(const Finding& f)
{
    if (f.hostNs <= 0)
        return {};
    return f.hostThread.isEmpty() ? formatDuration(f.hostNs)
                                  : QStringLiteral("%1 on %2").arg(formatDuration(f.hostNs), f.hostThread);
}

namespace {

/// The labelled lines under a finding's detail in every written format, those it has, in their order: GPU cost, host
/// time, evidence, recommendation (its thresholds follow, formatted by each format).
std::vector<std::pair<QString, QString>> findingFacts(const DiagnosticsResult& r, const Finding& f)
{
    std::vector<std::pair<QString, QString>> facts;
    if (QString cost = findingGpuCostText(r, f); !cost.isEmpty())
        facts.emplace_back(QStringLiteral("GPU cost"), std::move(cost));
    if (QString host = findingHostTimeText(f); !host.isEmpty())
        facts.emplace_back(QStringLiteral("Host time"), std::move(host));
    if (QString e = evidenceText(r, f.evidence); !e.isEmpty())
        facts.emplace_back(QStringLiteral("Evidence"), std::move(e));
    facts.emplace_back(QStringLiteral("Recommendation"), f.recommendation);
    return facts;
}

} // namespace

nlohmann::ordered_json diagnosticsJson(const DiagnosticsResult& r)
{
    nlohmann::ordered_json j;
    j["tool"] = "nsys-workbench report";
    j["trace"]
        = s(r.profile ? (r.profile->meta.reportPath.isEmpty() ? r.profile->meta.filePath : r.profile->meta.reportPath)
                      : QString());
    j["focus"] = r.focus.isActive() ? nlohmann::ordered_json { { "label", s(r.focus.label) },
        { "start_ns", r.focus.start - r.clockOrigin }, { "end_ns", r.focus.end - r.clockOrigin } }
                                    : nlohmann::ordered_json();
    j["window"] = { { "start_ns", r.windowStart - r.clockOrigin }, { "end_ns", r.windowEnd - r.clockOrigin },
        { "duration_ns", r.windowEnd - r.windowStart } };
    j["times"] = "start_ns/end_ns are the export's own timestamps (the session clock nsys's reports print)";
    nlohmann::ordered_json thresholds = nlohmann::ordered_json::object();
    for (const ThresholdSpec& spec : thresholdSpecs())
        thresholds[s(spec.name)] = r.thresholds.value(spec.name);
    j["thresholds"] = thresholds;
    j["devices"] = nlohmann::ordered_json::array();
    for (const DiagnosticsDevice& d : r.devices)
        j["devices"].push_back({ { "device", d.key }, { "label", s(d.label) } });
    j["findings"] = nlohmann::ordered_json::array();
    for (const Finding& f : r.findings) {
        nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
        for (const FindingMetric& m : f.metrics)
            metrics[s(m.name)] = m.value;
        nlohmann::ordered_json evidence;
        evidence["start_ns"] = f.evidence.hasTimeRange() ? nlohmann::ordered_json(f.evidence.start - r.clockOrigin)
                                                         : nlohmann::ordered_json();
        evidence["end_ns"] = f.evidence.hasTimeRange() ? nlohmann::ordered_json(f.evidence.end - r.clockOrigin)
                                                       : nlohmann::ordered_json();
        evidence["kernels"] = nlohmann::ordered_json::array();
        for (const QString& k : f.evidence.kernelNames)
            evidence["kernels"].push_back(s(cutLongText(k)));
        evidence["nvtx_range"] = f.evidence.nvtxRange.isEmpty()
            ? nlohmann::ordered_json()
            : nlohmann::ordered_json(s(cutLongText(f.evidence.nvtxRange)));
        evidence["api_names"] = nlohmann::ordered_json::array();
        for (const QString& a : f.evidence.apiNames)
            evidence["api_names"].push_back(s(cutLongText(a)));
        evidence["devices"] = f.evidence.devices;
        evidence["pids"] = f.evidence.pids;
        nlohmann::ordered_json used = nlohmann::ordered_json::array();
        for (const QString& t : f.thresholds)
            used.push_back(s(t));
        j["findings"].push_back({ { "id", s(f.id) }, { "severity", s(severityName(f.severity)) },
            { "title", s(f.title) }, { "detail", s(f.detail) }, { "recommendation", s(f.recommendation) },
            { "gpu_cost_ns", f.gpuCostNs }, { "gpu_cost_pct", f.gpuCostPercent },
            { "gpu_cost_device",
                f.gpuCostDevice >= 0 ? nlohmann::ordered_json(f.gpuCostDevice) : nlohmann::ordered_json() },
            { "host_ns", f.hostNs }, { "host_thread", s(f.hostThread) }, { "metrics", metrics },
            { "evidence", evidence }, { "thresholds", used } });
    }
    j["skipped"] = nlohmann::ordered_json::array();
    for (const SkippedCheck& k : r.skipped)
        j["skipped"].push_back({ { "check", s(k.check) }, { "reason", s(k.reason) } });
    if (r.nvtxCoverage)
        j["nvtx_coverage"] = { { "coverage_pct", r.nvtxCoverage->percent() },
            { "attributed_ns", r.nvtxCoverage->attributedNs }, { "kernel_ns", r.nvtxCoverage->totalNs },
            { "attributed_kernels", r.nvtxCoverage->attributedKernels }, { "kernels", r.nvtxCoverage->totalKernels } };
    else
        j["nvtx_coverage"] = nullptr;
    j["iterations_missing"] = r.iterations ? nlohmann::ordered_json() : nlohmann::ordered_json(s(r.iterationsMissing));
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const DiagnosticsTable& t : diagnosticsTables(r))
        if (t.id != QLatin1String("findings"))
            metrics[s(t.id)] = diagnosticsTableJson(t);
    j["metrics"] = std::move(metrics);
    return j;
}

QString diagnosticsTableText(const DiagnosticsTable& table)
{
    std::vector<QStringList> rows { table.columns };
    for (const auto& row : table.rows) {
        QStringList cells;
        for (qsizetype c = 0; c < table.columns.size(); ++c)
            cells << cellDisplay(table.columns[c], row[std::size_t(c)]);
        rows.push_back(cells);
    }
    std::vector<qsizetype> width(std::size_t(table.columns.size()), 0);
    for (const QStringList& r : rows)
        for (qsizetype c = 0; c < r.size(); ++c)
            width[std::size_t(c)] = std::max(width[std::size_t(c)], r[c].size());
    QString out = table.title + QStringLiteral(":\n");
    for (const QStringList& r : rows) {
        QString line;
        for (qsizetype c = 0; c < r.size(); ++c)
            line += (c + 1 == r.size() ? r[c] : r[c].leftJustified(width[std::size_t(c)]) + QStringLiteral("  "));
        out += line.trimmed() + QLatin1Char('\n');
    }
    return out;
}

nlohmann::ordered_json diagnosticsTableJson(const DiagnosticsTable& table)
{
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : table.rows) {
        nlohmann::ordered_json o = nlohmann::ordered_json::object();
        for (qsizetype c = 0; c < table.columns.size(); ++c)
            o[s(table.columns[c])] = cellJson(row[std::size_t(c)]);
        rows.push_back(std::move(o));
    }
    return rows;
}

QString diagnosticsTableCsv(const DiagnosticsTable& table)
{
    QString out = csvLine(table.columns);
    for (const auto& row : table.rows) {
        QStringList fields;
        for (const DiagnosticsCell& c : row)
            fields << cellText(c);
        out += csvLine(fields);
    }
    return out;
}

QString findingsText(const DiagnosticsResult& r)
{
    QString out = QStringLiteral("Window: %1\n\n").arg(header(r));
    if (r.findings.empty())
        out += QStringLiteral("No findings.\n");
    int n = 0;
    for (const Finding& f : r.findings) {
        out += QStringLiteral("%1. [%2] %3\n").arg(++n).arg(severityName(f.severity).toUpper(), f.title);
        out += QStringLiteral("   %1\n").arg(f.detail);
        for (const auto& [label, text] : findingFacts(r, f))
            out += QStringLiteral("   %1: %2\n").arg(label, text);
        if (!f.thresholds.isEmpty())
            out += QStringLiteral("   Thresholds: %1\n").arg(f.thresholds.join(QStringLiteral(", ")));
        out += QLatin1Char('\n');
    }
    if (!r.skipped.empty()) {
        out += QStringLiteral("Not checked (missing data):\n");
        for (const SkippedCheck& k : r.skipped)
            out += QStringLiteral("  %1: %2\n").arg(k.check, k.reason);
    }
    return out;
}

QString diagnosticsMarkdown(const DiagnosticsResult& r)
{
    QString out = QStringLiteral("# nsys-workbench report\n\n");
    out += QStringLiteral("- Trace: `%1`\n").arg(r.profile ? r.profile->meta.filePath : QString());
    out += QStringLiteral("- Window: %1\n").arg(header(r));
    QStringList gpus;
    for (const DiagnosticsDevice& d : r.devices)
        gpus << d.label;
    out += QStringLiteral("- GPUs: %1\n")
               .arg(gpus.isEmpty() ? QStringLiteral("none") : gpus.join(QStringLiteral(", ")));
    if (r.nvtxCoverage)
        out += QStringLiteral("- NVTX coverage: %1 %\n").arg(r.nvtxCoverage->percent(), 0, 'f', 1);
    out += QStringLiteral("\n## Findings\n\n");
    if (r.findings.empty())
        out += QStringLiteral("No findings.\n\n");
    for (const Finding& f : r.findings) {
        out += QStringLiteral("### [%1] %2\n\n").arg(severityName(f.severity), f.title);
        out += f.detail + QStringLiteral("\n\n");
        for (const auto& [label, text] : findingFacts(r, f))
            out += QStringLiteral("- **%1**: %2\n").arg(label, text);
        if (!f.thresholds.isEmpty())
            out += QStringLiteral("- **Thresholds**: `%1`\n").arg(f.thresholds.join(QStringLiteral("`, `")));
        out += QLatin1Char('\n');
    }
    if (!r.skipped.empty()) {
        out += QStringLiteral("## Not checked (missing data)\n\n");
        for (const SkippedCheck& k : r.skipped)
            out += QStringLiteral("- `%1`: %2\n").arg(k.check, k.reason);
        out += QLatin1Char('\n');
    }
    const std::vector<DiagnosticsTable> tables = diagnosticsTables(r);
    for (const QString& id : kShownTables) {
        for (const DiagnosticsTable& t : tables) {
            if (t.id != id || t.rows.empty())
                continue;
            out += QStringLiteral("## %1\n\n").arg(t.title);
            out += QStringLiteral("| ") + t.columns.join(QStringLiteral(" | ")) + QStringLiteral(" |\n|");
            for (qsizetype c = 0; c < t.columns.size(); ++c)
                out += QStringLiteral("---|");
            out += QLatin1Char('\n');
            for (std::size_t i = 0; i < t.rows.size() && i < std::size_t(kRows); ++i) {
                QStringList cells;
                for (qsizetype c = 0; c < t.columns.size(); ++c)
                    cells << mdEscape(cellDisplay(t.columns[c], t.rows[i][std::size_t(c)]));
                out += QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
            }
            if (t.rows.size() > std::size_t(kRows))
                out += QStringLiteral("\n%1 more rows in `tables/%2.csv`.\n").arg(t.rows.size() - kRows).arg(t.id);
            out += QLatin1Char('\n');
        }
    }
    return out;
}

QString diagnosticsHtml(const DiagnosticsResult& r, const std::map<QString, QByteArray>& pngs)
{
    QString out = QStringLiteral(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>nsys-workbench report</title>\n<style>\n"
        "body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:1em 0;"
        "font-size:13px}th,td{border:1px solid #ccc;padding:3px 6px;text-align:left}th{background:#f0f0f0}"
        ".critical{border-left:6px solid #c0392b}.warning{border-left:6px solid #e67e22}.info{border-left:6px solid "
        "#2980b9}.finding{padding:0.5em 1em;margin:1em 0;background:#fafafa}.sev{font-weight:bold;"
        "text-transform:uppercase}img{max-width:100%}\n</style></head><body>\n");
    out += QStringLiteral("<h1>nsys-workbench report</h1>\n<p>Trace: <code>%1</code><br>Window: %2</p>\n")
               .arg(htmlEscape(r.profile ? r.profile->meta.filePath : QString()), htmlEscape(header(r)));
    for (const auto& [id, png] : pngs)
        out += QStringLiteral("<figure><img alt=\"%1\" src=\"data:image/png;base64,%2\"></figure>\n")
                   .arg(htmlEscape(id), QString::fromLatin1(png.toBase64()));
    out += QStringLiteral("<h2>Findings</h2>\n");
    if (r.findings.empty())
        out += QStringLiteral("<p>No findings.</p>\n");
    for (const Finding& f : r.findings) {
        const QString sev = severityName(f.severity);
        out += QStringLiteral("<div class=\"finding %1\"><p><span class=\"sev\">%1</span> <b>%2</b></p><p>%3</p><ul>")
                   .arg(sev, htmlEscape(f.title), htmlEscape(f.detail));
        for (const auto& [label, text] : findingFacts(r, f))
            out += QStringLiteral("<li>%1: %2</li>").arg(label, htmlEscape(text));
        if (!f.thresholds.isEmpty())
            out += QStringLiteral("<li>Thresholds: <code>%1</code></li>")
                       .arg(htmlEscape(f.thresholds.join(QStringLiteral(", "))));
        out += QStringLiteral("</ul></div>\n");
    }
    if (!r.skipped.empty()) {
        out += QStringLiteral("<h2>Not checked (missing data)</h2>\n<ul>\n");
        for (const SkippedCheck& k : r.skipped)
            out += QStringLiteral("<li><code>%1</code>: %2</li>\n").arg(htmlEscape(k.check), htmlEscape(k.reason));
        out += QStringLiteral("</ul>\n");
    }
    const std::vector<DiagnosticsTable> tables = diagnosticsTables(r);
    for (const QString& id : kShownTables) {
        for (const DiagnosticsTable& t : tables) {
            if (t.id != id || t.rows.empty())
                continue;
            out += QStringLiteral("<h2>%1</h2>\n<table><tr>").arg(htmlEscape(t.title));
            for (const QString& c : t.columns)
                out += QStringLiteral("<th>%1</th>").arg(htmlEscape(c));
            out += QStringLiteral("</tr>\n");
            for (std::size_t i = 0; i < t.rows.size() && i < std::size_t(kRows); ++i) {
                out += QStringLiteral("<tr>");
                for (qsizetype c = 0; c < t.columns.size(); ++c)
                    out += QStringLiteral("<td>%1</td>")
                               .arg(htmlEscape(cellDisplay(t.columns[c], t.rows[i][std::size_t(c)])));
                out += QStringLiteral("</tr>\n");
            }
            out += QStringLiteral("</table>\n");
            if (t.rows.size() > std::size_t(kRows))
                out += QStringLiteral("<p>%1 more rows in <code>tables/%2.csv</code>.</p>\n")
                           .arg(t.rows.size() - kRows)
                           .arg(t.id);
        }
    }
    out += QStringLiteral("</body></html>\n");
    return out;
}

} // namespace nsw

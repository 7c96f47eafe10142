// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ranks/ranksexport.h"

#include "core/util/timeformat.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace nsw {

namespace {

using Json = nlohmann::ordered_json;

std::string s(const QString& text)
{
    return text.toStdString();
}

double rounded(double value)
{
    return std::round(value * 100) / 100;
}

Json iterationJson(const RankIterationCell& c)
{
    return { { "iteration", c.iteration }, { "start_ns", c.start }, { "duration_ns", c.duration() },
        { "compute_ns", c.computeNs }, { "communication_ns", c.communicationNs }, { "wait_ns", c.waitNs },
        { "transfer_ns", c.transferNs }, { "memory_ns", c.memoryNs }, { "idle_ns", c.idleNs },
        { "bubble_pct", rounded(c.bubblePercent()) }, { "outlier", c.outlier } };
}

Json rankJson(const RanksResult& r, const RankRow& row)
{
    const RankFile& file = r.fileOf(row);
    const RankSummary& rank = r.summaryOf(row);
    Json iterations = Json::array();
    for (const RankIterationCell& c : row.iterations)
        iterations.push_back(iterationJson(c));
    return { { "rank", row.rank }, { "file", s(file.exportPath) }, { "host", s(file.host) }, { "pid", rank.pid },
        { "gpu", rank.gpu }, { "gpu_name", s(rank.gpuLabel) }, { "process", s(rank.processName) },
        { "clock_offset_ns", row.clockOffsetNs }, { "clock_source", s(row.clockSource) }, { "matched", row.matched },
        { "collectives", row.collectives }, { "last_arrivals", row.lastArrivals }, { "wait_ns", row.waitNs },
        { "iterations_guessed", rank.iterationsGuessed }, { "iteration_detection", s(rank.iterationDetection) },
        { "iterations", std::move(iterations) } };
}

Json collectiveJson(const RanksResult& r, std::size_t i)
{
    const CollectiveInstance& c = r.collectives[i];
    const CollectiveKey& key = r.keys[std::size_t(c.key)];
    Json arrivals = Json::array(), waits = Json::array();
    for (std::size_t j = 0; j < r.matched.size(); ++j) {
        arrivals.push_back(r.arrival(i, j));
        waits.push_back(c.lastArrival - r.arrival(i, j));
    }
    return { { "index", i }, { "name", s(key.name) }, { "kind", s(collectiveName(key.kind)) }, { "stream", key.stream },
        { "sequence", c.sequence }, { "iteration", c.iteration }, { "first_arrival_ns", c.firstArrival },
        { "last_arrival_ns", c.lastArrival }, { "skew_ns", c.skewNs() }, { "straggler", c.straggler },
        { "transfer_ns", c.transferNs }, { "arrivals_ns", std::move(arrivals) }, { "waits_ns", std::move(waits) } };
}

Json findingJson(const RankFinding& rf)
{
    const Finding& f = rf.finding;
    Json metrics = Json::object();
    for (const FindingMetric& m : f.metrics)
        metrics[s(m.name)] = rounded(m.value);
    Json kernels = Json::array(), thresholds = Json::array();
    for (const QString& k : f.evidence.kernelNames)
        kernels.push_back(s(k));
    for (const QString& t : f.thresholds)
        thresholds.push_back(s(t));
    return { { "id", s(f.id) }, { "severity", s(severityName(f.severity)) }, { "title", s(f.title) },
        { "detail", s(f.detail) }, { "recommendation", s(f.recommendation) }, { "gpu_cost_ns", f.gpuCostNs },
        { "metrics", metrics },
        { "evidence",
            { { "ranks", rf.ranks }, { "iterations", rf.iterations }, { "collectives", rf.collectives },
                { "kernels", kernels } } },
        { "thresholds", thresholds } };
}

QString cell(const QString& text)
{
    QString t = text;
    return t.replace(QLatin1Char('|'), QStringLiteral("\\|"));
}

QString mdRow(const QStringList& cells)
{
    QStringList escaped;
    for (const QString& c : cells)
        escaped << cell(c);
    return QStringLiteral("| ") + escaped.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
}

QString mdHeader(const QStringList& cells)
{
    return mdRow(cells) + QStringLiteral("|") + QStringLiteral("---|").repeated(cells.size()) + QLatin1Char('\n');
}

QString findingsMarkdown(const RanksResult& r)
{
    if (r.findings.empty())
        return QStringLiteral("No findings.\n");
    QString md;
    for (const RankFinding& rf : r.findings) {
        const Finding& f = rf.finding;
        md += QStringLiteral("- **%1** %2  \n  %3").arg(severityName(f.severity), f.title, f.detail);
        if (!f.recommendation.isEmpty())
            md += QLatin1Char(' ') + f.recommendation;
        QStringList evidence;
        auto numbers = [](const std::vector<int>& v) {
            QStringList t;
            for (const int n : v)
                t << QString::number(n);
            return t.join(QStringLiteral(", "));
        };
        if (!rf.ranks.empty())
            evidence << QStringLiteral("ranks %1").arg(numbers(rf.ranks));
        if (!rf.iterations.empty())
            evidence << QStringLiteral("iterations %1").arg(numbers(rf.iterations));
        if (!rf.collectives.empty())
            evidence << QStringLiteral("collectives #%1").arg(numbers(rf.collectives));
        if (!f.evidence.kernelNames.isEmpty())
            evidence << QStringLiteral("kernels %1").arg(f.evidence.kernelNames.join(QStringLiteral(", ")));
        if (!evidence.isEmpty())
            md += QStringLiteral("  \n  Evidence: ") + evidence.join(QStringLiteral("; ")) + QLatin1Char('.');
        md += QStringLiteral("  \n  Thresholds: %1\n").arg(f.thresholds.join(QStringLiteral(", ")));
    }
    return md;
}

QString rankTableMarkdown(const RanksResult& r)
{
    QString md = mdHeader({ QStringLiteral("rank"), QStringLiteral("host"), QStringLiteral("pid"),
        QStringLiteral("GPU"), QStringLiteral("file"), QStringLiteral("clock offset"), QStringLiteral("iterations"),
        QStringLiteral("median iteration"), QStringLiteral("collectives"), QStringLiteral("last arrivals"),
        QStringLiteral("wait") });
    for (const RankRow& row : r.ranks) {
        const RankSummary& rank = r.summaryOf(row);
        std::vector<TimeNs> d;
        for (const RankIterationCell& c : row.iterations)
            d.push_back(c.duration());
        std::sort(d.begin(), d.end());
        md += mdRow({ QString::number(row.rank), r.fileOf(row).host, QString::number(rank.pid), rank.gpuLabel,
            r.fileOf(row).exportPath,
            (row.clockOffsetNs < 0 ? QStringLiteral("-") : QString()) + formatDuration(std::abs(row.clockOffsetNs)),
            QString::number(row.iterations.size()) + (rank.iterationsGuessed ? QStringLiteral(" (guess)") : QString()),
            d.empty() ? QStringLiteral("-") : formatDuration(d[(d.size() - 1) / 2]),
            row.matched ? QString::number(row.collectives) : QStringLiteral("not matched"),
            QString::number(row.lastArrivals), formatDuration(row.waitNs) });
    }
    return md;
}

QString matrixMarkdown(const RanksResult& r, RankMetric metric)
{
    QStringList header { QStringLiteral("rank") };
    for (int i = 0; i < r.iterationCount(); ++i)
        header << QString::number(i);
    QString md = mdHeader(header);
    for (const RankRow& row : r.ranks) {
        QStringList cells { QString::number(row.rank) };
        for (int i = 0; i < r.iterationCount(); ++i)
            cells << (std::size_t(i) < row.iterations.size()
                    ? formatRankMetric(metric, row.iterations[std::size_t(i)].value(metric))
                        + (row.iterations[std::size_t(i)].outlier ? QStringLiteral(" !") : QString())
                    : QString());
        md += mdRow(cells);
    }
    return md;
}

QString collectivesMarkdown(const RanksResult& r)
{
    std::vector<std::size_t> order(r.collectives.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    const std::size_t n = std::min<std::size_t>(20, order.size());
    std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(n), order.end(),
        [&](std::size_t a, std::size_t b) { return r.collectives[a].skewNs() > r.collectives[b].skewNs(); });
    QString md = mdHeader(
        { QStringLiteral("#"), QStringLiteral("collective"), QStringLiteral("NCCL stream"), QStringLiteral("iteration"),
            QStringLiteral("last to arrive"), QStringLiteral("skew"), QStringLiteral("transfer") });
    for (std::size_t k = 0; k < n; ++k) {
        const CollectiveInstance& c = r.collectives[order[k]];
        const CollectiveKey& key = r.keys[std::size_t(c.key)];
        md += mdRow({ QString::number(order[k]), QStringLiteral("%1 %2").arg(collectiveName(key.kind)).arg(c.sequence),
            QString::number(key.stream), c.iteration < 0 ? QStringLiteral("-") : QString::number(c.iteration),
            QStringLiteral("rank %1").arg(c.straggler), formatDuration(c.skewNs()), formatDuration(c.transferNs) });
    }
    return md;
}

} // namespace

QString formatRankMetric(RankMetric metric, double value)
{
    return metric == RankMetric::Bubble ? QString::number(value, 'f', 1) + QStringLiteral(" %")
                                        : formatDuration(qint64(std::llround(value)));
}

nlohmann::ordered_json ranksJson(const RanksResult& r, RankMetric metric)
{
    Json j;
    j["tool"] = "nsys-workbench ranks";
    j["iteration_marker"] = r.iterationMarker.isEmpty() ? Json() : Json(s(r.iterationMarker));
    j["metric"] = s(rankMetricName(metric));
    j["reference_rank"] = r.referenceRank;
    j["clock"] = "iteration start_ns are on the rank's own export clock; arrivals on the reference rank's export "
                 "clock (a rank's clock_offset_ns added to its own times)";
    Json matched = Json::array();
    for (const int m : r.matched)
        matched.push_back(r.ranks[std::size_t(m)].rank);
    j["matched_ranks"] = std::move(matched);
    j["ranks"] = Json::array();
    for (const RankRow& row : r.ranks)
        j["ranks"].push_back(rankJson(r, row));
    j["collectives"] = Json::array();
    for (std::size_t i = 0; i < r.collectives.size(); ++i)
        j["collectives"].push_back(collectiveJson(r, i));
    j["findings"] = Json::array();
    for (const RankFinding& f : r.findings)
        j["findings"].push_back(findingJson(f));
    j["problems"] = Json::array();
    for (const RankProblem& p : r.problems) {
        Json files = Json::array();
        for (const QString& f : p.files)
            files.push_back(s(f));
        j["problems"].push_back({ { "files", std::move(files) }, { "message", s(p.message) } });
    }
    return j;
}

QString ranksFindingsMarkdown(const RanksResult& r)
{
    QString md = QStringLiteral("## Findings\n\n") + findingsMarkdown(r);
    if (!r.problems.empty()) {
        md += QStringLiteral("\n## Problems\n\n");
        for (const RankProblem& p : r.problems)
            md += QStringLiteral("- %1\n").arg(p.message);
    }
    return md;
}

QString ranksMarkdown(const RanksResult& r, RankMetric metric)
{
    QString md = QStringLiteral("# Ranks\n\n%1 rank(s) from %2 input(s); iterations: %3; %4 of them matched at %5 "
                                "collective(s); reference clock: the export of rank %6.\n\n")
                     .arg(r.ranks.size())
                     .arg(r.files.size())
                     .arg(r.iterationMarker.isEmpty() ? QStringLiteral("automatic")
                                                      : QStringLiteral("marker '%1'").arg(r.iterationMarker))
                     .arg(r.matched.size())
                     .arg(r.collectives.size())
                     .arg(r.referenceRank);
    md += ranksFindingsMarkdown(r);
    md += QStringLiteral("\n## Ranks\n\n") + rankTableMarkdown(r);
    md += QStringLiteral("\n## %1 per rank × iteration\n\n").arg(rankMetricTitle(metric));
    md += QStringLiteral("Each rank's own iterations (\"!\": an outlier among them).\n\n") + matrixMarkdown(r, metric);
    if (!r.collectives.empty())
        md += QStringLiteral("\n## Collectives with the largest arrival skew\n\n") + collectivesMarkdown(r);
    return md;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ranks/rankfindings.h"

#include "core/util/timeformat.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace nsw {

namespace {

double threshold(const char* name)
{
    for (const ThresholdSpec& s : rankThresholdSpecs())
        if (s.name == QLatin1String(name))
            return s.defaultValue;
    return 0;
}

QString describe(const char* name)
{
    return QStringLiteral("%1=%2").arg(QLatin1String(name)).arg(threshold(name));
}

QString pct(double value)
{
    return QString::number(value, 'f', 1) + QStringLiteral(" %");
}

TimeNs median(std::vector<TimeNs> v)
{
    if (v.empty())
        return 0;
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

/// "all-reduces", "send/recvs", or "the collectives" when several kinds ran.
QString kindsText(const RanksResult& r)
{
    std::map<Collective, qint64> kinds;
    for (const CollectiveInstance& c : r.collectives)
        ++kinds[r.keys[std::size_t(c.key)].kind];
    if (kinds.size() != 1)
        return QStringLiteral("the collectives");
    switch (kinds.begin()->first) {
    case Collective::AllReduce:
        return QStringLiteral("all-reduces");
    case Collective::AllGather:
        return QStringLiteral("all-gathers");
    case Collective::ReduceScatter:
        return QStringLiteral("reduce-scatters");
    case Collective::Broadcast:
        return QStringLiteral("broadcasts");
    case Collective::Reduce:
        return QStringLiteral("reduces");
    case Collective::SendRecv:
        return QStringLiteral("send/recvs");
    case Collective::AllToAll:
        return QStringLiteral("all-to-alls");
    case Collective::Other:
        break;
    }
    return QStringLiteral("the collectives");
}

/// A rank's compute: per iteration (the median over its iterations) when it has iterations, else its whole
/// non-NCCL kernel time.
TimeNs computeOf(const RanksResult& r, const RankRow& row)
{
    if (!row.iterations.empty()) {
        std::vector<TimeNs> v;
        for (const RankIterationCell& c : row.iterations)
            v.push_back(c.computeNs);
        return median(std::move(v));
    }
    const RankFile& file = r.fileOf(row);
    TimeNs total = 0;
    for (const KernelSum& k : r.summaryOf(row).kernelSums)
        if (!file.names[qsizetype(k.name)].contains(QLatin1String("nccl"), Qt::CaseInsensitive))
            total += k.totalNs;
    return total;
}

class RankFindingsBuilder
{
public:
    explicit RankFindingsBuilder(const RanksResult& r)
        : r(r)
    {
        std::vector<TimeNs> durations;
        for (const int m : r.matched)
            for (const RankIterationCell& c : r.ranks[std::size_t(m)].iterations)
                durations.push_back(c.duration());
        medianStep = median(std::move(durations));
    }

    std::vector<RankFinding> run()
    {
        stragglers();
        outlierIterations();
        loadImbalance();
        std::stable_sort(out.begin(), out.end(), [](const RankFinding& a, const RankFinding& b) {
            if (a.finding.severity != b.finding.severity)
                return a.finding.severity > b.finding.severity;
            return a.finding.gpuCostNs > b.finding.gpuCostNs;
        });
        return std::move(out);
    }

private:
    /// Mean wait of @p rows per iteration (per collective without iterations), and its share of the median step.
    std::pair<TimeNs, double> meanWait(const std::vector<const RankRow*>& rows) const
    {
        double sum = 0;
        for (const RankRow* row : rows) {
            const double per = medianStep > 0 ? double(std::max<std::size_t>(row->iterations.size(), 1))
                                              : double(std::max<qint64>(row->collectives, 1));
            sum += double(row->waitNs) / per;
        }
        const TimeNs mean = rows.empty() ? 0 : TimeNs(sum / double(rows.size()));
        double base = double(medianStep);
        if (base <= 0 && !r.collectives.empty()) {
            double transfer = 0;
            for (const CollectiveInstance& c : r.collectives)
                transfer += double(c.transferNs + c.skewNs());
            base = transfer / double(r.collectives.size());
        }
        return { mean, base > 0 ? 100.0 * double(mean) / base : 0.0 };
    }

    void stragglers()
    {
        if (r.collectives.size() < 3 || r.matched.size() < 2)
            return;
        const RankRow* top = nullptr;
        std::vector<const RankRow*> rows;
        for (const int m : r.matched) {
            rows.push_back(&r.ranks[std::size_t(m)]);
            if (!top || rows.back()->lastArrivals > top->lastArrivals)
                top = rows.back();
        }
        const double instances = double(r.collectives.size());
        const double share = 100.0 * double(top->lastArrivals) / instances;
        const double persistentShare = std::max(threshold("straggler_share_pct"), 150.0 / double(r.matched.size()));
        std::vector<const RankRow*> others;
        for (const RankRow* row : rows)
            if (row != top)
                others.push_back(row);
        const auto [wait, waitShare] = meanWait(share >= persistentShare ? others : rows);
        if (waitShare < threshold("straggler_wait_pct"))
            return;
        const QString per = medianStep > 0 ? QStringLiteral("per iteration") : QStringLiteral("per collective");
        const QString base = medianStep > 0 ? QStringLiteral("the median step") : QStringLiteral("a collective");
        RankFinding f;
        // Against a step the share says what the waits cost; against a collective (no iterations) it does not.
        f.finding.severity = waitShare >= 10 && medianStep > 0 ? Severity::Critical : Severity::Warning;
        f.finding.thresholds = { describe("straggler_share_pct"), describe("straggler_wait_pct") };
        if (share >= persistentShare) {
            f.finding.id = QStringLiteral("persistent_straggler");
            f.finding.title = QStringLiteral("rank %1 arrives last at %2 of %3; the other ranks wait %4 %5 on "
                                             "average (%6 of %7)")
                                  .arg(top->rank)
                                  .arg(pct(share), kindsText(r), formatDuration(wait), per, pct(waitShare), base);
            f.finding.detail = QStringLiteral("Rank %1 is the last to reach %2 of %3 matched collectives, so the "
                                              "other %4 ranks sit in NCCL kernels waiting for it.")
                                   .arg(top->rank)
                                   .arg(top->lastArrivals)
                                   .arg(r.collectives.size())
                                   .arg(others.size());
            f.finding.recommendation = QStringLiteral("See below whether it computes slower or starts late; fix that "
                                                      "rank, not the collectives.");
            f.ranks = { top->rank };
            for (const RankRow* row : others) // the GPU it hurts most, never a sum over GPUs
                f.finding.gpuCostNs = std::max(f.finding.gpuCostNs, row->waitNs);
            addStragglerCause(*top, others);
        } else {
            f.finding.id = QStringLiteral("rotating_straggler");
            std::vector<const RankRow*> byLast = rows;
            std::stable_sort(byLast.begin(), byLast.end(),
                [](const RankRow* a, const RankRow* b) { return a->lastArrivals > b->lastArrivals; });
            QStringList leaders;
            for (std::size_t i = 0; i < std::min<std::size_t>(3, byLast.size()); ++i) {
                leaders << QStringLiteral("rank %1 %2")
                               .arg(byLast[i]->rank)
                               .arg(pct(100.0 * double(byLast[i]->lastArrivals) / instances));
                f.ranks.push_back(byLast[i]->rank);
            }
            f.finding.title
                = QStringLiteral("stragglers rotate: the last arrival moves between ranks (%1); the ranks "
                                 "wait %2 %3 on average (%4 of %5)")
                      .arg(leaders.join(QStringLiteral(", ")), formatDuration(wait), per, pct(waitShare), base);
            f.finding.detail = QStringLiteral("No rank is last at %1 or more of the %2 matched collectives.")
                                   .arg(pct(persistentShare))
                                   .arg(r.collectives.size());
            f.finding.recommendation = QStringLiteral("Rotating stragglers point at noise shared by all ranks (data "
                                                      "loading, the host, the network); compare the slow iterations.");
            for (const RankRow* row : rows)
                f.finding.gpuCostNs = std::max(f.finding.gpuCostNs, row->waitNs);
        }
        f.finding.metrics = { { QStringLiteral("last_arrival_pct"), share, QStringLiteral("%") },
            { QStringLiteral("wait_ns"), double(wait), QStringLiteral("ns") },
            { QStringLiteral("wait_pct"), waitShare, QStringLiteral("%") } };
        addLargestSkews(f, f.ranks.size() == 1 ? f.ranks.front() : -1);
        out.insert(out.begin(), f);
    }

    /// The collectives with the largest skew (those @p straggler arrived last at, when given) and their iterations.
    void addLargestSkews(RankFinding& f, int straggler) const
    {
        std::vector<int> order;
        for (std::size_t i = 0; i < r.collectives.size(); ++i)
            if (straggler < 0 || r.collectives[i].straggler == straggler)
                order.push_back(int(i));
        const std::size_t n = std::min<std::size_t>(5, order.size());
        std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(n), order.end(), [&](int a, int b) {
            return r.collectives[std::size_t(a)].skewNs() > r.collectives[std::size_t(b)].skewNs();
        });
        for (std::size_t i = 0; i < n; ++i) {
            f.collectives.push_back(order[i]);
            const int it = r.collectives[std::size_t(order[i])].iteration;
            if (it >= 0 && std::find(f.iterations.begin(), f.iterations.end(), it) == f.iterations.end())
                f.iterations.push_back(it);
        }
    }

    void addStragglerCause(const RankRow& straggler, const std::vector<const RankRow*>& others)
    {
        std::vector<TimeNs> theirs;
        for (const RankRow* row : others)
            theirs.push_back(computeOf(r, *row));
        const TimeNs own = computeOf(r, straggler), typical = median(theirs);
        if (typical <= 0)
            return;
        const double slower = 100.0 * (double(own) / double(typical) - 1.0);
        RankFinding f;
        f.ranks = { straggler.rank };
        f.finding.severity = Severity::Warning;
        f.finding.thresholds = { describe("slow_compute_pct"), describe("kernel_slower_pct") };
        f.finding.metrics = { { QStringLiteral("compute_slower_pct"), slower, QStringLiteral("%") } };
        const QString what
            = straggler.iterations.empty() ? QStringLiteral("kernel time") : QStringLiteral("compute per iteration");
        if (slower >= threshold("slow_compute_pct")) {
            f.finding.id = QStringLiteral("slow_compute_rank");
            f.finding.title = QStringLiteral("rank %1 computes %2 slower than the other ranks (same kernels, longer "
                                             "durations)")
                                  .arg(straggler.rank)
                                  .arg(pct(slower));
            f.finding.detail = QStringLiteral("Its %1 is %2 against a median of %3 on the others.")
                                   .arg(what, formatDuration(own), formatDuration(typical));
            f.finding.evidence.kernelNames = slowerKernels(straggler, others);
            if (!f.finding.evidence.kernelNames.isEmpty())
                f.finding.detail += QStringLiteral(" Slower on it: %1.")
                                        .arg(f.finding.evidence.kernelNames.join(QStringLiteral(", ")));
            f.finding.recommendation = QStringLiteral("Check that rank's GPU (clocks, thermals, another process on "
                                                      "it) and its share of the work (uneven batches or layers).");
            f.finding.gpuCostNs = (own - typical) * TimeNs(std::max<std::size_t>(straggler.iterations.size(), 1));
        } else {
            f.finding.id = QStringLiteral("late_start_rank");
            f.finding.title = QStringLiteral("rank %1 starts late (host side): its GPU computes as fast as the others' "
                                             "but reaches the collectives last")
                                  .arg(straggler.rank);
            f.finding.detail
                = QStringLiteral("Its %1 is %2 against a median of %3 on the others (within %4).")
                      .arg(what, formatDuration(own), formatDuration(typical), pct(threshold("slow_compute_pct")));
            f.finding.recommendation = QStringLiteral("Look at that rank's CPU side before its collectives: data "
                                                      "loading, host synchronisation, Python overhead, launch gaps.");
        }
        out.push_back(f);
    }

    /// Kernel names (non-NCCL) whose average duration on @p rank is kernel_slower_pct above the median of the
    /// others' averages, the five that cost the most extra time.
    QStringList slowerKernels(const RankRow& rank, const std::vector<const RankRow*>& others) const
    {
        std::map<QString, std::vector<double>> averages;
        for (const RankRow* row : others) {
            const RankFile& file = r.fileOf(*row);
            for (const KernelSum& k : r.summaryOf(*row).kernelSums)
                if (k.count > 0)
                    averages[file.names[qsizetype(k.name)]].push_back(double(k.totalNs) / double(k.count));
        }
        std::vector<std::pair<double, QString>> excess;
        const RankFile& file = r.fileOf(rank);
        for (const KernelSum& k : r.summaryOf(rank).kernelSums) {
            const QString& name = file.names[qsizetype(k.name)];
            const auto it = averages.find(name);
            if (k.count == 0 || it == averages.end() || name.contains(QLatin1String("nccl"), Qt::CaseInsensitive))
                continue;
            std::vector<double>& v = it->second;
            std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
            const double typical = v[v.size() / 2], own = double(k.totalNs) / double(k.count);
            if (own >= typical * (1 + threshold("kernel_slower_pct") / 100))
                excess.push_back({ double(k.count) * (own - typical), name });
        }
        std::stable_sort(excess.begin(), excess.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        QStringList names;
        for (std::size_t i = 0; i < std::min<std::size_t>(5, excess.size()); ++i)
            names << excess[i].second;
        return names;
    }

    void outlierIterations()
    {
        RankFinding f;
        QStringList parts;
        std::vector<TimeNs> durations;
        for (const RankRow& row : r.ranks)
            for (const RankIterationCell& c : row.iterations)
                durations.push_back(c.duration());
        const TimeNs typical = median(durations);
        for (const RankRow& row : r.ranks) {
            QStringList its;
            TimeNs lost = 0;
            for (const RankIterationCell& c : row.iterations) {
                if (!c.outlier)
                    continue;
                its << QString::number(c.iteration);
                if (std::find(f.iterations.begin(), f.iterations.end(), c.iteration) == f.iterations.end())
                    f.iterations.push_back(c.iteration);
                lost += std::max<TimeNs>(c.duration() - typical, 0);
            }
            f.finding.gpuCostNs = std::max(f.finding.gpuCostNs, lost);
            if (its.isEmpty())
                continue;
            f.ranks.push_back(row.rank);
            parts << QStringLiteral("rank %1 (iteration%2 %3)")
                         .arg(row.rank)
                         .arg(its.size() > 1 ? QStringLiteral("s") : QString(), its.join(QStringLiteral(", ")));
        }
        if (f.ranks.empty())
            return;
        std::sort(f.iterations.begin(), f.iterations.end());
        f.finding.id = QStringLiteral("rank_outlier_iterations");
        f.finding.severity = Severity::Info;
        f.finding.title = QStringLiteral("%1 rank(s) have outlier iterations").arg(f.ranks.size());
        f.finding.detail
            = QStringLiteral("Iterations farther than 3 × 1.4826 × MAD from the rank's median duration: %1.")
                  .arg(parts.mid(0, 8).join(QStringLiteral("; "))
                      + (parts.size() > 8 ? QStringLiteral("; …") : QString()));
        f.finding.recommendation = QStringLiteral(
            "Open an outlier iteration of the rank (click its cell) and compare it with a typical one.");
        f.finding.metrics = { { QStringLiteral("ranks"), double(f.ranks.size()), QStringLiteral("count") } };
        f.finding.thresholds = { QStringLiteral("robust 3 sigma (3 × 1.4826 × MAD)") };
        out.push_back(f);
    }

    void loadImbalance()
    {
        if (r.ranks.size() < 2)
            return;
        std::vector<TimeNs> compute;
        const RankRow* top = nullptr;
        TimeNs most = -1;
        for (const RankRow& row : r.ranks) {
            compute.push_back(computeOf(r, row));
            if (compute.back() > most) {
                most = compute.back();
                top = &row;
            }
        }
        const double mean = double(std::accumulate(compute.begin(), compute.end(), TimeNs(0))) / double(compute.size());
        if (mean <= 0 || double(most) / mean < threshold("load_imbalance_ratio"))
            return;
        const double ratio = double(most) / mean;
        RankFinding f;
        f.ranks = { top->rank };
        f.finding.id = QStringLiteral("load_imbalance");
        f.finding.severity = ratio >= 1.25 ? Severity::Warning : Severity::Info;
        f.finding.title = QStringLiteral("load imbalance: rank %1 computes %2× the mean of the ranks (max/mean)")
                              .arg(top->rank)
                              .arg(ratio, 0, 'f', 2);
        f.finding.detail = QStringLiteral("Compute %1: %2 on rank %3, mean %4 over %5 ranks.")
                               .arg(top->iterations.empty() ? QStringLiteral("(all kernels but NCCL's)")
                                                            : QStringLiteral("per iteration (median)"),
                                   formatDuration(most))
                               .arg(top->rank)
                               .arg(formatDuration(TimeNs(mean)))
                               .arg(r.ranks.size());
        f.finding.recommendation = QStringLiteral("Balance the work (batch sizes, sequence lengths, pipeline stages, "
                                                  "expert routing) so that no rank waits for the busiest one.");
        f.finding.metrics = { { QStringLiteral("max_over_mean"), ratio, QStringLiteral("ratio") } };
        f.finding.thresholds = { describe("load_imbalance_ratio") };
        f.finding.gpuCostNs = TimeNs((double(most) - mean) * double(std::max<std::size_t>(top->iterations.size(), 1)));
        out.push_back(f);
    }

    const RanksResult& r;
    TimeNs medianStep = 0;
    std::vector<RankFinding> out;
};

} // namespace

const std::vector<ThresholdSpec>& rankThresholdSpecs()
{
    static const std::vector<ThresholdSpec> specs = shippedThresholdSpecs("ranks");
    return specs;
}

std::vector<RankFinding> rankFindings(const RanksResult& result)
{
    return RankFindingsBuilder(result).run();
}

} // namespace nsw

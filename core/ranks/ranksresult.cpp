// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ranks/ranksresult.h"

#include "core/util/stringlists.h"

#include <algorithm>

namespace nsw {

namespace {

struct MetricNames
{
    const char* name;
    const char* title;
};

constexpr MetricNames kMetrics[kRankMetricCount] = {
    { "time", "iteration time" },
    { "compute", "compute" },
    { "communication", "communication" },
    { "wait", "wait for other ranks" },
    { "transfer", "transfer" },
    { "memory", "memory operations" },
    { "idle", "idle" },
    { "bubble", "bubble share" },
};

} // namespace

QString rankMetricName(RankMetric metric)
{
    return QLatin1String(kMetrics[int(metric)].name);
}

QString rankMetricTitle(RankMetric metric)
{
    return QLatin1String(kMetrics[int(metric)].title);
}

std::optional<RankMetric> rankMetricFromName(const QString& name)
{
    for (int m = 0; m < kRankMetricCount; ++m)
        if (name == QLatin1String(kMetrics[m].name))
            return RankMetric(m);
    return std::nullopt;
}

QStringList rankMetricNames()
{
    return textsOf(kMetrics, [](const MetricNames& m) { return QLatin1String(m.name); });
}

double RankIterationCell::value(RankMetric metric) const
{
    switch (metric) {
    case RankMetric::Time:
        return double(duration());
    case RankMetric::Compute:
        return double(computeNs);
    case RankMetric::Communication:
        return double(communicationNs);
    case RankMetric::Wait:
        return double(waitNs);
    case RankMetric::Transfer:
        return double(transferNs);
    case RankMetric::Memory:
        return double(memoryNs);
    case RankMetric::Idle:
        return double(idleNs);
    case RankMetric::Bubble:
        return bubblePercent();
    }
    return 0;
}

int RanksResult::iterationCount() const
{
    std::size_t most = 0;
    for (const RankRow& r : ranks)
        most = std::max(most, r.iterations.size());
    return int(most);
}

const RankRow* RanksResult::row(int rank) const
{
    const auto it
        = std::lower_bound(ranks.begin(), ranks.end(), rank, [](const RankRow& r, int n) { return r.rank < n; });
    return it != ranks.end() && it->rank == rank ? &*it : nullptr;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ranks/collectivematch.h"

#include <QHash>
#include <algorithm>
#include <map>

namespace nsw {

namespace {

/// "ncclDevKernel_SendRecv" of "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096>)": enough to tell them apart
/// in a message.
QString shortKernelName(const QString& name)
{
    const qsizetype paren = name.indexOf(QLatin1Char('('));
    return paren > 0 ? name.left(paren) : name;
}

/// The first key whose count differs from the run's, as "120 × NAME on its NCCL stream 1 where the run has 121".
QString firstDifference(const std::vector<qint64>& counts, const std::vector<qint64>& run,
    const std::vector<CollectiveKey>& keys, qsizetype agreeing)
{
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const qint64 own = k < counts.size() ? counts[k] : 0;
        const qint64 theirs = k < run.size() ? run[k] : 0;
        if (own != theirs)
            return QStringLiteral("%1 × %2 on its NCCL stream %3 where %4 other rank(s) have %5")
                .arg(own)
                .arg(shortKernelName(keys[k].name))
                .arg(keys[k].stream)
                .arg(agreeing)
                .arg(theirs);
    }
    return {};
}

} // namespace

void CollectiveMatch::drop(std::size_t column)
{
    matched.erase(matched.begin() + std::ptrdiff_t(column));
    byKey.erase(byKey.begin() + std::ptrdiff_t(column));
}

CollectiveMatch matchCollectives(RanksResult& result)
{
    CollectiveMatch m;
    QHash<QPair<std::uint32_t, QString>, int> keyIndex;
    std::vector<std::vector<std::vector<std::uint32_t>>> lists(result.ranks.size());
    for (std::size_t r = 0; r < result.ranks.size(); ++r) {
        const RankFile& file = result.fileOf(result.ranks[r]);
        const RankSummary& rank = result.summaryOf(result.ranks[r]);
        for (std::size_t c = 0; c < rank.collectives.size(); ++c) {
            const RankCollective& col = rank.collectives[c];
            const QString& name = file.names[qsizetype(col.name)];
            auto it = keyIndex.find({ col.stream, name });
            if (it == keyIndex.end()) {
                it = keyIndex.insert({ col.stream, name }, int(m.keys.size()));
                m.keys.push_back({ col.stream, name, collectiveOf(name) });
            }
            if (lists[r].size() <= std::size_t(*it))
                lists[r].resize(std::size_t(*it) + 1);
            lists[r][std::size_t(*it)].push_back(std::uint32_t(c));
        }
    }
    std::vector<std::vector<qint64>> counts(result.ranks.size(), std::vector<qint64>(m.keys.size(), 0));
    std::map<std::vector<qint64>, std::pair<int, std::size_t>> popularity; // counts -> (ranks, first rank)
    for (std::size_t r = 0; r < result.ranks.size(); ++r) {
        for (std::size_t k = 0; k < lists[r].size(); ++k)
            counts[r][k] = qint64(lists[r][k].size());
        auto [it, added] = popularity.try_emplace(counts[r], 0, r);
        ++it->second.first;
    }
    if (m.keys.empty())
        return m;
    const auto run = std::max_element(popularity.begin(), popularity.end(), [](const auto& a, const auto& b) {
        return a.second.first != b.second.first ? a.second.first < b.second.first : a.second.second > b.second.second;
    });
    const qsizetype agreeing = run->second.first;
    for (std::size_t r = 0; r < result.ranks.size(); ++r) {
        RankRow& row = result.ranks[r];
        if (counts[r] == run->first) {
            m.matched.push_back(int(r));
            lists[r].resize(m.keys.size());
            m.byKey.push_back(std::move(lists[r]));
            continue;
        }
        const RankFile& file = result.fileOf(row);
        result.problems.push_back({ { file.inputPath() },
            QStringLiteral("%1 (rank %2): its NCCL kernels do not match the other ranks': %3; its collectives are "
                           "left unmatched (no waits)")
                .arg(file.inputPath())
                .arg(row.rank)
                .arg(firstDifference(counts[r], run->first, m.keys, agreeing)) });
    }
    if (m.matched.size() < 2) {
        m.matched.clear();
        m.byKey.clear();
    }
    for (const int r : m.matched)
        result.ranks[std::size_t(r)].matched = true;
    return m;
}

namespace {

/// The index of the iteration of @p cells that @p t falls in, -1 when none.
int iterationAt(const std::vector<RankIterationCell>& cells, TimeNs t)
{
    auto it = std::upper_bound(
        cells.begin(), cells.end(), t, [](TimeNs v, const RankIterationCell& c) { return v < c.start; });
    if (it == cells.begin())
        return -1;
    --it;
    return t < it->end ? int(it - cells.begin()) : -1;
}

/// (key, sequence) of each of the reference rank's collectives, in its order.
std::vector<std::pair<int, int>> referenceOrder(const CollectiveMatch& m, std::size_t collectives)
{
    std::vector<std::pair<int, int>> order(collectives, { -1, -1 });
    const auto& lists = m.byKey.front();
    for (std::size_t k = 0; k < lists.size(); ++k)
        for (std::size_t s = 0; s < lists[k].size(); ++s)
            order[lists[k][s]] = { int(k), int(s) };
    return order;
}

} // namespace

void measureCollectives(RanksResult& result, const CollectiveMatch& match, const JobContext& job)
{
    const std::size_t columns = match.matched.size();
    result.matched = match.matched;
    result.keys = match.keys;
    if (columns < 2)
        return;
    const RankSummary& reference = result.summaryOf(result.ranks[std::size_t(match.matched.front())]);
    const std::vector<std::pair<int, int>> order = referenceOrder(match, reference.collectives.size());
    const std::size_t instances = order.size();
    result.collectives.resize(instances);
    result.arrivals.resize(instances * columns);
    result.ends.resize(instances * columns);
    for (std::size_t j = 0; j < columns; ++j) {
        if (job.isCancelled())
            return;
        const RankRow& row = result.ranks[std::size_t(match.matched[j])];
        const RankSummary& rank = result.summaryOf(row);
        for (std::size_t i = 0; i < instances; ++i) {
            const auto [key, sequence] = order[i];
            const RankCollective& c = rank.collectives[match.byKey[j][std::size_t(key)][std::size_t(sequence)]];
            result.arrivals[i * columns + j] = c.start + row.clockOffsetNs;
            result.ends[i * columns + j] = c.end + row.clockOffsetNs;
        }
    }
    for (std::size_t i = 0; i < instances; ++i) {
        CollectiveInstance& instance = result.collectives[i];
        instance.key = order[i].first;
        instance.sequence = order[i].second;
        const TimeNs* arrivals = &result.arrivals[i * columns];
        const auto last = std::max_element(arrivals, arrivals + columns); // the first of equal ones: the lowest rank
        instance.firstArrival = *std::min_element(arrivals, arrivals + columns);
        instance.lastArrival = *last;
        const std::size_t straggler = std::size_t(last - arrivals);
        instance.straggler = result.ranks[std::size_t(match.matched[straggler])].rank;
        instance.transferNs = result.ends[i * columns + straggler] - instance.lastArrival;
    }
    for (std::size_t j = 0; j < columns; ++j) {
        if (job.isCancelled())
            return;
        RankRow& row = result.ranks[std::size_t(match.matched[j])];
        for (std::size_t i = 0; i < instances; ++i) {
            CollectiveInstance& instance = result.collectives[i];
            const TimeNs arrival = result.arrivals[i * columns + j];
            const TimeNs duration = result.ends[i * columns + j] - arrival;
            const TimeNs wait = instance.lastArrival - arrival;
            ++row.collectives;
            row.waitNs += wait;
            if (instance.straggler == row.rank)
                ++row.lastArrivals;
            const int iteration = iterationAt(row.iterations, arrival - row.clockOffsetNs);
            if (j == 0)
                instance.iteration = iteration;
            if (iteration < 0)
                continue;
            RankIterationCell& cell = row.iterations[std::size_t(iteration)];
            const TimeNs waiting = std::clamp<TimeNs>(wait, 0, std::max<TimeNs>(duration, 0));
            cell.waitNs += waiting;
            cell.transferNs += std::max<TimeNs>(duration, 0) - waiting;
        }
    }
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ranks/rankalign.h"

#include "core/util/timeformat.h"

#include <algorithm>
#include <map>
#include <optional>

namespace nsw {

namespace {

TimeNs medianOf(std::vector<TimeNs>& v)
{
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

/// "+1.25 ms", "-812 ns".
QString signedDuration(TimeNs ns)
{
    return (ns < 0 ? QStringLiteral("-") : QStringLiteral("+")) + formatDuration(ns < 0 ? -ns : ns);
}

/// Per file: the reference rank's collective end minus the file's matched ranks' ends of the same collectives.
std::map<int, std::vector<TimeNs>> endResiduals(const RanksResult& result, const CollectiveMatch& match)
{
    std::map<int, std::vector<TimeNs>> residuals;
    if (match.matched.empty())
        return residuals;
    const RankRow& reference = result.ranks[std::size_t(match.matched.front())];
    const RankSummary& ref = result.summaryOf(reference);
    for (std::size_t j = 1; j < match.matched.size(); ++j) {
        const RankRow& row = result.ranks[std::size_t(match.matched[j])];
        if (row.file == reference.file)
            continue;
        const RankSummary& rank = result.summaryOf(row);
        std::vector<TimeNs>& out = residuals[row.file];
        for (std::size_t k = 0; k < match.keys.size(); ++k) {
            const auto& own = match.byKey[j][k];
            const auto& theirs = match.byKey.front()[k];
            for (std::size_t s = 0; s < own.size(); ++s)
                out.push_back(ref.collectives[theirs[s]].end - rank.collectives[own[s]].end);
        }
    }
    return residuals;
}

struct FileClock
{
    TimeNs offset = 0;
    QString source;
    bool unaligned = false; ///< its collectives cannot be put on the reference clock
};

FileClock clockOf(const RankFile& file, const RankFile& reference, std::vector<TimeNs>* residuals)
{
    FileClock clock;
    std::optional<TimeNs> fromStart;
    if (file.sessionStartUtcNs != kNoTime && reference.sessionStartUtcNs != kNoTime)
        fromStart = file.sessionStartUtcNs - reference.sessionStartUtcNs;
    clock.offset = fromStart.value_or(0);
    if (residuals && !residuals->empty()) {
        const TimeNs shift = medianOf(*residuals);
        std::vector<TimeNs> deviations;
        deviations.reserve(residuals->size());
        for (const TimeNs r : *residuals)
            deviations.push_back(r > shift ? r - shift : shift - r);
        const TimeNs spread = medianOf(deviations);
        if (spread > kMaxAlignedSpreadNs) {
            clock.unaligned = true;
            clock.source = QStringLiteral("%1 (its collectives end %2 apart from the reference rank's after any shift)")
                               .arg(fromStart ? QStringLiteral("session start (UTC)") : QStringLiteral("not aligned"),
                                   formatDuration(spread));
            return clock;
        }
        clock.offset = shift;
        clock.source = fromStart ? QStringLiteral("session start (UTC), refined by %1 collective ends: %2")
                                       .arg(residuals->size())
                                       .arg(signedDuration(shift - *fromStart))
                                 : QStringLiteral("%1 collective ends (no session start time)").arg(residuals->size());
        return clock;
    }
    clock.source = fromStart ? QStringLiteral("session start (UTC)")
                             : QStringLiteral("not aligned (no session start time and no matched collective)");
    clock.unaligned = !fromStart;
    return clock;
}

} // namespace

void alignRankClocks(RanksResult& result, CollectiveMatch& match)
{
    if (result.ranks.empty())
        return;
    const RankRow& reference = result.ranks[std::size_t(match.matched.empty() ? 0 : match.matched.front())];
    result.referenceRank = reference.rank;
    const int referenceFile = reference.file;
    std::map<int, std::vector<TimeNs>> residuals = endResiduals(result, match);
    std::map<int, FileClock> clocks;
    for (RankRow& row : result.ranks) {
        auto [it, added] = clocks.try_emplace(row.file);
        if (added) {
            if (row.file == referenceFile) {
                it->second.source = QStringLiteral("reference clock (the export of rank %1)").arg(result.referenceRank);
            } else {
                const auto r = residuals.find(row.file);
                it->second = clockOf(result.fileOf(row), *result.files[std::size_t(referenceFile)],
                    r == residuals.end() ? nullptr : &r->second);
                if (it->second.unaligned)
                    result.problems.push_back({ { result.fileOf(row).inputPath() },
                        QStringLiteral("%1: its clock cannot be aligned with rank %2's: %3%4")
                            .arg(result.fileOf(row).inputPath())
                            .arg(result.referenceRank)
                            .arg(it->second.source,
                                row.matched ? QStringLiteral("; its collectives are left unmatched (no waits)")
                                            : QString()) });
            }
        }
        row.clockOffsetNs = it->second.offset;
        row.clockSource = it->second.source;
    }
    for (std::size_t j = match.matched.size(); j-- > 0;) {
        RankRow& row = result.ranks[std::size_t(match.matched[j])];
        if (!clocks[row.file].unaligned)
            continue;
        row.matched = false;
        match.drop(j);
    }
    if (match.matched.size() < 2) {
        for (const int r : match.matched)
            result.ranks[std::size_t(r)].matched = false;
        match.matched.clear();
        match.byKey.clear();
    }
}

} // namespace nsw

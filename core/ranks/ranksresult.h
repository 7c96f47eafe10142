// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnosticstypes.h"
#include "core/diagnostics/ncclbreakdown.h"
#include "core/ranks/ranksummary.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

namespace nsw {

/// What the heat map colours (and `ranks --metric` tabulates) per rank × iteration.
enum class RankMetric : std::uint8_t
{
    Time, ///< the iteration's duration
    Compute,
    Communication,
    Wait, ///< NCCL kernel time before the last rank arrived
    Transfer, ///< NCCL kernel time after it
    Memory,
    Idle,
    Bubble, ///< idle share of the iteration, %
};
inline constexpr int kRankMetricCount = 8;
QString rankMetricName(RankMetric metric); ///< "time", "compute"... (as --metric takes it)
QString rankMetricTitle(RankMetric metric); ///< "iteration time", "bubble share"...
std::optional<RankMetric> rankMetricFromName(const QString& name);
QStringList rankMetricNames();

/// One rank × iteration. Times on the rank's own export clock; compute + communication + memory + idle = duration.
struct RankIterationCell
{
    int iteration = 0;
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs computeNs = 0;
    TimeNs communicationNs = 0; ///< NCCL kernels running without a compute kernel
    TimeNs memoryNs = 0;
    TimeNs idleNs = 0;
    /// Of the NCCL kernels that start in the iteration: the time before the last rank arrived (the wait the others
    /// cause) and after it; 0 for a rank whose collectives were not matched.
    TimeNs waitNs = 0;
    TimeNs transferNs = 0;
    bool outlier = false; ///< its duration is a robust outlier among the rank's iterations

    TimeNs duration() const { return end - start; }
    double bubblePercent() const { return duration() > 0 ? 100.0 * double(idleNs) / double(duration()) : 0.0; }
    double value(RankMetric metric) const;
};

/// One analysed rank.
struct RankRow
{
    int rank = 0;
    int file = 0; ///< index into RanksResult::files
    int indexInFile = 0; ///< index into that file's ranks
    /// Added to the rank's export times, puts them on the reference clock (the export clock of the reference rank).
    TimeNs clockOffsetNs = 0;
    QString clockSource; ///< how the offset was found
    bool matched = false; ///< its collectives were matched with the others' (waits known)
    qint64 collectives = 0; ///< matched collective instances it took part in
    qint64 lastArrivals = 0; ///< how many of them it reached last
    TimeNs waitNs = 0; ///< Σ (last arrival − own arrival) over them
    std::vector<RankIterationCell> iterations;
};

/// NCCL kernels of one name on one NCCL stream (in the rank's order of first use), matched across ranks in order.
struct CollectiveKey
{
    std::uint32_t stream = 0;
    QString name;
    Collective kind = Collective::Other;
};

/// One collective instance on every matched rank. Times on the reference clock.
struct CollectiveInstance
{
    int key = 0; ///< index into RanksResult::keys
    int sequence = 0; ///< its place among the key's instances
    int iteration = -1; ///< the reference rank's iteration it starts in, -1 when none
    TimeNs firstArrival = 0;
    TimeNs lastArrival = 0;
    int straggler = 0; ///< the rank number that arrived last (the lowest on a tie)
    TimeNs transferNs = 0; ///< the straggler's kernel end − last arrival
    TimeNs skewNs() const { return lastArrival - firstArrival; }
};

/// A finding about the ranks, in the Findings style, with the ranks, iterations and collectives it is about.
struct RankFinding
{
    Finding finding;
    std::vector<int> ranks; ///< rank numbers
    std::vector<int> iterations;
    std::vector<int> collectives; ///< indices into RanksResult::collectives (a few examples)
};

/// An input, or a rank of one, that could not be analysed (or only partly), naming the files.
struct RankProblem
{
    QStringList files;
    QString message; ///< one line naming the files and the problem
};

struct RanksResult
{
    std::vector<std::shared_ptr<const RankFile>> files;
    std::vector<RankRow> ranks; ///< by rank number
    std::vector<int> matched; ///< indices into ranks of the matched ranks: the columns of arrivals and ends
    std::vector<CollectiveKey> keys;
    std::vector<CollectiveInstance> collectives; ///< in the order the reference rank ran them
    std::vector<TimeNs> arrivals; ///< [instance × matched.size() + column], reference clock
    std::vector<TimeNs> ends;
    int referenceRank = -1; ///< whose export clock is the reference (the lowest matched rank)
    QString iterationMarker; ///< as asked, empty for automatic
    std::vector<RankFinding> findings;
    std::vector<RankProblem> problems;

    const RankFile& fileOf(const RankRow& row) const { return *files[std::size_t(row.file)]; }
    const RankSummary& summaryOf(const RankRow& row) const { return fileOf(row).ranks[std::size_t(row.indexInFile)]; }
    /// The most iterations any rank has.
    int iterationCount() const;
    /// The row of rank number @p rank, or nullptr.
    const RankRow* row(int rank) const;
    TimeNs arrival(std::size_t instance, std::size_t column) const
    {
        return arrivals[instance * matched.size() + column];
    }
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/rulefile.h"
#include "core/iterations/gpubusy.h"
#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/profile/focusrange.h"
#include "core/profile/profile.h"

#include <QString>
#include <memory>
#include <vector>

namespace nsw {

/// What the `iterations` command and the Iterations pane ask for. The profile needs its NVTX, kernel and memory
/// operation tables.
struct IterationRequest
{
    ProfilePtr profile;
    /// The NVTX range that marks an iteration (see findMarkerRanges()); empty: the known markers, then the GPU
    /// idle-gap guess.
    QString marker;
    /// Category rules for each iteration's top category; null: no top category.
    std::shared_ptr<const RuleList> rules;
};

/// The rules the workbench starts with (the shipped vllm/llama set), for the top category.
std::shared_ptr<const RuleList> defaultIterationRules();

struct Iteration
{
    int index = 0; ///< 0, 1, 2... in time order
    TimeNs start = 0; ///< on the events' clock
    TimeNs end = 0;
    StringRef name = kNoString; ///< the marker instance ("ProfilerStep#5"); kNoString for a guessed iteration
    /// Time inside the iteration during which at least one GPU runs a kernel or a memory operation (the union over
    /// all GPUs, clipped to the iteration).
    TimeNs gpuBusy = 0;
    qint64 kernels = 0; ///< kernels overlapping the iteration (nsys's range filter, FocusRange::overlaps)
    StringRef topKernel = kNoString; ///< demangled name with the most summed duration among those kernels
    TimeNs topKernelTime = 0; ///< its summed (unclipped) durations
    /// The category (first matching rule; "uncategorized" when none) with the most summed kernel duration, the
    /// same way; empty without rules.
    QString topCategory {};
    TimeNs topCategoryTime = 0;
    bool outlier = false; ///< |duration - median| > 3 × 1.4826 × MAD of the durations

    TimeNs duration() const { return end - start; }
    TimeNs idle() const { return duration() - gpuBusy; }
};

struct IterationTable
{
    enum class Source : std::uint8_t
    {
        Marker, ///< NVTX ranges named by or found as the marker
        IdleGapGuess, ///< no marker: split at GPU idle gaps (a guess)
    };

    ProfilePtr profile;
    Source source = Source::Marker;
    QString marker; ///< the marker ("ProfilerStep#N", the user's name); empty for the guess
    /// One sentence on how the iterations were found, shown in every output; says "guess" for the gap fallback.
    QString detection;
    TimeNs gapThreshold = 0; ///< IdleGapGuess: gaps longer than this separate iterations
    TimeNs clockOrigin = 0; ///< sessionClockOrigin(): outputs show start - clockOrigin (the session clock)
    QString rulesLabel; ///< "vllm/llama": the rules of the top category, empty without
    std::vector<Iteration> iterations;
    double medianDurationNs = 0; ///< the median of the durations (mean of the middle two for an even count)
    double madNs = 0; ///< median absolute deviation of the durations

    /// How sure the guess is (Marker: not a guess). Iterations are only guessed when the idle gaps that split them
    /// are regular and large against the work between them (see computeIterations); High when there are enough of
    /// them, regular enough, each with a kernel. Low guesses are listed, but no outlier check runs on them.
    enum class Confidence : std::uint8_t
    {
        Marker,
        High,
        Low,
    };
    Confidence confidence = Confidence::Marker;
    QString confidenceReason; ///< a guess's numbers behind its confidence, one sentence

    bool isGuess() const { return source == Source::IdleGapGuess; }
    bool isConfident() const { return confidence != Confidence::Low; }
    /// "high" or "low" for a guess, empty for a marker.
    QString confidenceName() const;
    /// "iteration 5 (ProfilerStep#5)", or "iteration 5 (guessed from GPU idle gaps)".
    QString label(int index) const;
    /// The iteration whose duration is the median: the lower middle one of the durations sorted (ties by index).
    int medianIteration() const;
};

/// Where a run's iterations are, before they are measured: the spans, how they were found, and the marker's warnings.
struct IterationSpans
{
    IterationTable::Source source = IterationTable::Source::Marker;
    QString marker; ///< as IterationTable::marker
    QString detection; ///< as IterationTable::detection
    GapSegments segments; ///< IdleGapGuess: the stretches of GPU work the iterations were cut from
    std::vector<Iteration> iterations; ///< index, start, end and name set; nothing measured
};

/// The iterations of @p profile, or of one @p process (a rank of a distributed run): the ranges of @p marker (see
/// findMarkerRanges(); empty: the known markers), else, when no marker was named, a guess from the idle gaps of
/// @p busy (the GPU work of the profile or of that process) when they are regular enough (see computeIterations()).
/// NoData when neither finds any, saying why.
Result<IterationSpans> findIterationSpans(const Profile& profile, const QString& marker, const IntervalUnion& busy,
    const JobContext& job = {}, ProcessIndex process = kNoIndex);

/// Finds the iterations of a profile and measures each. Without a marker, iterations are guessed from the GPU idle
/// gaps (splitAtIdleGaps) only when the periods between the splitting gaps are regular (1.4826 × MAD / median of the
/// complete periods at most kGuessMaxSpread) and the splitting gaps are large against the work between them (their
/// median at least kGuessMinGapShare of the median period); otherwise NoData says why. A guess is High confidence
/// with at least kGuessHighMinPeriods complete periods, a spread of at most kGuessHighMaxSpread and a kernel in
/// every iteration, else Low. The last guessed iteration has no gap after it: it is no complete period, so it is left
/// out of the median, the MAD and the outliers.
Result<IterationTable> computeIterations(const IterationRequest& request, const JobContext& job = {});

inline constexpr double kGuessMaxSpread = 0.25;
inline constexpr double kGuessMinGapShare = 0.05;
inline constexpr double kGuessHighMaxSpread = 0.10;
inline constexpr int kGuessHighMinPeriods = 4;

/// Iteration @p n (its index) as a focus range labelled as label(n); a Usage error when out of range.
Result<FocusRange> iterationRange(const IterationTable& table, int n);
/// The median iteration as a focus range, "median iteration: iteration 5 (ProfilerStep#5)".
Result<FocusRange> medianIterationRange(const IterationTable& table);

/// Flags every value farther than 3 × 1.4826 × MAD from the median (the robust "3 sigma" rule); returns the median
/// and the MAD through the pointers when given.
std::vector<bool> robustOutliers(const std::vector<TimeNs>& values, double* median = nullptr, double* mad = nullptr);

} // namespace nsw

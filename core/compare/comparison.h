// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparekeys.h"

#include <QString>
#include <QStringList>
#include <limits>
#include <memory>
#include <vector>

namespace nsw {

/// How totals are scaled before they are compared, for captures of different lengths.
enum class CompareNormalization : std::uint8_t
{
    None, ///< totals as measured
    PerSecond, ///< per second of capture (Profile::captureDurationNs)
    PerIteration, ///< per instance of an iteration marker (an NVTX range name, see countIterations)
    /// per execution: a row's value is its average (and median) per instance, so that a capture that holds fewer
    /// calls does not read as a faster kernel; instance counts are compared beside
    PerInstance
};

/// "none", "second", "iteration", "instance".
QString compareNormalizationName(CompareNormalization n);
std::optional<CompareNormalization> parseCompareNormalization(const QString& name);

/// A key's fate in one profile against the baseline, judged on its time per call: more or fewer calls alone are
/// neither (captures of different lengths hold different counts), they only say why a total moved.
enum class CompareStatus : std::uint8_t
{
    Unchanged, ///< per call within the threshold or the noise floor (or absent from both)
    New, ///< absent from the baseline
    Removed, ///< absent from this profile
    Regression, ///< per call more than the threshold (%) above the baseline, costing more than the noise floor
    Improvement ///< per call more than the threshold below it, saving more than the noise floor
};

/// "unchanged", "new", "removed", "regression", "improvement".
QString compareStatusName(CompareStatus status);

struct CompareOptions
{
    std::size_t baseline = 0;
    CompareNormalization normalization = CompareNormalization::None;
    double thresholdPercent = 5.0;
    /// Smaller changes are never regressions or improvements, whatever their percentage; in the compared unit
    /// (ns, ns per second or ns per iteration).
    double noiseFloorNs = 1000.0;
};

/// One profile in a comparison: its keys (shared, cached per profile) and what normalization needs.
struct CompareProfile
{
    QString label;
    std::shared_ptr<const ProfileKeys> keys;
    std::int64_t iterations = 0; ///< instances of the iteration marker; used by PerIteration only
};

struct CompareCell
{
    TimeNs totalNs = 0; ///< as measured
    std::int64_t instances = 0;
    double total = 0; ///< normalized (totalNs / the profile's divisor)
    double count = 0; ///< normalized instances
    double average = 0; ///< ns per instance (normalization cancels out)
    double median = std::numeric_limits<double>::quiet_NaN(); ///< ns per instance when the keys have it (kernels)
    double share = 0; ///< percent of the profile's GPU time (ProfileKeys::gpu)
    bool present() const { return instances > 0 || totalNs != 0; }
};

struct CompareRow
{
    QString key;
    bool topLevel = true;
    std::vector<CompareCell> cells; ///< per profile
    /// normalized total (PerInstance: average) minus the baseline's; 0 for the baseline
    std::vector<double> delta;
    /// instances (normalized like the totals; PerInstance: as counted) minus the baseline's; 0 for the baseline
    std::vector<double> deltaInstances;
    /// 100 × delta / baseline; +infinity when only the baseline lacks the key, 0 when both do.
    std::vector<double> deltaPercent;
    /// What the change per call costs in the compared unit: (average - the baseline's average) × this profile's
    /// normalized instances (PerInstance: the per-call change itself); the delta for a key one side lacks.
    std::vector<double> perCallEffect;
    /// 100 × (average - the baseline's) / the baseline's average; 0 when either side lacks the key.
    std::vector<double> perCallPercent;
    std::vector<CompareStatus> status; ///< Unchanged for the baseline
    /// One word for the row: the status of the other profiles when they agree, else the first of regression, new,
    /// removed, improvement that one of them has.
    CompareStatus summary = CompareStatus::Unchanged;
    double maxAbsDelta = 0;
    double maxAbsPerCallEffect = 0; ///< the rows' order
};

/// N profiles side by side, against one of them.
struct Comparison
{
    CompareBy by = CompareBy::Kernel;
    CompareNormalization normalization = CompareNormalization::None;
    std::size_t baseline = 0;
    double thresholdPercent = 0;
    double noiseFloorNs = 0;
    QStringList profiles; ///< labels
    std::vector<double> divisor; ///< per profile: 1, capture seconds or iterations
    /// Largest |perCallEffect| first (|delta| when the call counts agree; then the largest total, then the key), so
    /// that the changes per call lead whatever the calls did.
    std::vector<CompareRow> rows;
    /// "(all GPU time)": ProfileKeys::gpu of each profile; its status is judged on the totals (it is no key).
    CompareRow totals;
    std::vector<std::vector<GpuIdle>> gpuIdle; ///< per profile: ProfileKeys::gpuIdle
    QStringList warnings;
    QString error; ///< why there are no rows (e.g. a profile without the iteration marker)

    /// "ns", "ns/s", "ns/iteration", "ns/instance".
    QString unit() const;
    std::size_t profileCount() const { return std::size_t(profiles.size()); }
    /// Row index of a key, or -1.
    int rowOf(const QString& key) const;
};

/// Lines the keys of every profile up (union of keys), scales the totals, computes deltas and statuses. Cost:
/// O(keys × profiles) plus a sort of the rows.
Comparison compareProfiles(const std::vector<CompareProfile>& profiles, const CompareOptions& options);

/// The CI gate (`compare --fail-above`): rows where a profile's total exceeds the baseline's by more than @p percent
/// and by more than the noise floor; a key that only the other profile has counts as infinitely above.
std::vector<std::size_t> rowsRegressingAbove(const Comparison& comparison, double percent);

/// What changed for profile @p p against the baseline, in words: "slower" / "faster" (time per call beyond the
/// threshold, for a regression or an improvement), "more calls" / "fewer calls" (instances beyond the threshold,
/// whatever the status), joined by ", "; empty for the baseline, a key one side lacks, or nothing beyond it.
QString compareChangeText(const Comparison& comparison, const CompareRow& row, std::size_t p);
/// The row's summary status with what changed: "regression (slower)", "unchanged (fewer calls)", "new"...
QString compareStatusText(const Comparison& comparison, const CompareRow& row);

} // namespace nsw

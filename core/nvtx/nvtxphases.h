// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvtx/nvtxtree.h"
#include "core/util/boundedregex.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace nsw {

/// Phases of a run (prefill, decode, optimizer...) named by NVTX range patterns, as nsys-llm-explainer's
/// `--phase-map`: a JSON object {"phase": ["pattern", ...], ...}. A pattern is a case-insensitive substring, or a
/// regular expression after "re:" (case-sensitive unless it says "(?i)"). Phases are tried in file order; the first
/// that matches wins.
class NvtxPhaseMap
{
public:
    /// Parses the JSON text; on error returns an empty map and sets @p error (what is wrong, without a file name).
    static NvtxPhaseMap fromJson(const QByteArray& json, QString* error);
    /// Reads a file; errors read "FILE: reason".
    static NvtxPhaseMap load(const QString& fileName, QString* error);

    bool isEmpty() const { return m_phases.empty(); }
    QStringList phases() const;
    /// Which "re:" patterns went over BoundedRegex's budget, across the names of one run of phaseOf().
    struct Budget
    {
        std::vector<int> overBudget; ///< per regex pattern, in map order: names it could not decide
        bool lastOverBudget = false; ///< the last name looked up was undecided by some pattern
        bool lastNotTried = false; ///< ... or skipped by a pattern already over budget too often
        /// Searches over budget so far, all patterns: from BoundedRegex::kMaxOverBudgetTotal on, each search has
        /// BoundedRegex::kSpentMatchLimit steps.
        int overBudgetTotal = 0;
        unsigned matchLimit() const { return BoundedRegex::matchLimitAfter(overBudgetTotal); }
    };

    /// Index of the first phase one of whose patterns matches @p name, or -1. A "re:" pattern that cannot decide
    /// within BoundedRegex's budget does not match (said in @p budget); with @p budget, a pattern over budget on
    /// BoundedRegex::kMaxOverBudgetSubjects names is not tried again.
    int phaseOf(const QString& name, Budget* budget = nullptr) const;

private:
    struct Pattern
    {
        QString substring;
        std::shared_ptr<const BoundedRegex> regex; ///< set for a "re:" pattern
    };
    struct Phase
    {
        QString name;
        std::vector<Pattern> patterns;
    };
    std::vector<Phase> m_phases;
    int m_regexCount = 0;
};

inline const QString kUnmappedPhase = QStringLiteral("unmapped");

/// Time per phase. A range takes the phase its own name (or "domain:name" label) maps to, else its parent's, so the
/// kernels under "decode > aten::mm" count for decode. GPU time and kernels: kernels attributed directly to ranges of
/// the phase (phases add up to the attributed kernel time). CPU time and instances: the outermost ranges of each
/// phase (a phase nested in another phase is counted in both).
struct NvtxPhaseRow
{
    QString phase; ///< a phase of the map, or kUnmappedPhase (last)
    qint64 instances = 0;
    TimeNs cpuTime = 0;
    TimeNs gpuTime = 0;
    qint64 kernels = 0;
    std::int64_t firstRow = -1; ///< the NVTX row of one instance (nvtxLevelPhases() sets it), -1 when not known
};

/// Each distinct name is matched once; names a pattern could not decide within its budget are said in @p warnings.
std::vector<NvtxPhaseRow> nvtxPhaseTimes(
    const NvtxTree& tree, const NvtxPhaseMap& map, QStringList* warnings = nullptr);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvtx/nvtxtree.h"

#include <QByteArray>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
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
    /// Index of the first phase one of whose patterns matches @p name, or -1.
    int phaseOf(const QString& name) const;

private:
    struct Pattern
    {
        QString substring;
        QRegularExpression regex;
        bool isRegex = false;
    };
    struct Phase
    {
        QString name;
        std::vector<Pattern> patterns;
    };
    std::vector<Phase> m_phases;
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
};

std::vector<NvtxPhaseRow> nvtxPhaseTimes(const NvtxTree& tree, const NvtxPhaseMap& map);

} // namespace nsw

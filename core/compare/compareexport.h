// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"

#include <QString>
#include <nlohmann/json.hpp>

namespace nsw {

/// `{by, profiles: [...], headline: [lines], gpu_idle: [[{gpu, idle_pct}], ...], rows: [{key, values: [{total_ns,
/// instances}, ...], delta_ns: [...], delta_pct: [...], delta_instances: [...], status, per_call_pct: [...],
/// change: [...]}]}`: profiles and values in the comparison's order (the baseline's delta is 0), rows by the change
/// per call (compareHeadline() gives the headline; per_call_pct is null where a side lacks the key). Without
/// normalization the numbers are integers (ns, counts); normalized ones are per second or per iteration. delta_pct
/// is null for a key the baseline lacks. The totals row is not a key and is left out.
nlohmann::ordered_json compareJson(const Comparison& comparison);

/// Aligned text for the terminal: the headline (compareHeadline()), then per row its status, per profile its total
/// (and delta, delta % for the others), then the key; the totals row first.
QString compareText(const Comparison& comparison);

/// Profile labels short enough for column headers and chart ticks: the .sqlite / .nsys-rep extension dropped and,
/// when still longer than @p maxChars, the prefix and suffix all labels share replaced by "…" (so
/// "run_mfu_before_nccl.sqlite" / "run_mfu_after_nccl.sqlite" become "…before…" / "…after…"), then middle-elided.
QStringList compactProfileLabels(const QStringList& labels, int maxChars = 24);

/// A key short enough for a chart label: a kernel's function name (shortNameOf, without return type, scope,
/// template and argument lists), an NVTX path's innermost ranges (left-elided), a category as it is.
QString compactKeyLabel(const QString& key, CompareBy by, int maxChars = 40);

/// "+1.23 ms", "-812 ns" (a sign always; the unit's suffix when normalized: "/s", "/it").
QString formatCompareDelta(double ns, CompareNormalization normalization);
/// "12.3 ms", "4.56 ms/s", "1.20 ms/it".
QString formatCompareValue(double ns, CompareNormalization normalization);
/// "+12.3 %", "-100.0 %", "new" for +infinity.
QString formatComparePercent(double percent);
/// "+12", "-3" (counted instances); "+1.50" when the counts are normalized (per second or iteration).
QString formatCompareInstancesDelta(double delta, CompareNormalization normalization);

} // namespace nsw

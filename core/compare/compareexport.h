// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare/comparison.h"

#include <QString>
#include <nlohmann/json.hpp>

namespace nsw {

/// `{by, profiles: [...], rows: [{key, values: [{total_ns, instances}, ...], delta_ns: [...], delta_pct: [...],
/// status}]}`: profiles and values in the comparison's order (the baseline's delta is 0), rows by |delta|. Without
/// normalization the numbers are integers (ns, counts); normalized ones are per second or per iteration. delta_pct
/// is null for a key the baseline lacks. The totals row is not a key and is left out.
nlohmann::ordered_json compareJson(const Comparison& comparison);

/// Aligned text for the terminal: status, per profile its total (and delta, delta % for the others), then the key;
/// the totals row first.
QString compareText(const Comparison& comparison);

/// "+1.23 ms", "-812 ns" (a sign always; the unit's suffix when normalized: "/s", "/it").
QString formatCompareDelta(double ns, CompareNormalization normalization);
/// "12.3 ms", "4.56 ms/s", "1.20 ms/it".
QString formatCompareValue(double ns, CompareNormalization normalization);
/// "+12.3 %", "-100.0 %", "new" for +infinity.
QString formatComparePercent(double percent);

} // namespace nsw

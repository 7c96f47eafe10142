// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

/// SQLite's round(x, digits) as nsys stats applies it: half away from zero on the exact binary value of x
/// (so 2.25 -> 2.3, while 0.15, stored as 0.1499999..., -> 0.1).
double sqliteRound(double value, int digits);

/// Python's repr() of a float, which is how nsys stats prints REAL columns: shortest round-trip digits,
/// fixed notation with at least one decimal ("1000.0", "60848.7") for 1e-4 <= |x| < 1e16, else "1e+16".
QString pythonFloatRepr(double value);

/// Integer with thousands separators ("1,250,775"), as nsys's human-readable formats print them.
QString withThousandsSeparators(qint64 value);
/// The same for a float printed with @p decimals decimals ("3,481,709.0").
QString withThousandsSeparators(double value, int decimals);

/// A count and its noun, singular for exactly one: "1 finding", "12 findings", "1,250 executions".
QString countOf(qint64 count, const QString& one, const QString& many);

/// A count in at most four characters of digits for progress text: "812", "45.3k", "1.2M", "3.4G".
QString compactCount(qint64 value);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

/// "812 ns", "12.4 µs", "3.21 ms", "1.500 s" - three significant figures, unit chosen by magnitude.
QString formatDuration(qint64 ns);
/// Seconds with millisecond-to-nanosecond precision for a session timestamp: "12.345678901 s" style, trimmed
/// to @p decimals decimals.
QString formatSeconds(qint64 ns, int decimals = 6);
/// "60.160 s – 60.180 s": two session timestamps with the decimals that show the span's length to three
/// significant digits (at least one, at most nine decimals; truncated as formatSeconds() does).
QString formatTimeSpan(qint64 startNs, qint64 endNs);
/// "1.5 GB", "12.0 MB" (decimal units).
QString formatBytes(qint64 bytes);

} // namespace nsw

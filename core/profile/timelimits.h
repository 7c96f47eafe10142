// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QString>
#include <QtGlobal>

namespace nsw {

/// Timestamps beyond ±(2^62 - 1) ns (146 years) and durations over 2^52 ns (52 days) are corrupt or hostile values: the
/// loader skips such rows, and every SQL reader that must agree with it (`info`'s event span) applies the same
/// bounds. Within them, differences and sums of a few timestamps cannot overflow.
inline constexpr TimeNs kMaxAbsTime = (TimeNs(1) << 62) - 1;
inline constexpr quint64 kMaxDuration = quint64(1) << 52;

constexpr bool plausibleTime(TimeNs t)
{
    return t >= -kMaxAbsTime && t <= kMaxAbsTime;
}

constexpr bool plausibleInterval(TimeNs start, TimeNs end)
{
    return plausibleTime(start) && plausibleTime(end) && end >= start && quint64(end) - quint64(start) <= kMaxDuration;
}

/// The same bounds as an SQL condition on a table's integer `start` and `end` columns (for readers that must agree
/// with the loader: `info`'s spans).
inline QString plausibleIntervalSql()
{
    const QString limit = QString::number(kMaxAbsTime);
    return QStringLiteral("typeof(start) = 'integer' AND start BETWEEN -%1 AND %1 AND typeof(end) = 'integer' AND "
                          "end BETWEEN -%1 AND %1 AND end >= start AND end - start <= %2")
        .arg(limit, QString::number(kMaxDuration));
}

} // namespace nsw

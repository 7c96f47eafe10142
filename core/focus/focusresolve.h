// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"
#include "core/profile/capturespan.h"
#include "core/profile/focusrange.h"
#include "core/profile/profile.h"

#include <QString>
#include <optional>

namespace nsw {

/// What the user typed to focus on (issue 16): `--range START:END` or `--nvtx RANGE[@DOMAIN][/INDEX]`, at most one.
struct FocusText
{
    QString range;
    QString nvtx;
    bool isEmpty() const { return range.isEmpty() && nvtx.isEmpty(); }
};

/// "START:END" as typed, on the session clock (see sessionClockOrigin()), each end kNoTime when left empty (open).
struct TypedRange
{
    TimeNs start = kNoTime;
    TimeNs end = kNoTime;
    QString label; ///< "1.2 s–1.5 s", "1.2 s–end", "start–1500 ns"
};

/// A bare number is whole nanoseconds; otherwise a number with a unit: s, ms, us, µs or ns ("1.2s", "1500 ms").
std::optional<TimeNs> parseFocusTime(const QString& text);
/// "START:END" (either side may be empty); ErrorKind::Usage naming the text when malformed or END < START.
Result<TypedRange> parseTypedRange(const QString& text);

/// @p range on the events' clock: typed times plus @p clockOrigin (sessionClockOrigin(), 0 for exports straight from
/// nsys), an open start or end at @p capture's.
FocusRange focusFromTyped(const TypedRange& range, const CaptureSpan& capture, TimeNs clockOrigin);

/// nsys's `nvtx=range[@domain]` plus "/INDEX" (1-based, by start time; default 1).
struct NvtxFocusName
{
    QString name; ///< "range" or "range@domain", compared as nsys compares it
    qint64 index = 1;
};
Result<NvtxFocusName> parseNvtxFocus(const QString& text);

/// The focus as the pipelines take it, plus the NVTX instance's thread for `analyze`, which keeps nsys's
/// thread/process filter under an NVTX window.
struct ResolvedFocus
{
    FocusRange range;
    std::optional<qint64> nvtxGlobalTid; ///< the instance's globalTid (focus from --nvtx only)
    qint64 instances = 0; ///< instances of the NVTX range (focus from --nvtx only)
    TimeNs captureNs = 0; ///< the capture span's length, for "P % of the capture" (0 when unknown)
};

/// The capture span an open end of a typed range stands for, the same whatever tables @p profile has loaded: the
/// export's metadata window, else the span of all its events read with SQL from the file (as `info` does), else the
/// span of the loaded events.
CaptureSpan focusCaptureSpan(const Profile& profile);

/// Resolves @p text on @p profile (an NVTX range needs the NVTX table loaded). An empty text resolves to the
/// inactive range. Fails with ErrorKind::Usage on malformed text or both options, ErrorKind::NoData when the NVTX
/// range is not found or the index exceeds its instances (the message names the range and the count).
Result<ResolvedFocus> resolveFocus(const Profile& profile, const FocusText& text);

/// The NVTX instances named @p name (ranges only, unterminated ones ending at NvtxTable::maxTimestamp), as rows
/// sorted by (start, row).
std::vector<std::uint32_t> nvtxFocusInstances(const Profile& profile, const QString& name);

} // namespace nsw

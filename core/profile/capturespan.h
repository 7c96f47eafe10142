// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QString>

namespace nsw {

class SqliteDb;

/// First start and last end of a profile's events; start == kNoTime when there are none.
struct EventSpan
{
    TimeNs start = kNoTime;
    TimeNs end = kNoTime;
    bool isEmpty() const { return start == kNoTime || end == kNoTime || end < start; }
};

enum class CaptureSpanSource
{
    DerivedWindow, ///< META_DATA_EXPORT DERIVED_WINDOW_NS: a window cut out of a larger capture
    AnalysisDetails, ///< ANALYSIS_DETAILS.duration: the capture nsys recorded
    Events, ///< the span of all events (no metadata, or metadata that does not contain the events)
    None, ///< no metadata and no events
};

/// The capture span, defined once for the window's status bar, `info`, the Categories CPU segment and Compare's
/// "per capture second": the analysis window of the export's metadata when present and consistent with the events
/// (they lie inside it), otherwise the span of all events.
struct CaptureSpan
{
    TimeNs start = kNoTime;
    TimeNs end = kNoTime;
    CaptureSpanSource source = CaptureSpanSource::None;
    TimeNs durationNs() const { return source == CaptureSpanSource::None ? 0 : end - start; }
    /// "export metadata (DERIVED_WINDOW_NS)", "export metadata (ANALYSIS_DETAILS)", "span of GPU, CUDA API and NVTX
    /// events (…)" or "no events".
    QString sourceText() const;
};

/// Metadata windows that do not contain @p events (an export whose events were shifted or copied, e.g. an inflated
/// one) are not believed.
CaptureSpan captureSpanOf(const ProfileMetadata& meta, const EventSpan& events);
/// The capture span of a loaded profile (its events: activityStart..activityEnd).
CaptureSpan captureSpanOf(const Profile& profile);

/// The span of the rows Profile::activityStart/activityEnd cover (kernels, memory operations, graph launches,
/// CUDA API calls, NVTX ranges and marks), read with SQL for callers that do not load the profile (`info`).
EventSpan readEventSpan(const SqliteDb& db);

} // namespace nsw

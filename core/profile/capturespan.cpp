// SPDX-License-Identifier: GPL-3.0-or-later
#include "capturespan.h"

#include "core/profile/timelimits.h"
#include "core/sqlite/sqlitedb.h"

#include <QStringList>
#include <algorithm>
#include <optional>

namespace nsw {

namespace {
/// DERIVED_WINDOW_NS = "start-end" on the events' clock.
std::optional<EventSpan> derivedWindow(const ProfileMetadata& meta)
{
    for (const auto& [key, value] : meta.exportMetadata) {
        if (key != QLatin1String("DERIVED_WINDOW_NS"))
            continue;
        const QStringList bounds = value.split(QLatin1Char('-'));
        bool okStart = false, okEnd = false;
        const qint64 start = bounds.value(0).toLongLong(&okStart);
        const qint64 end = bounds.value(1).toLongLong(&okEnd);
        if (bounds.size() == 2 && okStart && okEnd && end > start && plausibleTime(start) && plausibleTime(end))
            return EventSpan { start, end };
    }
    return std::nullopt;
}

/// ANALYSIS_DETAILS.duration from the session start: 0 on the events' clock, or the UTC start for exports made
/// with --ts-normalize. (Its startTime/stopTime columns are on another clock.)
std::optional<EventSpan> analysisWindow(const ProfileMetadata& meta)
{
    if (meta.analysisDurationNs <= 0 || !plausibleTime(meta.analysisDurationNs))
        return std::nullopt;
    const TimeNs origin = meta.timeNormalized && meta.sessionStartUtcNs != kNoTime ? meta.sessionStartUtcNs : 0;
    if (!plausibleTime(origin))
        return std::nullopt;
    return EventSpan { origin, origin + meta.analysisDurationNs };
}

/// The events lie inside @p window, give or take 1 % of it (clock rounding at the edges).
bool contains(const EventSpan& window, const EventSpan& events)
{
    if (events.isEmpty())
        return true;
    const TimeNs slack = (window.end - window.start) / 100;
    return events.start >= window.start - slack && events.end <= window.end + slack;
}
} // namespace

QString CaptureSpan::sourceText() const
{
    switch (source) {
    case CaptureSpanSource::DerivedWindow:
        return QStringLiteral("export metadata (DERIVED_WINDOW_NS)");
    case CaptureSpanSource::AnalysisDetails:
        return QStringLiteral("export metadata (ANALYSIS_DETAILS)");
    case CaptureSpanSource::Events:
        return QStringLiteral("span of GPU, CUDA API and NVTX events (OS runtime calls not counted)");
    case CaptureSpanSource::None:
        break;
    }
    return QStringLiteral("no events");
}

CaptureSpan captureSpanOf(const ProfileMetadata& meta, const EventSpan& events)
{
    // A window cut out of a larger capture (nsys-ai's derive_test_fixture.py) keeps the original ANALYSIS_DETAILS.
    if (const auto w = derivedWindow(meta); w && contains(*w, events))
        return { w->start, w->end, CaptureSpanSource::DerivedWindow };
    if (const auto w = analysisWindow(meta); w && contains(*w, events))
        return { w->start, w->end, CaptureSpanSource::AnalysisDetails };
    if (!events.isEmpty())
        return { events.start, events.end, CaptureSpanSource::Events };
    return {};
}

CaptureSpan captureSpanOf(const Profile& profile)
{
    return captureSpanOf(profile.meta, { profile.activityStart, profile.activityEnd });
}

EventSpan readEventSpan(const SqliteDb& db)
{
    // The rows the loader keeps (core/profile/timelimits.h): integer, plausible times, end >= start.
    const QString limit = QString::number(kMaxAbsTime);
    const auto plausible = [&](const QString& column) {
        return QStringLiteral("typeof(%1) = 'integer' AND %1 BETWEEN -%2 AND %2").arg(column, limit);
    };
    const QString interval = plausibleIntervalSql();
    EventSpan span;
    const auto cover = [&](const QString& table, const QString& endExpression, const QString& where) {
        Statement st(db,
            QStringLiteral("SELECT min(start), max(%1) FROM %2 WHERE %3")
                .arg(endExpression, quoteIdentifier(table), where));
        if (st.step() != Statement::Step::Row || st.isNull(0))
            return;
        span.start = span.start == kNoTime ? st.int64(0) : std::min<TimeNs>(span.start, st.int64(0));
        if (!st.isNull(1))
            span.end = span.end == kNoTime ? st.int64(1) : std::max<TimeNs>(span.end, st.int64(1));
    };
    for (const char* table : { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
             "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "CUPTI_ACTIVITY_KIND_RUNTIME" })
        if (db.hasColumn(QLatin1String(table), QStringLiteral("start"))
            && db.hasColumn(QLatin1String(table), QStringLiteral("end")))
            cover(QLatin1String(table), QStringLiteral("end"), interval);
    // NVTX: the ranges and marks the loader keeps; a mark or an unterminated range counts by its start.
    const QString nvtx = QStringLiteral("NVTX_EVENTS");
    if (!db.hasColumn(nvtx, QStringLiteral("start")) || !db.hasColumn(nvtx, QStringLiteral("eventType")))
        return span;
    const QString kept = QStringLiteral("eventType IN (34, 59, 60, 70, 71)");
    if (!db.hasColumn(nvtx, QStringLiteral("end"))) {
        cover(nvtx, QStringLiteral("start"), QStringLiteral("%1 AND %2").arg(kept, plausible(QStringLiteral("start"))));
        return span;
    }
    cover(nvtx, QStringLiteral("CASE WHEN eventType = 34 OR end IS NULL THEN start ELSE end END"),
        QStringLiteral("%1 AND %2 AND (eventType = 34 OR end IS NULL OR (%3))")
            .arg(kept, plausible(QStringLiteral("start")), interval));
    return span;
}

} // namespace nsw

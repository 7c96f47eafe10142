// SPDX-License-Identifier: GPL-3.0-or-later
#include "focusresolve.h"

#include "core/profile/sessionclock.h"
#include "core/sqlite/sqlitedb.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <limits>

namespace nsw {

namespace {

struct ParsedTime
{
    TimeNs ns = 0;
    QString label; ///< "1.2 s", "1500 ns"
};

std::optional<ParsedTime> parseTimeWithLabel(const QString& text)
{
    static const QRegularExpression re(
        QStringLiteral("^\\s*(-?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+))\\s*(s|ms|us|µs|ns)?\\s*$"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QString number = m.captured(1);
    QString unit = m.captured(2);
    if (unit.isEmpty()) {
        // A bare number is nanoseconds, and nanoseconds are whole.
        bool ok = false;
        const qlonglong ns = number.toLongLong(&ok);
        if (!ok)
            return std::nullopt;
        return ParsedTime { ns, QStringLiteral("%1 ns").arg(ns) };
    }
    const double scale = unit == QLatin1String("ns")                  ? 1
        : unit == QLatin1String("us") || unit == QStringLiteral("µs") ? 1e3
        : unit == QLatin1String("ms")                                 ? 1e6
                                                                      : 1e9;
    const double ns = number.toDouble() * scale;
    if (!std::isfinite(ns) || std::abs(ns) > 9.2e18)
        return std::nullopt;
    if (unit == QLatin1String("us"))
        unit = QStringLiteral("µs");
    return ParsedTime { TimeNs(std::llround(ns)), number + QLatin1Char(' ') + unit };
}

Result<TypedRange> badRange(const QString& text, const QString& why)
{
    return Result<TypedRange>::failure(ErrorKind::Usage,
        QStringLiteral("--range '%1': %2 (START:END, bare numbers in ns or with a unit s, ms, us, ns: "
                       "1.2s:1.5s, 1500000:, :300ms)")
            .arg(text, why));
}

} // namespace

std::optional<TimeNs> parseFocusTime(const QString& text)
{
    const std::optional<ParsedTime> t = parseTimeWithLabel(text);
    return t ? std::optional<TimeNs>(t->ns) : std::nullopt;
}

Result<TypedRange> parseTypedRange(const QString& text)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() != 2)
        return badRange(text, QStringLiteral("expected one ':' between START and END"));
    TypedRange r;
    QString labels[2] = { QStringLiteral("start"), QStringLiteral("end") };
    TimeNs* ends[2] = { &r.start, &r.end };
    for (int i = 0; i < 2; ++i) {
        if (parts[i].trimmed().isEmpty())
            continue;
        const std::optional<ParsedTime> t = parseTimeWithLabel(parts[i]);
        if (!t)
            return badRange(text,
                QStringLiteral("'%1' is not a time (a bare number is whole nanoseconds)").arg(parts[i].trimmed()));
        *ends[i] = t->ns;
        labels[i] = t->label;
    }
    if (r.start != kNoTime && r.end != kNoTime && r.end < r.start)
        return badRange(text, QStringLiteral("END is before START"));
    r.label = labels[0] + QChar(0x2013) + labels[1];
    return r;
}

FocusRange focusFromTyped(const TypedRange& range, const CaptureSpan& capture, TimeNs clockOrigin)
{
    // An open end is the capture's own start or end.
    const bool none = capture.source == CaptureSpanSource::None;
    const TimeNs captureStart = none ? clockOrigin : capture.start;
    const TimeNs captureEnd = none ? clockOrigin : capture.end;
    FocusRange focus;
    focus.start = range.start == kNoTime ? std::min(captureStart, captureEnd) : clockOrigin + range.start;
    focus.end = range.end == kNoTime ? std::max(captureEnd, focus.start) : clockOrigin + range.end;
    focus.label = range.label;
    return focus;
}

Result<NvtxFocusName> parseNvtxFocus(const QString& text)
{
    NvtxFocusName n;
    n.name = text;
    static const QRegularExpression indexRe(QStringLiteral("/([0-9]+)$"));
    if (const QRegularExpressionMatch m = indexRe.match(text); m.hasMatch()) {
        bool ok = false;
        n.index = m.captured(1).toLongLong(&ok);
        if (!ok || n.index < 1)
            return Result<NvtxFocusName>::failure(ErrorKind::Usage,
                QStringLiteral("--nvtx '%1': the instance index is 1-based (RANGE[@DOMAIN][/INDEX])").arg(text));
        n.name = text.left(m.capturedStart());
    }
    if (n.name.isEmpty())
        return Result<NvtxFocusName>::failure(
            ErrorKind::Usage, QStringLiteral("--nvtx '%1': no range name (RANGE[@DOMAIN][/INDEX])").arg(text));
    return n;
}

CaptureSpan focusCaptureSpan(const Profile& profile)
{
    const CaptureSpan loaded = captureSpanOf(profile);
    if (loaded.source == CaptureSpanSource::DerivedWindow || loaded.source == CaptureSpanSource::AnalysisDetails)
        return loaded;
    // The span of the events depends on which tables were loaded: read all of them, so that `stats` (kernels only)
    // and `nvtx` put "1s" at the same time.
    QString error;
    if (const std::unique_ptr<SqliteDb> db = SqliteDb::open(profile.meta.filePath, &error))
        return captureSpanOf(profile.meta, readEventSpan(*db));
    return loaded;
}

std::vector<std::uint32_t> nvtxFocusInstances(const Profile& p, const QString& wanted)
{
    const NvtxTable& n = p.nvtx;
    // Per pooled string, decided once: 0 unknown, 1 cannot match, 2 may match (the name or a "name@" prefix).
    std::vector<std::uint8_t> candidate(p.strings.size(), 0);
    std::vector<std::uint32_t> rows;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const StringRef ref = n.name[i];
        if (!NvtxTable::isRange(n.eventType[i]) || ref == kNoString)
            continue;
        std::uint8_t& c = candidate[std::size_t(ref)];
        const QString& name = p.strings.at(ref);
        if (c == 0)
            c = wanted.startsWith(name) ? 2 : 1;
        if (c != 2)
            continue;
        // nsys joins the domain-create row: a range of a named domain reads "name@domain", else "name".
        const int d = n.domain[i];
        const QString* domain
            = d >= 0 && !p.nvtxDomains[std::size_t(d)].name.isEmpty() ? &p.nvtxDomains[std::size_t(d)].name : nullptr;
        const bool match = domain ? wanted.size() == name.size() + 1 + domain->size()
                && wanted[name.size()] == QLatin1Char('@') && QStringView(wanted).mid(name.size() + 1) == *domain
                                  : wanted == name;
        if (match)
            rows.push_back(std::uint32_t(i));
    }
    std::stable_sort(
        rows.begin(), rows.end(), [&](std::uint32_t a, std::uint32_t b) { return n.start[a] < n.start[b]; });
    return rows;
}

Result<ResolvedFocus> resolveFocus(const Profile& profile, const FocusText& text)
{
    ResolvedFocus focus;
    if (!text.range.isEmpty() && !text.nvtx.isEmpty())
        return Result<ResolvedFocus>::failure(
            ErrorKind::Usage, QStringLiteral("--range and --nvtx cannot be combined: focus on one of them"));
    if (!text.range.isEmpty()) {
        const Result<TypedRange> r = parseTypedRange(text.range);
        if (!r)
            return r.failureAs<ResolvedFocus>();
        const CaptureSpan span = focusCaptureSpan(profile);
        focus.captureNs = span.durationNs();
        focus.range = focusFromTyped(*r, span, sessionClockOrigin(profile));
        return focus;
    }
    if (text.nvtx.isEmpty())
        return focus;
    const Result<NvtxFocusName> name = parseNvtxFocus(text.nvtx);
    if (!name)
        return name.failureAs<ResolvedFocus>();
    const std::vector<std::uint32_t> rows = nvtxFocusInstances(profile, name->name);
    if (rows.empty())
        return Result<ResolvedFocus>::failure(ErrorKind::NoData,
            QStringLiteral("NVTX range '%1' could not be found in %2").arg(name->name, profile.meta.filePath));
    if (name->index > qint64(rows.size()))
        return Result<ResolvedFocus>::failure(ErrorKind::NoData,
            QStringLiteral("NVTX range '%1' has %2 instance%3, not %4")
                .arg(name->name)
                .arg(rows.size())
                .arg(rows.size() == 1 ? QString() : QStringLiteral("s"))
                .arg(name->index));
    const NvtxTable& n = profile.nvtx;
    const std::uint32_t row = rows[std::size_t(name->index - 1)];
    focus.range.start = n.start[row];
    focus.range.end = n.end[row] == kNoTime ? std::max(n.maxTimestamp, n.start[row]) : n.end[row];
    focus.range.label = QStringLiteral("%1 (instance %2 of %3)").arg(name->name).arg(name->index).arg(rows.size());
    focus.instances = qint64(rows.size());
    focus.captureNs = focusCaptureSpan(profile).durationNs();
    if (n.thread[row] >= 0)
        focus.nvtxGlobalTid = profile.threads[std::size_t(n.thread[row])].globalTid;
    return focus;
}

} // namespace nsw

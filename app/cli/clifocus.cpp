// SPDX-License-Identifier: GPL-3.0-or-later
#include "clifocus.h"

#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "core/util/timeformat.h"

namespace nsw::cli {

FocusOptions::FocusOptions(const QString& semantics)
    : range(QStringLiteral("range"),
        QStringLiteral("Focus on START:END, relative to the capture start: bare numbers are ns, or with a unit "
                       "s, ms, us, ns (1.2s:1.5s, 1500000:2000000, :300ms; an empty side is open). ")
            + semantics,
        QStringLiteral("start:end"))
    , nvtx(QStringLiteral("nvtx"),
          QStringLiteral("Focus on one instance of an NVTX range, RANGE[@DOMAIN][/INDEX] (nsys's nvtx=range[@domain]; "
                         "INDEX picks the N-th instance by start time, default 1). ")
              + semantics,
          QStringLiteral("range"))
{ }

void FocusOptions::addTo(QCommandLineParser& parser) const
{
    parser.addOptions({ range, nvtx });
}

FocusText FocusOptions::textOf(const QCommandLineParser& parser) const
{
    return { parser.value(range), parser.value(nvtx) };
}

bool checkFocusText(const FocusText& text)
{
    QString error;
    if (!text.range.isEmpty() && !text.nvtx.isEmpty())
        error = QStringLiteral("--range and --nvtx cannot be combined: focus on one of them");
    else if (!text.range.isEmpty()) {
        if (const Result<RelativeRange> r = parseRelativeRange(text.range); !r)
            error = r.errorMessage();
    } else if (!text.nvtx.isEmpty()) {
        if (const Result<NvtxFocusName> n = parseNvtxFocus(text.nvtx); !n)
            error = n.errorMessage();
    }
    if (error.isEmpty())
        return true;
    printError(error);
    return false;
}

void addFocusLoad(const FocusText& text, LoadOptions& load)
{
    if (!text.nvtx.isEmpty())
        load.parts |= LoadNvtx;
}

std::optional<ResolvedFocus> resolveCommandFocus(
    const Profile& profile, const FocusText& text, const QString& path, int* exitCode)
{
    const Result<ResolvedFocus> focus = resolveFocus(profile, text);
    if (focus)
        return *focus;
    QString message = focus.errorMessage();
    if (!message.contains(path))
        message = path + QStringLiteral(": ") + message;
    printError(message);
    *exitCode = focus.error().kind == ErrorKind::Usage ? ExitUsage : ExitNoData;
    return std::nullopt;
}

namespace {
double captureShare(const ResolvedFocus& focus)
{
    return focus.captureNs > 0 ? 100.0 * double(focus.range.durationNs()) / double(focus.captureNs) : 0.0;
}
} // namespace

QString focusLine(const ResolvedFocus& focus, const QString& semantics)
{
    if (!focus.range.isActive())
        return {};
    QString share;
    if (focus.captureNs > 0)
        share = QStringLiteral(" (%1 % of the capture)").arg(captureShare(focus), 0, 'f', 1);
    return QStringLiteral("focus: %1, %2%3; %4")
        .arg(focus.range.label, formatDuration(focus.range.durationNs()), share, semantics);
}

nlohmann::ordered_json focusJson(const ResolvedFocus& focus, const QString& semantics)
{
    nlohmann::ordered_json j;
    j["label"] = focus.range.label.toStdString();
    j["start_ns"] = focus.range.start;
    j["end_ns"] = focus.range.end;
    j["duration_ns"] = focus.range.durationNs();
    if (focus.captureNs > 0)
        j["capture_share_pct"] = captureShare(focus);
    j["semantics"] = semantics.toStdString();
    return j;
}

void printFocusLine(const ResolvedFocus& focus, const QString& semantics)
{
    if (focus.range.isActive())
        printError(focusLine(focus, semantics));
}

QString overlapSemantics()
{
    return QStringLiteral("events that overlap it count, with their whole durations");
}

QString nvtxSemantics()
{
    return QStringLiteral("NVTX ranges that overlap it, with their GPU work projected as usual");
}

QString categorySemantics(bool clipped)
{
    return clipped ? QStringLiteral("rows that overlap it, their time clipped to the range")
                   : QStringLiteral("rows that overlap it, with their whole durations (sum mode)");
}

} // namespace nsw::cli

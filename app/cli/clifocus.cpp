// SPDX-License-Identifier: GPL-3.0-or-later
#include "clifocus.h"

#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "core/iterations/iterations.h"
#include "core/util/timeformat.h"

#include <QFileInfo>

namespace nsw::cli {

FocusOptions::FocusOptions(const QString& semantics)
    : range(QStringLiteral("range"),
        QStringLiteral("Focus on START:END on the export's own clock (the times nsys's cuda_gpu_trace, the Nsight "
                       "Systems GUI and every output of this tool print): bare numbers are ns, or with a unit s, ms, "
                       "us, ns (60.2s:60.25s, 1500000:2000000, :300ms; an empty side is the capture's start or end). ")
            + semantics,
        QStringLiteral("start:end"))
    , nvtx(QStringLiteral("nvtx"),
          QStringLiteral("Focus on one instance of an NVTX range, RANGE[@DOMAIN][/INDEX] (nsys's nvtx=range[@domain]; "
                         "INDEX picks the N-th instance by start time, default 1). ")
              + semantics,
          QStringLiteral("range"))
    , iteration(QStringLiteral("iteration"),
          QStringLiteral("Focus on one iteration as `nsys-workbench iterations` lists them (its index, or 'median' "
                         "for the iteration of median duration), found from the NVTX markers or the GPU idle gaps. ")
              + semantics,
          QStringLiteral("n|median"))
{ }

void FocusOptions::addTo(QCommandLineParser& parser) const
{
    parser.addOptions({ range, nvtx, iteration });
}

CommandFocusText FocusOptions::textOf(const QCommandLineParser& parser) const
{
    return { { parser.value(range), parser.value(nvtx) }, parser.value(iteration) };
}

bool FocusOptions::read(const QCommandLineParser& parser, CommandFocusText& text) const
{
    text = textOf(parser);
    return checkFocusText(text);
}

namespace {
/// "median", or an iteration index (>= 0).
std::optional<int> parseIteration(const QString& text)
{
    if (text == QLatin1String("median"))
        return -1;
    bool ok = false;
    const int n = text.toInt(&ok);
    return ok && n >= 0 ? std::optional<int>(n) : std::nullopt;
}
} // namespace

bool checkFocusText(const CommandFocusText& focus)
{
    const FocusText& text = focus.text;
    QString error;
    if (int(!text.range.isEmpty()) + int(!text.nvtx.isEmpty()) + int(!focus.iteration.isEmpty()) > 1)
        error = QStringLiteral("--range, --nvtx and --iteration cannot be combined: focus on one of them");
    else if (!text.range.isEmpty()) {
        if (const Result<TypedRange> r = parseTypedRange(text.range); !r)
            error = r.errorMessage();
    } else if (!text.nvtx.isEmpty()) {
        if (const Result<NvtxFocusName> n = parseNvtxFocus(text.nvtx); !n)
            error = n.errorMessage();
    } else if (!focus.iteration.isEmpty() && !parseIteration(focus.iteration)) {
        error = QStringLiteral("--iteration takes an iteration index (0, 1, ... as `iterations` lists them) or "
                               "'median', not '%1'")
                    .arg(focus.iteration);
    }
    if (error.isEmpty())
        return true;
    printError(error);
    return false;
}

std::optional<TraceEntry> parseTraceEntry(const QString& text)
{
    static const QString suffix = QStringLiteral("#iter=");
    const qsizetype at = text.lastIndexOf(suffix);
    if (at < 0 || QFileInfo::exists(text))
        return TraceEntry { text, text, QString() };
    const QString iteration = text.mid(at + suffix.size());
    if (!parseIteration(iteration)) {
        printError(QStringLiteral("'%1': #iter= takes an iteration index (0, 1, ... as `iterations` lists them) or "
                                  "'median', not '%2'")
                       .arg(text, iteration));
        return std::nullopt;
    }
    return TraceEntry { text, text.left(at), iteration };
}

void addFocusLoad(const CommandFocusText& text, LoadOptions& load)
{
    if (!text.text.nvtx.isEmpty())
        load.parts |= LoadNvtx;
    if (!text.iteration.isEmpty()) {
        load.parts |= LoadNvtx | LoadKernels | LoadMemOps;
        load.kernelColumns |= KernelDemangledName | KernelShortName;
    }
}

Result<ResolvedFocus> resolveCommandFocus(const ProfilePtr& profile, const CommandFocusText& text)
{
    if (text.iteration.isEmpty())
        return resolveFocus(*profile, text.text);
    const std::optional<int> n = parseIteration(text.iteration);
    if (!n)
        return Result<ResolvedFocus>::failure(
            ErrorKind::Usage, QStringLiteral("bad --iteration '%1'").arg(text.iteration));
    Result<IterationTable> table = computeIterations({ profile, QString(), defaultIterationRules() });
    if (!table)
        return Result<ResolvedFocus>::failure(table.error().kind, table.errorMessage());
    const Result<FocusRange> range = *n < 0 ? medianIterationRange(*table) : iterationRange(*table, *n);
    if (!range)
        return Result<ResolvedFocus>::failure(range.error().kind, range.errorMessage());
    ResolvedFocus focus;
    focus.range = *range;
    focus.captureNs = focusCaptureSpan(*profile).durationNs();
    return focus;
}

std::optional<ResolvedFocus> resolveCommandFocus(
    const ProfilePtr& profile, const CommandFocusText& text, const QString& path, int* exitCode)
{
    const Result<ResolvedFocus> focus = resolveCommandFocus(profile, text);
    if (focus)
        return *focus;
    QString message = focus.errorMessage();
    if (!message.contains(path))
        message = path + QStringLiteral(": ") + message;
    printError(message);
    *exitCode = focus.error().kind == ErrorKind::Usage ? ExitUsage : ExitNoData;
    return std::nullopt;
}

std::optional<FocusedProfile> loadFocusedProfile(
    const QString& trace, LoadOptions load, const CommandFocusText& text, int* exitCode)
{
    addFocusLoad(text, load);
    ProfilePtr profile = loadProfile(trace, load, exitCode);
    if (!profile)
        return std::nullopt;
    std::optional<ResolvedFocus> focus = resolveCommandFocus(profile, text, trace, exitCode);
    if (!focus)
        return std::nullopt;
    return FocusedProfile { std::move(profile), std::move(*focus) };
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

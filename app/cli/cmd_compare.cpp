// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/clifocus.h"
#include "app/cli/clirules.h"
#include "app/cli/commands.h"
#include "core/compare/compareentry.h"
#include "core/compare/compareexport.h"
#include "core/jobs/jobguard.h"
#include "core/jobs/sidejob.h"
#include "core/models/comparetablemodel.h"
#include "core/profile/profileloader.h"
#include "core/util/csv.h"
#include "widgets/common/plotexport.h"
#include "widgets/compare/comparechart.h"

#include <QElapsedTimer>
#include <thread>

namespace nsw::cli {

namespace {
/// One trace's part of the work, done on its own thread.
struct Side
{
    QString path; ///< as typed (with its #iter= suffix): the entry's label
    QString file;
    CommandFocusText focusText; ///< the command's focus, or the entry's own iteration
    std::shared_ptr<const ProfileKeys> keys;
    std::int64_t iterations = 0;
    QString error;
    int errorCode = ExitInput;
    QStringList warnings;
    qint64 loadMs = 0;
    qint64 keysMs = 0;
    qint64 kernels = 0;
    ResolvedFocus focus;
};

void computeSide(Side& side, const CompareKeyOptions& keyOptions, const QString& marker)
{
    QElapsedTimer timer;
    timer.start();
    const CommandFocusText& focusText = side.focusText;
    LoadOptions load = compareLoadOptions(keyOptions, !marker.isEmpty());
    addFocusLoad(focusText, load);
    const LoadResult loaded = loadThroughCache(side.file, load);
    side.loadMs = timer.restart();
    side.warnings = loaded.warnings();
    if (!loaded) {
        side.error = loaded.errorMessage();
        side.errorCode = exitCodeOf(loaded.error());
        return;
    }
    const ProfilePtr& profile = loaded->profile;
    side.kernels = qint64(profile->kernels.size());
    const Result<ResolvedFocus> focus = resolveCommandFocus(profile, focusText);
    if (!focus) {
        side.error = side.path + QStringLiteral(": ") + focus.errorMessage();
        side.errorCode = focus.error().kind == ErrorKind::Usage ? ExitUsage : ExitNoData;
        return;
    }
    side.focus = *focus;
    CompareEntryRequest request;
    request.profile = profile;
    request.options = keyOptions;
    request.focus = side.focus.range;
    Result<CompareEntry> entry = computeCompareEntry(request);
    if (!entry) {
        side.error = side.path + QStringLiteral(": ") + entry.errorMessage();
        return;
    }
    side.keys = entry->keys;
    if (!marker.isEmpty())
        side.iterations = countIterations(*profile, marker, side.focus.range);
    side.keysMs = timer.elapsed();
}

bool parseNumber(const QString& text, double* out)
{
    bool ok = false;
    *out = text.toDouble(&ok);
    return ok && std::isfinite(*out) && *out >= 0;
}

/// The command line, checked.
struct CompareCommand
{
    QStringList traces;
    std::vector<TraceEntry> entries;
    CompareKeyOptions keyOptions;
    CompareOptions options;
    QString markerName;
    QString ruleLabel; ///< "engine / model, mode" with --by category
    CommandFocusText focusText;
    QString format;
    QString output;
    QString png;
    QSize pngSize;
    std::optional<double> failAbovePercent;
    bool timings = false;
};

/// compare's options, declared once.
struct CompareOptionSet
{
    QCommandLineOption by
        = option("by", QStringLiteral("category | kernel (default) | nvtx: what the rows are."), "key", "kernel");
    QCommandLineOption normalize = option("normalize",
        QStringLiteral("none (default) | names: kernel names without template arguments, hashes and numbers; NVTX "
                       "names with numbers as # (op_id = #, layer_#)."),
        "how", "none");
    QCommandLineOption names = option("names",
        QStringLiteral("demangled (default) | short: which kernel name keys --by kernel."), "kind", "demangled");
    QCommandLineOption mode
        = option("time-mode", QStringLiteral("--by category: sum | busy | exclusive | g2g (default)."), "mode", "g2g");
    QCommandLineOption per = option("per",
        QStringLiteral("Normalize totals: none (default) | second (per second of capture) | iteration (per instance "
                       "of the --marker range) | instance (per execution: average and median per instance, instance "
                       "counts beside; values and Delta % per execution)."),
        "unit", "none");
    QCommandLineOption marker = option("marker",
        QStringLiteral("NVTX range name counted as one iteration (implies --per iteration); numbers in names are "
                       "ignored, so ProfilerStep#12 matches every ProfilerStep#N. Its iterations are those "
                       "`iterations --marker NAME` lists (one process, nested instances folded)."),
        "name");
    QCommandLineOption threshold = option("threshold",
        QStringLiteral("Percent change beyond which a key is a regression or an improvement (5)."), "pct", "5");
    QCommandLineOption noiseFloor = option("noise-floor",
        QStringLiteral("Changes smaller than this many ns (in the normalized unit) are unchanged (1000)."), "ns",
        "1000");
    QCommandLineOption format
        = formatOption(QStringLiteral("table (default, the headline first), csv (the pane's table, raw values) or json "
                                      "{by, profiles, headline, gpu_idle, rows: [{key, values: [{total_ns, "
                                      "instances}], delta_ns, delta_pct, delta_instances, status, per_call_pct, "
                                      "change}]}."),
            QStringLiteral("table"));
    QCommandLineOption output = outputOption();
    QCommandLineOption png = option("png", QStringLiteral("Also render the chart to a PNG (headless)."), "file");
    QCommandLineOption pngSize
        = option("png-size", QStringLiteral("PNG size in pixels (1400x700)."), "WxH", "1400x700");
    QCommandLineOption failAbove = option("fail-above",
        QStringLiteral("Exit 3 when a key grows by more than PCT percent over the baseline (and more than the noise "
                       "floor); a key the baseline lacks counts as infinitely above. For CI."),
        "pct");
    QCommandLineOption timings = option("timings", QStringLiteral("Print load and key times per trace on stderr."));
    const RuleOptions rules;
    const FocusOptions focus { QStringLiteral(
        "Resolved in each trace; keys count what overlaps it (kernels with whole durations, categories clipped in "
        "busy/exclusive/g2g, NVTX ranges that overlap); --per second divides by the range's length, --per iteration "
        "counts the marker's instances that overlap it.") };

    void addTo(QCommandLineParser& parser) const
    {
        parser.addPositionalArgument(QStringLiteral("base"),
            QStringLiteral(
                "The baseline export. TRACE#iter=N or TRACE#iter=median (any entry) is that trace focused on one "
                "iteration, as `iterations` lists them: a.sqlite#iter=5 a.sqlite#iter=median."),
            QStringLiteral("BASE"));
        parser.addPositionalArgument(
            QStringLiteral("others"), QStringLiteral("Exports compared with it."), QStringLiteral("OTHER..."));
        parser.addOptions({ by, normalize, names });
        rules.addTo(parser);
        parser.addOptions(
            { mode, per, marker, threshold, noiseFloor, format, output, png, pngSize, failAbove, timings });
        focus.addTo(parser);
    }
};

/// --by, --normalize, --names and --time-mode (and the rules with --by category) into @p c's key options.
bool readKeyOptions(const QCommandLineParser& parser, const CompareOptionSet& o, CompareCommand& c, int* exitCode)
{
    CompareKeyOptions& keyOptions = c.keyOptions;
    if (const auto b = parseCompareBy(parser.value(o.by)))
        keyOptions.by = *b;
    else {
        printError(QStringLiteral("--by must be category, kernel or nvtx, not '%1'").arg(parser.value(o.by)));
        return usageError(exitCode);
    }
    if (parser.value(o.normalize) != QLatin1String("none") && parser.value(o.normalize) != QLatin1String("names")) {
        printError(QStringLiteral("--normalize must be none or names, not '%1'").arg(parser.value(o.normalize)));
        return usageError(exitCode);
    }
    keyOptions.normalizeNames = parser.value(o.normalize) == QLatin1String("names");
    if (parser.value(o.names) == QLatin1String("short"))
        keyOptions.kernelNames = KernelNameMode::Short;
    else if (parser.value(o.names) != QLatin1String("demangled")) {
        printError(QStringLiteral("--names must be demangled or short, not '%1'").arg(parser.value(o.names)));
        return usageError(exitCode);
    }
    const auto timeMode = parseTimeMode(parser.value(o.mode));
    if (!timeMode) {
        printError(
            QStringLiteral("--time-mode must be sum, busy, exclusive or g2g, not '%1'").arg(parser.value(o.mode)));
        return usageError(exitCode);
    }
    keyOptions.timeMode = *timeMode;
    if (keyOptions.by != CompareBy::Category && (o.rules.isSet(parser) || parser.isSet(o.mode))) {
        printError(QStringLiteral("--rules, --rule-set, --engine, --model and --time-mode need --by category"));
        return usageError(exitCode);
    }
    return true;
}

/// --per, --marker, --threshold, --noise-floor and --fail-above.
bool readNormalization(const QCommandLineParser& parser, const CompareOptionSet& o, CompareCommand& c, int* exitCode)
{
    CompareOptions& options = c.options;
    const auto normalization = parseCompareNormalization(parser.value(o.per));
    if (!normalization) {
        printError(
            QStringLiteral("--per must be none, second, iteration or instance, not '%1'").arg(parser.value(o.per)));
        return usageError(exitCode);
    }
    options.normalization
        = parser.isSet(o.marker) && !parser.isSet(o.per) ? CompareNormalization::PerIteration : *normalization;
    c.keyOptions.medians = options.normalization == CompareNormalization::PerInstance;
    c.markerName = parser.value(o.marker);
    if (options.normalization == CompareNormalization::PerIteration && c.markerName.isEmpty()) {
        printError(QStringLiteral("--per iteration needs --marker NAME (the NVTX range of one iteration)"));
        return usageError(exitCode);
    }
    if (options.normalization != CompareNormalization::PerIteration && !c.markerName.isEmpty()) {
        printError(QStringLiteral("--marker goes with --per iteration"));
        return usageError(exitCode);
    }
    if (!parseNumber(parser.value(o.threshold), &options.thresholdPercent)) {
        printError(QStringLiteral("--threshold must be a percentage >= 0, not '%1'").arg(parser.value(o.threshold)));
        return usageError(exitCode);
    }
    if (!parseNumber(parser.value(o.noiseFloor), &options.noiseFloorNs)) {
        printError(
            QStringLiteral("--noise-floor must be a number of ns >= 0, not '%1'").arg(parser.value(o.noiseFloor)));
        return usageError(exitCode);
    }
    double failPercent = 0;
    if (parser.isSet(o.failAbove) && !parseNumber(parser.value(o.failAbove), &failPercent)) {
        printError(QStringLiteral("--fail-above must be a percentage >= 0, not '%1'").arg(parser.value(o.failAbove)));
        return usageError(exitCode);
    }
    if (parser.isSet(o.failAbove))
        c.failAbovePercent = failPercent;
    return true;
}

/// --format, --png, --png-size, --output and --timings.
bool readOutputs(const QCommandLineParser& parser, const CompareOptionSet& o, CompareCommand& c, int* exitCode)
{
    c.format = parser.value(o.format);
    if (!checkFormat(c.format, { QStringLiteral("csv"), QStringLiteral("json"), QStringLiteral("table") }))
        return usageError(exitCode);
    const std::optional<QSize> size = parsePngSize(parser.value(o.pngSize));
    if (!size)
        return usageError(exitCode);
    c.pngSize = *size;
    c.png = parser.value(o.png);
    if (!c.png.isEmpty() && !checkPngAvailable())
        return usageError(exitCode);
    c.output = parser.value(o.output);
    c.timings = parser.isSet(o.timings);
    return true;
}

/// The traces (with their #iter= suffixes) and the command's focus, which such entries cannot take.
bool readEntries(const QCommandLineParser& parser, const CompareOptionSet& o, CompareCommand& c, int* exitCode)
{
    if (!o.focus.read(parser, c.focusText))
        return usageError(exitCode);
    bool anyIteration = false;
    for (const QString& trace : std::as_const(c.traces)) {
        const std::optional<TraceEntry> entry = parseTraceEntry(trace);
        if (!entry)
            return usageError(exitCode);
        anyIteration |= !entry->iteration.isEmpty();
        c.entries.push_back(*entry);
    }
    if (anyIteration && !c.focusText.isEmpty()) {
        printError(QStringLiteral("TRACE#iter= entries focus on their own iteration: they cannot be combined with "
                                  "--range, --nvtx or --iteration"));
        return usageError(exitCode);
    }
    return true;
}

/// Parses and checks the command line. Nothing when the command stops here: --help (exit code 0) or a bad option
/// (printed, exit code != 0).
std::optional<CompareCommand> parseCompareCommand(const QStringList& args, int* exitCode)
{
    QCommandLineParser parser;
    const CompareOptionSet o;
    o.addTo(parser);
    if (!parseArguments(parser, args, commandHelp("compare"), exitCode))
        return std::nullopt;

    CompareCommand c;
    c.traces = parser.positionalArguments();
    if (c.traces.size() < 2) {
        printError(QStringLiteral("compare needs a BASE and at least one OTHER trace (see compare --help)"));
        usageError(exitCode);
        return std::nullopt;
    }
    if (!readKeyOptions(parser, o, c, exitCode) || !readNormalization(parser, o, c, exitCode)
        || !readOutputs(parser, o, c, exitCode))
        return std::nullopt;
    if (c.keyOptions.by == CompareBy::Category) {
        LoadedRules loaded;
        if (const int code = loadRules(parser, o.rules, &loaded); code != ExitOk) {
            *exitCode = code;
            return std::nullopt;
        }
        c.keyOptions.rules = loaded.rules;
        c.ruleLabel
            = QStringLiteral("%1 / %2, %3").arg(loaded.engine, loaded.model, timeModeName(c.keyOptions.timeMode));
    }
    if (!readEntries(parser, o, c, exitCode))
        return std::nullopt;
    return c;
}

/// Loads every trace and reduces it to keys, each on its own thread (the traces are independent; each loads only the
/// tables its key needs). Prints the load warnings and the first error.
int computeSides(const CompareCommand& c, std::vector<Side>& sides)
{
    sides.assign(c.entries.size(), Side());
    {
        std::vector<std::unique_ptr<SideJob>> jobs; // joined however this block is left
        for (std::size_t i = 0; i < sides.size(); ++i) {
            sides[i].path = c.entries[i].label;
            sides[i].file = c.entries[i].path;
            sides[i].focusText
                = c.entries[i].iteration.isEmpty() ? c.focusText : CommandFocusText { {}, c.entries[i].iteration };
            // Whatever computing a side throws is that side's error (e.g. out of memory).
            jobs.push_back(std::make_unique<SideJob>(CancelToken()));
            jobs.back()->start([&side = sides[i], &c]() {
                try {
                    computeSide(side, c.keyOptions, c.markerName);
                } catch (...) {
                    const Error e
                        = errorOfException(std::current_exception(), QStringLiteral("comparing %1").arg(side.path));
                    side.error = e.message;
                    side.errorCode = exitCodeOf(e);
                }
            });
        }
        for (const auto& job : jobs)
            job->wait();
    }
    if (c.timings)
        for (const Side& s : sides)
            printError(QStringLiteral("timing: %1: load %2 ms, keys %3 ms, %4 kernels")
                           .arg(s.path)
                           .arg(s.loadMs)
                           .arg(s.keysMs)
                           .arg(s.kernels));
    for (const Side& s : sides)
        printLoadWarnings(s.path, s.warnings);
    for (const Side& s : sides)
        if (!s.error.isEmpty()) {
            printError(s.error);
            return s.errorCode;
        }
    bool anyKeys = false;
    for (const Side& s : sides)
        anyKeys |= s.keys->size() > 0;
    if (!anyKeys) {
        printError(c.keyOptions.by == CompareBy::Nvtx
                ? QStringLiteral("no NVTX ranges in %1").arg(c.traces.join(QStringLiteral(", ")))
                : QStringLiteral("no CUDA kernels in %1").arg(c.traces.join(QStringLiteral(", "))));
        return ExitNoData;
    }
    for (const Side& s : sides)
        if (c.options.normalization == CompareNormalization::PerIteration && s.iterations == 0) {
            printError(QStringLiteral("%1: no NVTX range named '%2' (the iteration marker)").arg(s.path, c.markerName));
            return ExitNoData;
        }
    return ExitOk;
}

QString formatComparison(const CompareCommand& c, const Comparison& comparison, const std::vector<Side>& sides)
{
    const QString semantics = c.keyOptions.by == CompareBy::Kernel ? overlapSemantics()
        : c.keyOptions.by == CompareBy::Nvtx                       ? nvtxSemantics()
                                             : categorySemantics(c.keyOptions.timeMode != TimeMode::Sum);
    QStringList focusLines;
    nlohmann::ordered_json focusObjects = nlohmann::ordered_json::array();
    for (const Side& s : sides) {
        if (!s.focus.range.isActive())
            continue;
        focusLines.append(s.path + QStringLiteral(": ") + focusLine(s.focus, semantics));
        nlohmann::ordered_json f = focusJson(s.focus, semantics);
        f["profile"] = s.path.toStdString();
        focusObjects.push_back(std::move(f));
    }
    if (c.format == QLatin1String("json")) {
        nlohmann::ordered_json j = compareJson(comparison);
        if (!focusObjects.empty())
            j["focus"] = std::move(focusObjects);
        addWarningsMember(j);
        return QString::fromStdString(j.dump(2)) + QLatin1Char('\n');
    }
    if (c.format == QLatin1String("csv")) {
        for (const QString& line : std::as_const(focusLines))
            printError(line);
        CompareTableModel model;
        model.setComparison(comparison);
        return modelCsv(model, RawValueRole);
    }
    QString text = compareText(comparison);
    if (!focusLines.isEmpty())
        text.prepend(focusLines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    return text;
}

/// The Compare pane's chart, rendered headless to --png.
QString saveChart(const CompareCommand& c, const Comparison& comparison)
{
    CompareChart chart;
    chart.resize(c.pngSize);
    QString subtitle = QStringLiteral("baseline %1").arg(c.traces.first());
    if (!c.ruleLabel.isEmpty())
        subtitle += QStringLiteral(" · rules ") + c.ruleLabel;
    if (c.options.normalization == CompareNormalization::PerSecond)
        subtitle += QStringLiteral(" · per second of capture");
    else if (c.options.normalization == CompareNormalization::PerIteration)
        subtitle += QStringLiteral(" · per iteration of \"%1\"").arg(c.markerName);
    chart.setComparison(comparison, subtitle);
    PngExportOptions o;
    o.width = c.pngSize.width();
    o.height = c.pngSize.height();
    return savePlotPng(chart, c.png, o);
}

/// --fail-above: prints every key that grew beyond the limit; ExitRegression when there is one.
int checkRegressions(const CompareCommand& c, const Comparison& comparison)
{
    if (!c.failAbovePercent)
        return ExitOk;
    const std::vector<std::size_t> failing = rowsRegressingAbove(comparison, *c.failAbovePercent);
    for (const std::size_t r : failing) {
        const CompareRow& row = comparison.rows[r];
        double worst = -std::numeric_limits<double>::infinity();
        for (std::size_t p = 0; p < row.deltaPercent.size(); ++p)
            if (p != comparison.baseline)
                worst = std::max(worst, row.deltaPercent[p]);
        printError(QStringLiteral("regression above %1 %: %2 (%3)")
                       .arg(*c.failAbovePercent)
                       .arg(row.key, formatComparePercent(worst)));
    }
    return failing.empty() ? ExitOk : ExitRegression;
}

/// runCompare with its command line read.
int runCompareCommand(const CompareCommand& c)
{
    QElapsedTimer total;
    total.start();
    std::vector<Side> sides;
    if (const int e = computeSides(c, sides); e != ExitOk)
        return e;
    std::vector<CompareProfile> profiles;
    for (const Side& s : sides)
        profiles.push_back({ s.path, s.keys, s.iterations });
    const Comparison comparison = compareProfiles(profiles, c.options);
    if (!comparison.error.isEmpty()) {
        printError(comparison.error);
        return ExitNoData;
    }
    for (const QString& w : comparison.warnings)
        printWarning(w);
    if (const int written = writeCommandOutput(formatComparison(c, comparison, sides), c.output); written != ExitOk)
        return written;
    if (!c.png.isEmpty()) {
        if (const QString e = saveChart(c, comparison); !e.isEmpty()) {
            printError(e);
            return ExitInput;
        }
    }
    if (c.timings)
        printError(QStringLiteral("timing: total %1 ms").arg(total.elapsed()));
    return checkRegressions(c, comparison);
}

} // namespace

int runCompare(const QStringList& args)
{
    return runParsed(args, parseCompareCommand, runCompareCommand);
}

} // namespace nsw::cli

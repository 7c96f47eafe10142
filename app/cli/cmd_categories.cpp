// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/clifocus.h"
#include "app/cli/clirules.h"
#include "app/cli/commands.h"
#include "core/categories/categoryexport.h"
#include "core/categories/categoryrun.h"
#include "core/categories/categorytable.h"
#include "core/categories/rulelibrary.h"
#include "widgets/categories/categorychart.h"

namespace nsw::cli {

namespace {
const QString kPng = QStringLiteral("png");

/// --elapsed: one value per trace (or one for all); seconds, or 0 / "capture" for the capture span.
bool parseElapsed(const QString& text, qsizetype traces, std::vector<WallTimeSource>* out, QString* error)
{
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (parts.size() != traces && parts.size() != 1) {
        *error = QStringLiteral("--elapsed needs one value per trace (%1) or one for all, got %2")
                     .arg(traces)
                     .arg(parts.size());
        return false;
    }
    for (qsizetype i = 0; i < traces; ++i) {
        const QString v = parts[parts.size() == 1 ? 0 : i].trimmed();
        if (v == QLatin1String("capture")) {
            out->push_back({ WallTimeSource::Kind::Capture, kNoTime });
            continue;
        }
        bool ok = false;
        const double seconds = v.toDouble(&ok);
        if (!ok || seconds < 0) {
            *error = QStringLiteral("--elapsed: '%1' is not a number of seconds (or 'capture')").arg(v);
            return false;
        }
        out->push_back(seconds == 0 ? WallTimeSource { WallTimeSource::Kind::Capture, kNoTime }
                                    : WallTimeSource { WallTimeSource::Kind::Entered, TimeNs(seconds * 1e9 + 0.5) });
    }
    return true;
}
/// What the command line asks for, checked.
struct CategoriesCommand
{
    QStringList traces;
    TimeMode timeMode = TimeMode::Global;
    bool perGpu = false;
    QString format;
    QString output;
    std::optional<QString> mapping; ///< --mapping's file, when given
    std::optional<QString> png; ///< --png's file, when given
    QSize pngSize;
    CommandFocusText focus;
    std::vector<WallTimeSource> wall; ///< per trace; empty without --elapsed
    LoadedRules rules;
};

/// The breakdown of every trace, and the focus lines that go with them.
struct CategoriesOutcome
{
    std::vector<ProfileCategories> profiles;
    QStringList focusLines;
    nlohmann::ordered_json focusObjects = nlohmann::ordered_json::array();
    bool anyRows = false;
    std::vector<CategoryRequest> requests; ///< per trace, as computed (the mapping asks again without --per-gpu)
};

std::optional<CategoriesCommand> parseCategories(const QStringList& args, int* exitCode)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(
        QStringLiteral("traces"), QStringLiteral("nsys SQLite exports."), QStringLiteral("TRACE..."));
    const RuleOptions ruleOptions;
    const QCommandLineOption mode = option("time-mode",
        QStringLiteral("sum | busy | exclusive | g2g (default; what gputrc2graph reports)."), "mode", "g2g");
    const QCommandLineOption elapsed = option("elapsed",
        QStringLiteral("Wall time in seconds of each run without the profiler (comma separated, one per trace or one "
                       "for all; 0 or 'capture' = the capture span): adds a CPU (non-GPU) row."),
        "sec,...");
    const QCommandLineOption perGpu = option("per-gpu", QStringLiteral("One bar (and rows) per GPU."));
    const QCommandLineOption format
        = formatOption(QStringLiteral("csv (Profile,Category,Instances,Time (ns),Share (%)), json or table (default)."),
            QStringLiteral("table"));
    const QCommandLineOption output = outputOption();
    const QCommandLineOption mapping = option("mapping",
        QStringLiteral("Also write gputrc2graph's result.csv (Model_Engine, Category, Instances, Name, Elapsed Time "
                       "(sec), plus Total Time (sec), Time Mode, Rule)."),
        "file");
    const QCommandLineOption png(
        kPng, QStringLiteral("Also render the stacked bars to a PNG (headless)."), QStringLiteral("file"));
    const QCommandLineOption pngSize
        = option("png-size", QStringLiteral("PNG size in pixels (1200x700)."), "WxH", "1200x700");
    ruleOptions.addTo(parser);
    parser.addOptions({ mode, elapsed, perGpu, format, output, mapping, png, pngSize });
    const FocusOptions focusOptions(
        QStringLiteral("Rows that overlap it count: sum with whole durations, busy/exclusive/g2g clipped to the range; "
                       "--elapsed capture is then the range's length. Resolved in each TRACE."));
    focusOptions.addTo(parser);
    if (!parseArguments(parser, args, commandHelp("categories"), exitCode))
        return std::nullopt;
    CategoriesCommand c;
    *exitCode = ExitUsage;
    c.traces = parser.positionalArguments();
    if (c.traces.isEmpty()) {
        printError(QStringLiteral("categories needs at least one TRACE (see categories --help)"));
        return std::nullopt;
    }
    const auto timeMode = parseTimeMode(parser.value(mode));
    if (!timeMode) {
        printError(QStringLiteral("--time-mode must be sum, busy, exclusive or g2g, not '%1'").arg(parser.value(mode)));
        return std::nullopt;
    }
    c.timeMode = *timeMode;
    c.format = parser.value(format);
    if (!checkFormat(c.format, { QStringLiteral("csv"), QStringLiteral("json"), QStringLiteral("table") }))
        return std::nullopt;
    const std::optional<QSize> size = parsePngSize(parser.value(pngSize));
    if (!size)
        return std::nullopt;
    c.pngSize = *size;
    if (!focusOptions.read(parser, c.focus))
        return std::nullopt;
    if (parser.isSet(elapsed)) {
        QString error;
        if (!parseElapsed(parser.value(elapsed), c.traces.size(), &c.wall, &error)) {
            printError(error);
            return std::nullopt;
        }
    }
    if (const int code = loadRules(parser, ruleOptions, &c.rules); code != ExitOk) {
        *exitCode = code;
        return std::nullopt;
    }
    c.perGpu = parser.isSet(perGpu);
    c.output = parser.value(output);
    if (parser.isSet(mapping))
        c.mapping = parser.value(mapping);
    if (parser.isSet(png))
        c.png = parser.value(png);
    *exitCode = ExitOk;
    return c;
}

/// Loads each trace, resolves its focus and computes its breakdown. Returns the exit code.
int computeCategoryProfiles(const CategoriesCommand& c, CategoriesOutcome& out)
{
    LoadOptions options;
    options.parts = LoadKernels | LoadMemOps | LoadGraphLaunches;
    addFocusLoad(c.focus, options);
    const QString semantics = categorySemantics(c.timeMode != TimeMode::Sum);
    int exitCode = ExitOk;
    for (qsizetype i = 0; i < c.traces.size(); ++i) {
        const ProfilePtr profile = loadProfile(c.traces[i], options, &exitCode);
        if (!profile)
            return exitCode;
        const std::optional<ResolvedFocus> focus = resolveCommandFocus(profile, c.focus, c.traces[i], &exitCode);
        if (!focus)
            return exitCode;
        ProfileCategories p;
        p.profile = profile->displayName();
        p.path = c.traces[i];
        CategoryRequest request;
        request.timeline = CategoryTimeline::build(profile);
        request.rules = c.rules.rules;
        request.mode = c.timeMode;
        request.perDevice = c.perGpu;
        request.wall = c.wall.empty() ? WallTimeSource {} : c.wall[std::size_t(i)];
        request.focus = focus->range;
        if (focus->range.isActive()) {
            const QString line = focusLine(*focus, semantics);
            out.focusLines.append(c.traces.size() > 1 ? p.profile + QStringLiteral(": ") + line : line);
            nlohmann::ordered_json f = focusJson(*focus, semantics);
            f["profile"] = p.profile.toStdString();
            out.focusObjects.push_back(std::move(f));
        }
        Result<CategoryResult> result = computeCategories(request);
        if (!result) {
            printError(QStringLiteral("%1: %2").arg(c.traces[i], result.errorMessage()));
            return exitCodeOf(result.error());
        }
        p.timeline = result->timeline;
        p.breakdown = std::move(result->breakdown);
        out.anyRows |= p.timeline->rowCount() > 0;
        out.requests.push_back(std::move(request));
        for (const QString& w : std::as_const(p.breakdown.warnings))
            printWarning(QStringLiteral("%1: %2").arg(p.profile, w));
        out.profiles.push_back(std::move(p));
    }
    return ExitOk;
}

/// The table, CSV or JSON to stdout or -o, then the mapping file and the PNG when asked. Returns the exit code.
int writeCategoryOutputs(const CategoriesCommand& c, CategoriesOutcome& out)
{
    const std::vector<ProfileCategories>& profiles = out.profiles;
    QString text;
    if (c.format == QLatin1String("csv")) {
        text = categoriesCsv(profiles);
        for (const QString& line : std::as_const(out.focusLines))
            printError(line);
    } else if (c.format == QLatin1String("json")) {
        nlohmann::ordered_json j = categoriesJson(profiles, c.rules.engine, c.rules.model, c.rules.files);
        if (!out.focusObjects.empty())
            j["focus"] = std::move(out.focusObjects);
        addWarningsMember(j);
        text = QString::fromStdString(j.dump(2)) + QLatin1Char('\n');
    } else {
        text = categoriesTable(profiles);
        if (!out.focusLines.isEmpty())
            text.prepend(out.focusLines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    }
    if (const int written = writeCommandOutput(text, c.output); written != ExitOk)
        return written;
    if (c.mapping) {
        const Result<std::vector<ProfileCategories>> whole = categoryMappingProfiles(profiles, out.requests);
        if (!whole) {
            printError(whole.errorMessage());
            return exitCodeOf(whole.error());
        }
        if (const int written = writeCommandOutput(mappingCsv(*whole, c.rules.engine, c.rules.model), *c.mapping);
            written != ExitOk)
            return written;
    }
    if (c.png) {
        if (!checkPngAvailable())
            return ExitUsage;
        CategoryChart chart;
        chart.resize(c.pngSize);
        chart.setTable(makeCategoryTable(profiles), c.rules.engine + QStringLiteral(" / ") + c.rules.model);
        return writeChartPng(chart, *c.png, c.pngSize);
    }
    return ExitOk;
}

/// runCategories with its command line read.
int runCategoriesCommand(const CategoriesCommand& command)
{
    CategoriesOutcome outcome;
    if (const int code = computeCategoryProfiles(command, outcome); code != ExitOk)
        return code;
    if (!outcome.anyRows) {
        printError(QStringLiteral("no CUDA kernels or memory operations in %1%2")
                       .arg(command.traces.join(QStringLiteral(", ")),
                           outcome.focusLines.isEmpty() ? QString() : QStringLiteral(" overlapping the focus")));
        return ExitNoData;
    }
    return writeCategoryOutputs(command, outcome);
}

} // namespace

int runCategories(const QStringList& args)
{
    return runParsed(args, parseCategories, runCategoriesCommand);
}

} // namespace nsw::cli

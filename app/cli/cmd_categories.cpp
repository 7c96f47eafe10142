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
#include "widgets/common/plotexport.h"

namespace nsw::cli {

namespace {
const QString kPng = QStringLiteral("png");

/// --elapsed: one value per trace (or one for all); seconds, or 0 / "capture" for the capture span.
bool parseElapsed(const QString& text, qsizetype traces, std::vector<TimeNs>* out, QString* error)
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
            out->push_back(-1);
            continue;
        }
        bool ok = false;
        const double seconds = v.toDouble(&ok);
        if (!ok || seconds < 0) {
            *error = QStringLiteral("--elapsed: '%1' is not a number of seconds (or 'capture')").arg(v);
            return false;
        }
        out->push_back(seconds == 0 ? -1 : TimeNs(seconds * 1e9 + 0.5));
    }
    return true;
}
} // namespace

int runCategories(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(
        QStringLiteral("traces"), QStringLiteral("nsys SQLite exports."), QStringLiteral("TRACE..."));
    const RuleOptions ruleOptions;
    const QCommandLineOption mode(QStringLiteral("time-mode"),
        QStringLiteral("sum | busy | exclusive | g2g (default; what gputrc2graph reports)."), QStringLiteral("mode"),
        QStringLiteral("g2g"));
    const QCommandLineOption elapsed(QStringLiteral("elapsed"),
        QStringLiteral("Wall time in seconds of each run without the profiler (comma separated, one per trace or one "
                       "for all; 0 or 'capture' = the capture span): adds a CPU (non-GPU) row."),
        QStringLiteral("sec,..."));
    const QCommandLineOption perGpu(QStringLiteral("per-gpu"), QStringLiteral("One bar (and rows) per GPU."));
    const QCommandLineOption format(QStringList { QStringLiteral("f"), QStringLiteral("format") },
        QStringLiteral("csv (Profile,Category,Instances,Time (ns),Share (%)), json or table (default)."),
        QStringLiteral("format"), QStringLiteral("table"));
    const QCommandLineOption output(QStringList { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("Write to FILE instead of stdout."), QStringLiteral("file"));
    const QCommandLineOption mapping(QStringLiteral("mapping"),
        QStringLiteral("Also write gputrc2graph's result.csv (Model_Engine, Category, Instances, Name, Elapsed Time "
                       "(sec), plus Total Time (sec), Time Mode, Rule)."),
        QStringLiteral("file"));
    const QCommandLineOption png(
        kPng, QStringLiteral("Also render the stacked bars to a PNG (headless)."), QStringLiteral("file"));
    const QCommandLineOption pngSize(QStringLiteral("png-size"), QStringLiteral("PNG size in pixels (1200x700)."),
        QStringLiteral("WxH"), QStringLiteral("1200x700"));
    ruleOptions.addTo(parser);
    parser.addOptions({ mode, elapsed, perGpu, format, output, mapping, png, pngSize });
    const FocusOptions focusOptions(
        QStringLiteral("Rows that overlap it count: sum with whole durations, busy/exclusive/g2g clipped to the range; "
                       "--elapsed capture is then the range's length. Resolved in each TRACE."));
    focusOptions.addTo(parser);
    int exitCode = ExitOk;
    if (!parseArguments(parser, args,
            QStringLiteral(
                "Kernel categories by regex rules (gputrc2graph's format and semantics: rules in file order, "
                "first match wins, case-sensitive re.search on demangled names and [CUDA memcpy ...] / "
                "[CUDA memset])."),
            &exitCode))
        return exitCode;
    const QStringList traces = parser.positionalArguments();
    if (traces.isEmpty()) {
        printError(QStringLiteral("categories needs at least one TRACE (see categories --help)"));
        return ExitUsage;
    }
    const auto timeMode = parseTimeMode(parser.value(mode));
    if (!timeMode) {
        printError(QStringLiteral("--time-mode must be sum, busy, exclusive or g2g, not '%1'").arg(parser.value(mode)));
        return ExitUsage;
    }
    const QString fmt = parser.value(format);
    if (!checkFormat(fmt, { QStringLiteral("csv"), QStringLiteral("json"), QStringLiteral("table") }))
        return ExitUsage;
    const std::optional<QSize> size = parsePngSize(parser.value(pngSize));
    if (!size)
        return ExitUsage;
    const CommandFocusText focusText = focusOptions.textOf(parser);
    if (!checkFocusText(focusText))
        return ExitUsage;
    std::vector<TimeNs> wall;
    if (parser.isSet(elapsed)) {
        QString error;
        if (!parseElapsed(parser.value(elapsed), traces.size(), &wall, &error)) {
            printError(error);
            return ExitUsage;
        }
    }

    LoadedRules loaded;
    if (const int code = loadRules(parser, ruleOptions, &loaded); code != ExitOk)
        return code;
    const RuleList* list = &loaded.rules;
    const QString& engineName = loaded.engine;
    const QString& modelName = loaded.model;
    const QStringList& ruleFiles = loaded.files;

    LoadOptions options;
    options.parts = LoadKernels | LoadMemOps | LoadGraphLaunches;
    addFocusLoad(focusText, options);
    const QString semantics = categorySemantics(*timeMode != TimeMode::Sum);
    std::vector<FocusRange> focuses;
    QStringList focusLines;
    nlohmann::ordered_json focusObjects = nlohmann::ordered_json::array();
    std::vector<ProfileCategories> profiles;
    bool anyRows = false;
    for (qsizetype i = 0; i < traces.size(); ++i) {
        const ProfilePtr profile = loadProfile(traces[i], options, &exitCode);
        if (!profile)
            return exitCode;
        const std::optional<ResolvedFocus> focus = resolveCommandFocus(profile, focusText, traces[i], &exitCode);
        if (!focus)
            return exitCode;
        ProfileCategories p;
        p.profile = profile->displayName();
        p.path = traces[i];
        p.timeline = CategoryTimeline::build(profile);
        if (focus->range.isActive()) {
            p.timeline = p.timeline->focused(focus->range);
            const QString line = focusLine(*focus, semantics);
            focusLines.append(traces.size() > 1 ? p.profile + QStringLiteral(": ") + line : line);
            nlohmann::ordered_json f = focusJson(*focus, semantics);
            f["profile"] = p.profile.toStdString();
            focusObjects.push_back(std::move(f));
        }
        anyRows |= p.timeline->rowCount() > 0;
        CategoryRequest request { p.timeline, nullptr, *list, {}, false, {} };
        request.options.mode = *timeMode;
        request.options.perDevice = parser.isSet(perGpu);
        if (!wall.empty()) {
            const bool capture = wall[std::size_t(i)] < 0;
            const bool focused = focus->range.isActive();
            request.options.wallNs = !capture ? wall[std::size_t(i)]
                : focused                     ? focus->range.durationNs()
                                              : profile->captureDurationNs();
            request.options.wallSource = !capture ? QStringLiteral("elapsed time")
                : focused                         ? QStringLiteral("focus range")
                                                  : QStringLiteral("capture span");
        }
        p.breakdown = computeCategories(request)->breakdown;
        for (const QString& w : std::as_const(p.breakdown.warnings))
            printWarning(QStringLiteral("%1: %2").arg(p.profile, w));
        profiles.push_back(std::move(p));
    }
    if (!anyRows) {
        printError(QStringLiteral("no CUDA kernels or memory operations in %1%2")
                       .arg(traces.join(QStringLiteral(", ")),
                           focusLines.isEmpty() ? QString() : QStringLiteral(" overlapping the focus")));
        return ExitNoData;
    }

    QString text;
    if (fmt == QLatin1String("csv")) {
        text = categoriesCsv(profiles);
        for (const QString& line : std::as_const(focusLines))
            printError(line);
    } else if (fmt == QLatin1String("json")) {
        nlohmann::ordered_json j = categoriesJson(profiles, engineName, modelName, ruleFiles);
        if (!focusObjects.empty())
            j["focus"] = std::move(focusObjects);
        addWarningsMember(j);
        text = QString::fromStdString(j.dump(2)) + QLatin1Char('\n');
    } else {
        text = categoriesTable(profiles);
        if (!focusLines.isEmpty())
            text.prepend(focusLines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    }
    if (const QString e = writeOutput(text, parser.value(output)); !e.isEmpty()) {
        printError(e);
        return ExitInput;
    }
    if (parser.isSet(mapping)) {
        // The mapping is per profile, whatever the bars.
        std::vector<ProfileCategories> whole = profiles;
        if (parser.isSet(perGpu))
            for (std::size_t i = 0; i < whole.size(); ++i) {
                CategoryRequest request { whole[i].timeline, nullptr, *list, {}, false, {} };
                request.options.mode = *timeMode;
                request.options.wallNs = profiles[i].breakdown.bars.empty() || !profiles[i].breakdown.bars[0].hasCpu
                    ? kNoTime
                    : profiles[i].breakdown.bars[0].wallNs;
                whole[i].breakdown = computeCategories(request)->breakdown;
            }
        if (const QString e = writeOutput(mappingCsv(whole, engineName, modelName), parser.value(mapping));
            !e.isEmpty()) {
            printError(e);
            return ExitInput;
        }
    }
    if (parser.isSet(png)) {
        if (!checkPngAvailable())
            return ExitUsage;
        CategoryChart chart;
        const int w = size->width();
        const int h = size->height();
        chart.resize(w, h);
        chart.setTable(makeCategoryTable(profiles), engineName + QStringLiteral(" / ") + modelName);
        PngExportOptions o;
        o.width = w;
        o.height = h;
        if (const QString e = savePlotPng(chart, parser.value(png), o); !e.isEmpty()) {
            printError(e);
            return ExitInput;
        }
    }
    return ExitOk;
}

} // namespace nsw::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/nsys/reportexport.h"
#include "core/nvlink/ccljson.h"
#include "core/nvlink/gpumetricsreader.h"
#include "core/nvlink/linkpeaks.h"
#include "core/nvlink/nvf1reader.h"
#include "core/nvlink/nvlinkpeaksrun.h"
#include "core/nvlink/nvlinksetup.h"
#include "core/nvlink/recordingplacement.h"
#include "core/nvlink/tracefolder.h"
#include "core/profile/capturespan.h"
#include "core/profile/exportcheck.h"
#include "core/profile/metadatareader.h"
#include "core/sqlite/sqlitedb.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "widgets/nvlink/nvlinkplot.h"

#include <QFileInfo>

namespace nsw::cli {

namespace {

struct Options
{
    QString input;
    QString sqlite;
    QString metric;
    int gpu = 0;
    NvlinkFilter filter;
    bool directionFiltered = false;
    std::size_t top = 1;
    bool ncclOnly = false;
    bool json = false;
    QString png;
    TimeNs offsetNs = 0;
    bool alignStart = false;
    QString output;
};

/// Where the data comes from, once the input has been resolved.
struct Inputs
{
    QString recordingPath; ///< empty: GPU-metrics mode
    QString exportPath; ///< may be empty when no metric needs it
    QString exportProblem; ///< why there is no export (the tool's message)
};

bool isExportFile(const QString& path)
{
    return isProfileFileName(path);
}

/// Resolves TRACE_DIR | FILE.bin | EXPORT.sqlite into files; prints the problem and returns an exit code != 0 on
/// failure.
int resolveInputs(const Options& o, Inputs& in)
{
    const QFileInfo info(o.input);
    if (!info.exists()) {
        printError(QStringLiteral("%1: no such file or folder").arg(o.input));
        return ExitInput;
    }
    TraceFolder folder;
    if (info.isDir()) {
        folder = scanTraceFolder(o.input);
        for (const QString& s : folder.skipped)
            printWarning(s);
        if (folder.recordings.size() == 1) {
            in.recordingPath = folder.recordings.front().path;
        } else if (folder.recordings.size() > 1) {
            QStringList matching, listing;
            for (const RecordingCandidate& r : folder.recordings) {
                listing << QStringLiteral("%1 (GPU %2)")
                               .arg(QFileInfo(r.path).fileName(),
                                   r.suggestedGpu >= 0 ? QString::number(r.suggestedGpu) : QStringLiteral("?"));
                if (r.suggestedGpu == o.gpu)
                    matching << r.path;
            }
            if (matching.size() != 1) {
                printError(QStringLiteral("%1: several NVLink recordings (%2) and no single one named for GPU %3; "
                                          "pass the .bin file itself")
                               .arg(o.input, listing.join(QStringLiteral(", ")))
                               .arg(o.gpu));
                return ExitUsage;
            }
            in.recordingPath = matching.first();
        }
    } else if (isExportFile(o.input)) {
        folder.exports = QStringList { info.absoluteFilePath() };
    } else {
        in.recordingPath = info.absoluteFilePath();
        folder = scanTraceFolder(info.absolutePath());
    }
    if (!o.sqlite.isEmpty()) {
        in.exportPath = o.sqlite;
    } else if (isExportFile(o.input)) {
        in.exportPath = info.absoluteFilePath();
    } else {
        in.exportPath = defaultExport(folder);
        if (in.exportPath.isEmpty())
            in.exportProblem = folder.exports.isEmpty()
                ? QStringLiteral("No SQLite file found in %1").arg(info.isDir() ? o.input : info.path())
                : QStringLiteral("several exports in %1 (%2); choose one with --sqlite")
                      .arg(info.isDir() ? o.input : info.path(), folder.exports.join(QStringLiteral(", ")));
    }
    if (in.recordingPath.isEmpty() && in.exportPath.isEmpty()) {
        printError(QStringLiteral("%1: no NVF1 NVLink recording (.bin) and no export with GPU metrics").arg(o.input));
        return ExitNoData;
    }
    return ExitOk;
}

struct ExportData
{
    std::unique_ptr<SqliteDb> db;
    Profile meta;
};

/// Opens the export read-only and reads its metadata; prints the error on failure.
bool openExport(const QString& givenPath, ExportData& out, int* exitCode)
{
    const Result<QString> file = sqliteFileFor(givenPath);
    if (!file) {
        printError(file.errorMessage());
        *exitCode = exitCodeOf(file.error());
        return false;
    }
    const QString& path = *file;
    QString error = checkFileBeforeOpen(path);
    if (error.isEmpty()) {
        out.db = SqliteDb::open(path, &error);
        if (out.db)
            error = checkIsNsysExport(*out.db);
    }
    if (error.isEmpty()) {
        if (const Status metadata = readMetadata(*out.db, out.meta); !metadata)
            error = metadata.errorMessage();
    }
    if (!error.isEmpty()) {
        printError(error);
        *exitCode = ExitInput;
        return false;
    }
    return true;
}

/// Where the recording lies against the export's capture. The metadata window costs nothing; the events' span (a
/// scan of the event tables) is read only when the export has no such window or the recording seems to miss it.
QString textMaxThroughput(const OrderedJson& j)
{
    QString t = QStringLiteral("\nmax_throughput:\n%1\n").arg(QString(40, QLatin1Char('-')));
    t += QStringLiteral("  Max Throughput:   %1 GB/s\n").arg(j["max_throughput_gbps"].get<double>(), 0, 'f', 4);
    if (j["timestamp_us"].is_null())
        return t;
    const qint64 ts = j["timestamp_us"].get<qint64>();
    t += QStringLiteral("  Link:             %1\n")
             .arg(j["link_id"].is_null() ? QStringLiteral("all (sum)") : QString::number(j["link_id"].get<int>()));
    t += QStringLiteral("  Direction:        %1\n").arg(QString::fromStdString(j["direction"].get<std::string>()));
    t += QStringLiteral("  Timestamp (us):   %1\n").arg(ts);
    t += QStringLiteral("  Timestamp:        %1\n").arg(cclTimestampIso(ts));
    t += QStringLiteral("  Interval:         %1 us\n").arg(j["interval_duration_us"].get<qint64>());
    t += QStringLiteral("  Bytes:            %1\n").arg(withThousandsSeparators(j["interval_bytes"].get<qint64>()));
    return t;
}

QString textAvgThroughput(const OrderedJson& j)
{
    QString t = QStringLiteral("\navg_throughput:\n%1\n").arg(QString(40, QLatin1Char('-')));
    t += QStringLiteral("  Avg Throughput:   %1 GB/s  (per link and direction, weighted by time)\n")
             .arg(j["avg_throughput_gbps"].get<double>(), 0, 'f', 4);
    t += QStringLiteral("  Total Duration:   %1 us\n")
             .arg(withThousandsSeparators(j["total_duration_us"].get<qint64>()));
    t += QStringLiteral("  Intervals:        %1 (%2 active)\n")
             .arg(j["num_intervals"].get<qint64>())
             .arg(j["num_active_intervals"].get<qint64>());
    return t;
}

QString textTotal(const OrderedJson& j)
{
    QString t = QStringLiteral("\ntotal_communication:\n%1\n").arg(QString(40, QLatin1Char('-')));
    t += QStringLiteral("  Total Bytes:      %1\n").arg(withThousandsSeparators(j["total_bytes"].get<qint64>()));
    t += QStringLiteral("  Total GB:         %1\n").arg(j["total_gb"].get<double>(), 0, 'f', 4);
    if (j.contains("rx_bytes")) {
        t += QStringLiteral("  RX Bytes:         %1\n").arg(withThousandsSeparators(j["rx_bytes"].get<qint64>()));
        t += QStringLiteral("  TX Bytes:         %1\n").arg(withThousandsSeparators(j["tx_bytes"].get<qint64>()));
    }
    return t;
}

QString textPeak(const OrderedJson& peak, int number, const ClockAlignment& alignment)
{
    const OrderedJson& iv = peak.contains("interval") ? peak["interval"] : peak["peak_interval"];
    if (iv.is_null())
        return QStringLiteral("  Peak %1: No data\n").arg(number);
    QString t = QStringLiteral("\n  Peak %1 Interval:\n").arg(number);
    const double start = iv["start_us"].get<double>();
    const double gbps = iv["throughput_gbps"].is_null() ? std::nan("") : iv["throughput_gbps"].get<double>();
    t += QStringLiteral("    Throughput:    %1\n")
             .arg(std::isnan(gbps) ? QStringLiteral("%1 % of peak").arg(iv["throughput_pct"].get<double>(), 0, 'f', 1)
                                   : QStringLiteral("%1 GB/s").arg(gbps, 0, 'f', 4));
    t += QStringLiteral("    Link:          %1 %2\n")
             .arg(iv["link_id"].is_null() ? QStringLiteral("all") : QString::number(iv["link_id"].get<int>()),
                 QString::fromStdString(iv["direction"].get<std::string>()));
    t += QStringLiteral("    Timestamp:     %1\n").arg(QString::fromStdString(iv["timestamp_iso"].get<std::string>()));
    t += QStringLiteral("    Timestamp (us): %1\n").arg(QString::fromStdString(iv["start_us"].dump()));
    t += QStringLiteral("    Capture time:  %1\n")
             .arg(formatSeconds(
                 TimeNs(std::llround((start - double(alignment.anchorUs)) * 1000.0)) + alignment.offsetNs, 6));
    const double duration = iv["duration_us"].get<double>();
    t += QStringLiteral("    Duration:      %1 us (%2 ms)\n").arg(duration, 0, 'f', 0).arg(duration / 1000, 0, 'f', 3);
    if (!iv["bytes_transferred"].is_null())
        t += QStringLiteral("    Bytes:         %1\n")
                 .arg(withThousandsSeparators(iv["bytes_transferred"].get<qint64>()));
    const OrderedJson& kernels = peak["kernels"];
    t += QStringLiteral("\n  Kernels during interval: %1 (%2 NCCL)\n%3\n")
             .arg(peak["num_kernels"].get<qint64>())
             .arg(peak["num_nccl_kernels"].get<qint64>())
             .arg(QString(60, QLatin1Char('-')));
    if (kernels.empty())
        return t + QStringLiteral("    (no kernels found)\n");
    int shown = 0;
    for (const auto& k : kernels) {
        if (++shown > 20) {
            t += QStringLiteral("    ... and %1 more kernels\n").arg(kernels.size() - 20);
            break;
        }
        t += QStringLiteral("    %1%2\n")
                 .arg(k["is_nccl"].get<bool>() ? QStringLiteral("[NCCL] ") : QString(),
                     QString::fromStdString(k["name"].get<std::string>()).left(80));
        t += QStringLiteral("      overlap: %1% (%2 us), duration: %3 ms\n")
                 .arg(k["overlap_pct"].get<double>(), 0, 'f', 1)
                 .arg(k["overlap_us"].get<double>(), 0, 'f', 0)
                 .arg(k["duration_us"].get<double>() / 1000, 0, 'f', 3);
    }
    return t;
}

QString textPeakKernels(const OrderedJson& j, const ClockAlignment& alignment)
{
    QString t = QStringLiteral("\npeak_kernels:\n%1\n").arg(QString(60, QLatin1Char('=')));
    if (j.contains("peaks")) {
        int n = 0;
        for (const auto& p : j["peaks"])
            t += textPeak(p, ++n, alignment);
        if (n == 0)
            t += QStringLiteral("  (no peak asked for)\n");
    } else if (j.contains("error")) {
        t += QStringLiteral("  ERROR: %1\n").arg(QString::fromStdString(j["error"].get<std::string>()));
    } else {
        t += textPeak(j, 1, alignment);
    }
    return t;
}

/// The command's options, declared once for the parser and read back by the checks below.
struct NvlinkOptionSet
{
    QCommandLineOption sqlite = option("sqlite",
        QStringLiteral("The export the kernels come from (default: the only .sqlite next to the recording)."), "file");
    QCommandLineOption metric = option("metric",
        QStringLiteral("peak_kernels, max_throughput, avg_throughput, total_communication, nvlink_all (the three "
                       "throughput metrics) or all (those and peak_kernels)."),
        "name");
    QCommandLineOption gpu = option("gpu",
        QStringLiteral("GPU (CUDA device of the export) the recording is of; kernels of this device are matched "
                       "(default 0)."),
        "n", "0");
    QCommandLineOption link = option("link", QStringLiteral("Only this NVLink link."), "l");
    QCommandLineOption direction = option("direction", QStringLiteral("Only tx or rx."), "tx|rx");
    QCommandLineOption top = option("top", QStringLiteral("Peak intervals to analyse (default 1)."), "k", "1");
    QCommandLineOption ncclOnly = option("nccl-only", QStringLiteral("List only NCCL kernels."));
    QCommandLineOption aggregate
        = option("aggregate-links", QStringLiteral("Use the sum over all links at each poll instead of single links."));
    QCommandLineOption json = option("json",
        QStringLiteral("JSON output, identical to the CCL-Bench tools' (correlate_nsys_nvlink.py, "
                       "analyze_nvlink_throughput.py)."));
    QCommandLineOption png = option("png", QStringLiteral("Also draw the throughput with the peaks to FILE."), "file");
    QCommandLineOption offset = option("offset-us",
        QStringLiteral("Correction added to the NVML timestamps before matching kernels (µs, default 0)."), "us", "0");
    QCommandLineOption alignStart = option("align-start",
        QStringLiteral("Put the recording's first sample at the capture start (then add --offset-us): for a "
                       "recording whose clock does not match the export's."));
    QCommandLineOption output = outputOption();

    QList<QCommandLineOption> all() const
    {
        return { sqlite, metric, gpu, link, direction, top, ncclOnly, aggregate, json, png, offset, alignStart,
            output };
    }
};

/// The metric and which series of the recording: GPU, link, direction, aggregation, peaks.
bool readSelection(const QCommandLineParser& parser, const NvlinkOptionSet& options, Options& o)
{
    o.metric = parser.value(options.metric);
    const QStringList metrics
        = { QStringLiteral("peak_kernels"), QStringLiteral("max_throughput"), QStringLiteral("avg_throughput"),
              QStringLiteral("total_communication"), QStringLiteral("nvlink_all"), QStringLiteral("all") };
    if (!metrics.contains(o.metric)) {
        printError(o.metric.isEmpty()
                ? QStringLiteral("no --metric given (%1)").arg(metrics.join(QLatin1Char('|')))
                : QStringLiteral("unknown --metric '%1' (%2)").arg(o.metric, metrics.join(QLatin1Char('|'))));
        return false;
    }
    bool ok = false;
    o.gpu = parser.value(options.gpu).toInt(&ok);
    if (!ok || o.gpu < 0) {
        printError(QStringLiteral("--gpu must be a GPU number, not '%1'").arg(parser.value(options.gpu)));
        return false;
    }
    if (parser.isSet(options.link)) {
        const int l = parser.value(options.link).toInt(&ok);
        if (!ok || l < 0) {
            printError(QStringLiteral("--link must be a link number, not '%1'").arg(parser.value(options.link)));
            return false;
        }
        o.filter.links = { l };
    }
    if (parser.isSet(options.direction)) {
        const QString d = parser.value(options.direction).toLower();
        if (d != QLatin1String("tx") && d != QLatin1String("rx")) {
            printError(QStringLiteral("--direction must be tx or rx, not '%1'").arg(parser.value(options.direction)));
            return false;
        }
        o.filter.direction = d == QLatin1String("tx") ? LinkDirection::Tx : LinkDirection::Rx;
        o.directionFiltered = true;
    }
    const int topValue = parser.value(options.top).toInt(&ok);
    if (!ok || topValue < 0) {
        printError(QStringLiteral("--top must be 0 or more, not '%1'").arg(parser.value(options.top)));
        return false;
    }
    o.top = std::size_t(topValue);
    o.filter.aggregateLinks = parser.isSet(options.aggregate);
    if (o.filter.aggregateLinks && parser.isSet(options.link)) {
        printError(QStringLiteral("--link and --aggregate-links exclude each other"));
        return false;
    }
    o.ncclOnly = parser.isSet(options.ncclOnly);
    return true;
}

/// Clock alignment and where the results go: JSON, PNG, the output file.
bool readOutput(const QCommandLineParser& parser, const NvlinkOptionSet& options, Options& o)
{
    o.json = parser.isSet(options.json);
    o.png = parser.value(options.png);
    bool ok = false;
    const double offsetUs = parser.value(options.offset).toDouble(&ok);
    // As far as a recording may lie from its export's session start (ClockAlignment: 100 days).
    if (!ok || std::abs(offsetUs) > 8.64e12) {
        printError(QStringLiteral("--offset-us must be a number of µs, not '%1'").arg(parser.value(options.offset)));
        return false;
    }
    o.offsetNs = TimeNs(std::llround(offsetUs * 1000.0));
    o.alignStart = parser.isSet(options.alignStart);
    o.output = parser.value(options.output);
    return o.png.isEmpty() || checkPngAvailable();
}

/// The command line, checked. Nothing when the command stops here: --help (exit code 0) or a bad option (printed,
/// exit code != 0).
std::optional<Options> parseNvlinkOptions(const QStringList& args, int* exitCode)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("input"),
        QStringLiteral("A trace folder (an export and NVF1 .bin recordings), an NVF1 recording, or an export with "
                       "nsys GPU metrics."),
        QStringLiteral("TRACE_DIR|FILE.bin|EXPORT.sqlite|REPORT.nsys-rep"));
    const NvlinkOptionSet options;
    parser.addOptions(options.all());
    if (!parseArguments(parser, args, commandHelp("nvlink"), exitCode))
        return std::nullopt;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(QStringLiteral("nvlink takes exactly one TRACE_DIR, FILE.bin or EXPORT.sqlite (see nvlink --help)"));
        usageError(exitCode);
        return std::nullopt;
    }
    Options o;
    o.input = positional.first();
    o.sqlite = parser.value(options.sqlite);
    if (!readSelection(parser, options, o) || !readOutput(parser, options, o)) {
        usageError(exitCode);
        return std::nullopt;
    }
    return o;
}

bool wantsPeaks(const Options& o)
{
    return o.metric == QLatin1String("peak_kernels") || o.metric == QLatin1String("all");
}

bool wantsThroughput(const Options& o)
{
    return o.metric != QLatin1String("peak_kernels");
}

/// The NVLink data: the recording when there is one, else the export's GPU metrics (which need the export open).
int readSource(const Options& o, const Inputs& in, const ExportData& exportData, NvlinkSeriesSource& source)
{
    source.gpu = o.gpu;
    if (!in.recordingPath.isEmpty()) {
        Nvf1ReadResult r = readNvf1File(in.recordingPath, o.gpu);
        if (!r.recording) {
            printError(r.error);
            return ExitInput;
        }
        for (const QString& w : r.recording->warnings)
            printWarning(QStringLiteral("%1: %2").arg(in.recordingPath, w));
        if (r.recording->links.empty() && r.recording->totals.empty()) {
            // A header only: the recorder was stopped before its first poll (or every record was unusable).
            printError(QStringLiteral("%1: the recording holds no usable NVLink samples").arg(in.recordingPath));
            return ExitNoData;
        }
        source.recording = std::move(r.recording);
        return ExitOk;
    }
    const GpuMetricsResult g = readGpuMetricsNvlink(*exportData.db);
    if (!g.error.isEmpty()) {
        printError(g.error);
        return ExitInput;
    }
    if (!g.data) {
        printError(QStringLiteral("%1: no NVLink recording given and the export has no NVLink GPU metrics")
                       .arg(in.exportPath));
        return ExitNoData;
    }
    if (wantsThroughput(o)) {
        printError(QStringLiteral("%1: nsys GPU metrics are percent of peak, not bytes: only --metric "
                                  "peak_kernels applies")
                       .arg(in.exportPath));
        return ExitUsage;
    }
    if (!o.filter.links.empty())
        printWarning(QStringLiteral("nsys GPU metrics cover all links together: --link is ignored"));
    source.gpuMetrics = g.data;
    return ExitOk;
}

/// The source set against the export (core's setUpNvlinkSource(), as the NVLink pane does): clock alignment,
/// placement (warned when the recording seems to be of another session), the GPU model. Prints the problems.
int setUpSource(const Options& o, const Inputs& in, const ExportData& exportData, const NvlinkSeriesSource& source,
    const LinkPeakTable& peakTable, NvlinkSetup& setup)
{
    NvlinkSetupRequest request;
    request.source = source;
    request.offsetNs = o.offsetNs;
    request.alignStart = o.alignStart;
    request.needKernelClock = wantsPeaks(o);
    request.peakTable = &peakTable;
    request.recordingPath = in.recordingPath;
    request.exportPath = in.exportPath;
    if (exportData.db) {
        request.exportInfo = &exportData.meta;
        request.capture = captureSpanOf(exportData.meta.meta, EventSpan {});
        request.exactCapture
            = [&exportData]() { return captureSpanOf(exportData.meta.meta, readEventSpan(*exportData.db)); };
    } else if (o.alignStart) {
        printWarning(QStringLiteral("--align-start needs the export (%1)").arg(in.exportProblem));
    }
    Result<NvlinkSetup> result = setUpNvlinkSource(request);
    if (!result) {
        printError(result.errorMessage());
        return exitCodeOf(result.error());
    }
    setup = std::move(*result);
    if (setup.placement && o.alignStart && !setup.placement->captureKnown())
        printWarning(QStringLiteral("%1: no capture span (no metadata, no events): --align-start does nothing")
                         .arg(in.exportPath));
    if (!setup.anotherSessionWarning.isEmpty())
        printWarning(setup.anotherSessionWarning
            + (o.alignStart ? QString()
                            : QStringLiteral(" --align-start puts its first sample at the capture start (the same as "
                                             "--offset-us %1).")
                                  .arg(double(setup.placement->alignOffsetNs + o.offsetNs) / 1000.0, 0, 'f', 0)));
    return ExitOk;
}

OrderedJson throughputMetrics(const Options& o, const std::vector<const ThroughputSeries*>& series)
{
    OrderedJson result = OrderedJson::object();
    const auto wants = [&o](const char* name) {
        return o.metric == QLatin1String(name) || o.metric == QLatin1String("nvlink_all")
            || o.metric == QLatin1String("all");
    };
    if (wants("max_throughput"))
        result["max_throughput"] = cclMaxThroughput(series);
    if (wants("avg_throughput"))
        result["avg_throughput"] = cclAvgThroughput(series);
    if (wants("total_communication"))
        result["total_communication"] = cclTotalCommunication(series, o.directionFiltered);
    return result;
}

QString textReport(const Options& o, const Inputs& in, const NvlinkSeriesSource& source, bool exportOpen,
    const OrderedJson& result, const ClockAlignment& alignment)
{
    QString text;
    if (const Nvf1Recording* r = source.recording.get())
        text += QStringLiteral("Recording: %1 (GPU %2): %3 records, %4 polls, %5 links, %6\n")
                    .arg(in.recordingPath)
                    .arg(o.gpu)
                    .arg(withThousandsSeparators(r->stats.records), withThousandsSeparators(r->stats.polls))
                    .arg(r->linkCount())
                    .arg(formatDuration((r->lastUs - r->firstUs) * 1000));
    if (!in.exportPath.isEmpty() && exportOpen)
        text += QStringLiteral("Export:    %1\n").arg(in.exportPath);
    if (result.contains("max_throughput"))
        text += textMaxThroughput(result["max_throughput"]);
    if (result.contains("avg_throughput"))
        text += textAvgThroughput(result["avg_throughput"]);
    if (result.contains("total_communication"))
        text += textTotal(result["total_communication"]);
    if (result.contains("peak_kernels"))
        text += textPeakKernels(result["peak_kernels"], alignment);
    return text;
}

/// The whole recording with its peaks (an interval's TX and RX once, as the pane ranks them) and the NCCL band.
QString savePng(const Options& o, const Inputs& in, const NvlinkPeaksRequest& request, const NvlinkPeaksResult* peaks)
{
    std::vector<NvlinkPlotSeries> plotted;
    for (std::size_t i = 0; i < request.series.size(); ++i) {
        const ThroughputSeries& s = *request.series[i];
        NvlinkPlotSeries p;
        p.series = &s;
        p.index = peaks ? peaks->plotIndexes[i] : std::make_shared<SeriesMaxIndex>(s);
        p.shift = request.alignment.shiftOf(s);
        p.name = s.label();
        p.style = s.direction == LinkDirection::Tx ? Qt::SolidLine : Qt::DashLine;
        p.color = QColor::fromHsv((s.link == kAllLinks ? int(i) : s.link) * 47 % 360, 200, 190);
        plotted.push_back(std::move(p));
    }
    std::vector<NvlinkPlotPeak> marks;
    for (const NvlinkPeak& p : peaks ? peaks->peaks : findPeaks(request.series, request.alignment, request.top))
        marks.push_back({ p.rank, p.start, p.end, p.value });
    const bool percent = !request.series.empty() && request.series.front()->unit == ThroughputUnit::PercentOfPeak;
    const QString title = QStringLiteral("NVLink %1 — GPU %2%3")
                              .arg(QFileInfo(in.recordingPath.isEmpty() ? in.exportPath : in.recordingPath).fileName())
                              .arg(o.gpu)
                              .arg(o.filter.aggregateLinks ? QStringLiteral(", sum of links") : QString());
    return saveNvlinkPlotPng(std::move(plotted), percent ? QStringLiteral("% of peak") : QStringLiteral("GB/s"),
        std::move(marks), peaks ? peaks->ncclBusy : std::vector<std::pair<TimeNs, TimeNs>>(), title, o.png);
}

/// runNvlink with its command line read.
int runNvlinkCommand(const Options& o)
{
    int exitCode = ExitOk;
    Inputs in;
    if (const int e = resolveInputs(o, in); e != ExitOk)
        return e;

    ExportData exportData;
    const bool needExport = wantsPeaks(o) || !o.png.isEmpty() || in.recordingPath.isEmpty() || o.alignStart;
    if (needExport && !in.exportPath.isEmpty() && !openExport(in.exportPath, exportData, &exitCode))
        return exitCode;
    NvlinkSeriesSource source;
    if (const int e = readSource(o, in, exportData, source); e != ExitOk)
        return e;
    NvlinkPeaksRequest request;
    request.keepAlive = source.recording;
    request.series = selectSeries(source, o.filter);
    QString tableProblem;
    const LinkPeakTable peakTable = LinkPeakTable::load(&tableProblem);
    if (!tableProblem.isEmpty())
        printWarning(tableProblem);
    NvlinkSetup setup;
    if (const int e = setUpSource(o, in, exportData, source, peakTable, setup); e != ExitOk)
        return e;
    request.alignment = setup.alignment;
    request.gpu = o.gpu;
    request.top = o.top;
    request.ncclOnly = o.ncclOnly;
    request.gpuModel = setup.gpuModel;
    request.kernels.exportDb = exportData.db.get();
    request.forPlot = !o.png.isEmpty();

    OrderedJson result = wantsThroughput(o) ? throughputMetrics(o, request.series) : OrderedJson::object();
    std::optional<NvlinkPeaksResult> peaks;
    const bool anyInterval = !topIntervals(request.series, 1).empty();
    if (exportData.db && anyInterval && (wantsPeaks(o) || request.forPlot)) {
        Result<NvlinkPeaksResult> computed = computeNvlinkPeaks(request);
        for (const QString& w : computed.warnings())
            printWarning(QStringLiteral("%1: %2").arg(in.exportPath, w));
        if (!computed) {
            printError(computed.errorMessage());
            return ExitInput;
        }
        peaks = std::move(*computed);
    }
    if (wantsPeaks(o)) {
        if (!anyInterval) {
            result["peak_kernels"] = cclPeakError(QStringLiteral("No NVLink intervals found after filtering"));
        } else if (!peaks) {
            result["peak_kernels"] = cclPeakError(in.exportProblem);
            printWarning(in.exportProblem);
        } else {
            result["peak_kernels"] = cclPeakKernelsOf(request, *peaks);
        }
        if (result["peak_kernels"].contains("error"))
            printWarning(QString::fromStdString(result["peak_kernels"]["error"].get<std::string>()));
    }

    const QString text = o.json ? QString::fromStdString(pythonJsonDumps(result)) + QLatin1Char('\n')
                                : textReport(o, in, source, bool(exportData.db), result, request.alignment);
    if (const int written = writeCommandOutput(text, o.output); written != ExitOk)
        return written;
    if (!o.png.isEmpty()) {
        if (const QString e = savePng(o, in, request, peaks ? &*peaks : nullptr); !e.isEmpty()) {
            printError(e);
            return ExitInput;
        }
    }
    return ExitOk;
}

} // namespace

int runNvlink(const QStringList& args)
{
    return runParsed(args, parseNvlinkOptions, runNvlinkCommand);
}

} // namespace nsw::cli

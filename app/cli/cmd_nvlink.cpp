// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/nsys/reportexport.h"
#include "core/nvlink/ccljson.h"
#include "core/nvlink/gpumetricsreader.h"
#include "core/nvlink/linkpeaks.h"
#include "core/nvlink/nvf1reader.h"
#include "core/nvlink/peakkernels.h"
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

constexpr TimeNs kWindowMarginNs = 2000;

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
    QStringList notes;
};

void warn(const QString& message)
{
    printError(QStringLiteral("warning: ") + message);
}

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
            warn(s);
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
        *exitCode = ExitInput;
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
RecordingPlacement placeAgainstCapture(const ExportData& e, const ClockAlignment& alignment, const Nvf1Recording& r)
{
    RecordingPlacement p = placeRecording(alignment, r.firstUs, r.lastUs, captureSpanOf(e.meta.meta, EventSpan {}));
    if (!p.captureKnown() || p.mismatched())
        p = placeRecording(alignment, r.firstUs, r.lastUs, captureSpanOf(e.meta.meta, readEventSpan(*e.db)));
    return p;
}

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

} // namespace

int runNvlink(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("input"),
        QStringLiteral("A trace folder (an export and NVF1 .bin recordings), an NVF1 recording, or an export with "
                       "nsys GPU metrics."),
        QStringLiteral("TRACE_DIR|FILE.bin|EXPORT.sqlite|REPORT.nsys-rep"));
    const QCommandLineOption sqlite(QStringLiteral("sqlite"),
        QStringLiteral("The export the kernels come from (default: the only .sqlite next to the recording)."),
        QStringLiteral("file"));
    const QCommandLineOption metric(QStringLiteral("metric"),
        QStringLiteral("peak_kernels, max_throughput, avg_throughput, total_communication, nvlink_all (the three "
                       "throughput metrics) or all (those and peak_kernels)."),
        QStringLiteral("name"));
    const QCommandLineOption gpu(QStringLiteral("gpu"),
        QStringLiteral("GPU (CUDA device of the export) the recording is of; kernels of this device are matched "
                       "(default 0)."),
        QStringLiteral("n"), QStringLiteral("0"));
    const QCommandLineOption link(
        QStringLiteral("link"), QStringLiteral("Only this NVLink link."), QStringLiteral("l"));
    const QCommandLineOption direction(
        QStringLiteral("direction"), QStringLiteral("Only tx or rx."), QStringLiteral("tx|rx"));
    const QCommandLineOption top(QStringLiteral("top"), QStringLiteral("Peak intervals to analyse (default 1)."),
        QStringLiteral("k"), QStringLiteral("1"));
    const QCommandLineOption ncclOnly(QStringLiteral("nccl-only"), QStringLiteral("List only NCCL kernels."));
    const QCommandLineOption aggregate(QStringLiteral("aggregate-links"),
        QStringLiteral("Use the sum over all links at each poll instead of single links."));
    const QCommandLineOption json(QStringLiteral("json"),
        QStringLiteral("JSON output, identical to the CCL-Bench tools' (correlate_nsys_nvlink.py, "
                       "analyze_nvlink_throughput.py)."));
    const QCommandLineOption png(QStringLiteral("png"),
        QStringLiteral("Also draw the throughput with the peaks to FILE."), QStringLiteral("file"));
    const QCommandLineOption offset(QStringLiteral("offset-us"),
        QStringLiteral("Correction added to the NVML timestamps before matching kernels (µs, default 0)."),
        QStringLiteral("us"), QStringLiteral("0"));
    const QCommandLineOption alignStart(QStringLiteral("align-start"),
        QStringLiteral("Put the recording's first sample at the capture start (then add --offset-us): for a "
                       "recording whose clock does not match the export's."));
    const QCommandLineOption output(QStringList { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("Write to FILE instead of stdout."), QStringLiteral("file"));
    parser.addOptions(
        { sqlite, metric, gpu, link, direction, top, ncclOnly, aggregate, json, png, offset, alignStart, output });
    int exitCode = ExitOk;
    if (!parseArguments(parser, args,
            QStringLiteral("NVLink throughput of an NVML recording (NVF1) or nsys GPU metrics, and the kernels running "
                           "at its peaks. The metrics and their JSON are those of the CCL-Bench NVLink tools; records "
                           "whose NVML call failed and counter resets are not counted (those tools count them)."),
            &exitCode))
        return exitCode;

    Options o;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(QStringLiteral("nvlink takes exactly one TRACE_DIR, FILE.bin or EXPORT.sqlite (see nvlink --help)"));
        return ExitUsage;
    }
    o.input = positional.first();
    o.sqlite = parser.value(sqlite);
    o.metric = parser.value(metric);
    const QStringList metrics
        = { QStringLiteral("peak_kernels"), QStringLiteral("max_throughput"), QStringLiteral("avg_throughput"),
              QStringLiteral("total_communication"), QStringLiteral("nvlink_all"), QStringLiteral("all") };
    if (!metrics.contains(o.metric)) {
        printError(o.metric.isEmpty()
                ? QStringLiteral("no --metric given (%1)").arg(metrics.join(QLatin1Char('|')))
                : QStringLiteral("unknown --metric '%1' (%2)").arg(o.metric, metrics.join(QLatin1Char('|'))));
        return ExitUsage;
    }
    bool ok = false;
    o.gpu = parser.value(gpu).toInt(&ok);
    if (!ok || o.gpu < 0) {
        printError(QStringLiteral("--gpu must be a GPU number, not '%1'").arg(parser.value(gpu)));
        return ExitUsage;
    }
    if (parser.isSet(link)) {
        o.filter.link = parser.value(link).toInt(&ok);
        if (!ok || o.filter.link < 0) {
            printError(QStringLiteral("--link must be a link number, not '%1'").arg(parser.value(link)));
            return ExitUsage;
        }
    }
    if (parser.isSet(direction)) {
        const QString d = parser.value(direction).toLower();
        if (d != QLatin1String("tx") && d != QLatin1String("rx")) {
            printError(QStringLiteral("--direction must be tx or rx, not '%1'").arg(parser.value(direction)));
            return ExitUsage;
        }
        o.filter.direction = d == QLatin1String("tx") ? LinkDirection::Tx : LinkDirection::Rx;
        o.directionFiltered = true;
    }
    const int topValue = parser.value(top).toInt(&ok);
    if (!ok || topValue < 0) {
        printError(QStringLiteral("--top must be 0 or more, not '%1'").arg(parser.value(top)));
        return ExitUsage;
    }
    o.top = std::size_t(topValue);
    o.filter.aggregateLinks = parser.isSet(aggregate);
    if (o.filter.aggregateLinks && parser.isSet(link)) {
        printError(QStringLiteral("--link and --aggregate-links exclude each other"));
        return ExitUsage;
    }
    o.ncclOnly = parser.isSet(ncclOnly);
    o.json = parser.isSet(json);
    o.png = parser.value(png);
    const double offsetUs = parser.value(offset).toDouble(&ok);
    // As far as a recording may lie from its export's session start (ClockAlignment: 100 days).
    if (!ok || std::abs(offsetUs) > 8.64e12) {
        printError(QStringLiteral("--offset-us must be a number of µs, not '%1'").arg(parser.value(offset)));
        return ExitUsage;
    }
    o.offsetNs = TimeNs(std::llround(offsetUs * 1000.0));
    o.alignStart = parser.isSet(alignStart);
    o.output = parser.value(output);
    if (!o.png.isEmpty() && !checkPngAvailable())
        return ExitUsage;

    Inputs in;
    if (const int e = resolveInputs(o, in); e != ExitOk)
        return e;

    // The series: an NVF1 recording, else the export's GPU metrics.
    std::shared_ptr<Nvf1Recording> recording;
    std::shared_ptr<GpuMetricsNvlink> gpuMetrics;
    std::vector<const ThroughputSeries*> series;
    std::vector<ThroughputSeries> metricSeries;
    if (!in.recordingPath.isEmpty()) {
        Nvf1ReadResult r = readNvf1File(in.recordingPath, o.gpu);
        if (!r.recording) {
            printError(r.error);
            return ExitInput;
        }
        recording = std::move(r.recording);
        for (const QString& w : recording->warnings)
            warn(QStringLiteral("%1: %2").arg(in.recordingPath, w));
        series = selectSeries(recording->links, recording->totals, o.filter);
    }

    const bool wantPeaks = o.metric == QLatin1String("peak_kernels") || o.metric == QLatin1String("all");
    const bool wantThroughput = o.metric != QLatin1String("peak_kernels");
    ExportData exportData;
    const bool needExport = wantPeaks || !o.png.isEmpty() || !recording || o.alignStart;
    if (needExport && !in.exportPath.isEmpty() && !openExport(in.exportPath, exportData, &exitCode))
        return exitCode;
    if (!recording) {
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
        gpuMetrics = g.data;
        if (wantThroughput) {
            printError(QStringLiteral("%1: nsys GPU metrics are percent of peak, not bytes: only --metric "
                                      "peak_kernels applies")
                           .arg(in.exportPath));
            return ExitUsage;
        }
        if (o.filter.link != kAllLinks)
            warn(QStringLiteral("nsys GPU metrics cover all links together: --link is ignored"));
        NvlinkFilter f = o.filter;
        f.link = kAllLinks;
        f.aggregateLinks = true;
        std::vector<ThroughputSeries> none;
        for (const ThroughputSeries& s : gpuMetrics->series)
            if (s.gpu == o.gpu)
                metricSeries.push_back(s);
        series = selectSeries(none, metricSeries, f);
    }

    ClockAlignment alignment;
    if (exportData.db) {
        // GPU metrics share the kernels' clock: anchored at the session start, never offset.
        const TimeNs sessionStart = exportData.meta.meta.sessionStartUtcNs;
        const qint64 startUs = recording ? recording->firstUs
            : sessionStart != kNoTime    ? floorDiv(sessionStart, 1000)
                                         : 0;
        alignment = alignClocks(sessionStart, startUs, recording ? o.offsetNs : 0);
        if (recording && !alignment.fromExport && wantPeaks) {
            printError(QStringLiteral("%1: %2").arg(in.exportPath,
                exportData.meta.meta.sessionStartUtcNs == kNoTime
                    ? QStringLiteral(
                        "no TARGET_INFO_SESSION_START_TIME: the NVML clock cannot be matched to the kernels")
                    : QStringLiteral("the session start time is more than 100 days away from the recording")));
            return ExitNoData;
        }
        if (recording) {
            RecordingPlacement placement = placeAgainstCapture(exportData, alignment, *recording);
            if (o.alignStart && placement.captureKnown()) {
                alignment.offsetNs = placement.alignOffsetNs + o.offsetNs;
                placement = placeAgainstCapture(exportData, alignment, *recording);
            } else if (o.alignStart) {
                warn(QStringLiteral("%1: no capture span (no metadata, no events): --align-start does nothing")
                         .arg(in.exportPath));
            }
            if (placement.mismatched())
                warn(
                    QStringLiteral("%1: %2 (export %3). Is it from another session?%4")
                        .arg(in.recordingPath, placement.problem(), QFileInfo(in.exportPath).fileName(),
                            o.alignStart ? QString()
                                         : QStringLiteral(" --align-start puts its first sample at the capture "
                                                          "start (the same as --offset-us %1).")
                                               .arg(double(placement.alignOffsetNs + o.offsetNs) / 1000.0, 0, 'f', 0)));
        }
    } else if (o.alignStart) {
        warn(QStringLiteral("--align-start needs the export (%1)").arg(in.exportProblem));
    }

    OrderedJson result;
    if (wantThroughput) {
        if (o.metric == QLatin1String("max_throughput") || o.metric == QLatin1String("nvlink_all")
            || o.metric == QLatin1String("all"))
            result["max_throughput"] = cclMaxThroughput(series);
        if (o.metric == QLatin1String("avg_throughput") || o.metric == QLatin1String("nvlink_all")
            || o.metric == QLatin1String("all"))
            result["avg_throughput"] = cclAvgThroughput(series);
        if (o.metric == QLatin1String("total_communication") || o.metric == QLatin1String("nvlink_all")
            || o.metric == QLatin1String("all"))
            result["total_communication"] = cclTotalCommunication(series, o.directionFiltered);
    }

    const std::vector<IntervalRef> peaks
        = wantPeaks || !o.png.isEmpty() ? topIntervals(series, o.top) : std::vector<IntervalRef>();
    std::shared_ptr<const KernelSpans> spans;
    QString peakTableProblem;
    const LinkPeakTable peakTable = LinkPeakTable::load(&peakTableProblem);
    if (!peakTableProblem.isEmpty())
        warn(peakTableProblem);
    const LinkPeakEntry* model = nullptr;
    if (exportData.db) {
        QString name;
        for (const GpuInfo& g : exportData.meta.gpus)
            if ((g.cudaDevice == o.gpu || g.id == o.gpu) && name.isEmpty())
                name = g.name;
        if (name.isEmpty() && gpuMetrics && gpuMetrics->chips.count(o.gpu))
            name = gpuMetrics->chips.at(o.gpu);
        model = peakTable.match(name);
    }
    if (wantPeaks) {
        if (peaks.empty() && topIntervals(series, 1).empty()) {
            result["peak_kernels"] = cclPeakError(QStringLiteral("No NVLink intervals found after filtering"));
        } else if (in.exportPath.isEmpty()) {
            result["peak_kernels"] = cclPeakError(in.exportProblem);
            warn(in.exportProblem);
        } else {
            std::vector<TimeWindow> windows;
            for (const IntervalRef& p : peaks) {
                const ThroughputSeries& s = *series[p.series];
                const TimeNs shift = alignment.shiftOf(s);
                windows.push_back(
                    { s.time[p.index] + shift - kWindowMarginNs, s.time[p.index + 1] + shift + kWindowMarginNs });
            }
            QString error;
            spans = kernelSpansFromExport(*exportData.db, o.gpu, windows, &error);
            if (!spans) {
                printError(error);
                return ExitInput;
            }
            if (!spans->deviceHasKernels) {
                result["peak_kernels"] = cclPeakError(QStringLiteral("No kernels found for GPU %1").arg(o.gpu));
            } else {
                CclPeakOptions po;
                po.top = o.top;
                po.ncclOnly = o.ncclOnly;
                if (model)
                    po.gbpsPerPercent = model->gpuGbps() / 100.0;
                result["peak_kernels"] = cclPeakKernels(series, peaks, KernelOverlapIndex(spans), alignment, po);
            }
        }
        if (result["peak_kernels"].contains("error"))
            warn(QString::fromStdString(result["peak_kernels"]["error"].get<std::string>()));
    }

    QString text;
    if (o.json) {
        text = QString::fromStdString(pythonJsonDumps(result)) + QLatin1Char('\n');
    } else {
        if (recording)
            text += QStringLiteral("Recording: %1 (GPU %2): %3 records, %4 polls, %5 links, %6\n")
                        .arg(in.recordingPath)
                        .arg(o.gpu)
                        .arg(withThousandsSeparators(recording->stats.records),
                            withThousandsSeparators(recording->stats.polls))
                        .arg(recording->linkCount())
                        .arg(formatDuration((recording->lastUs - recording->firstUs) * 1000));
        if (!in.exportPath.isEmpty() && exportData.db)
            text += QStringLiteral("Export:    %1\n").arg(in.exportPath);
        if (result.contains("max_throughput"))
            text += textMaxThroughput(result["max_throughput"]);
        if (result.contains("avg_throughput"))
            text += textAvgThroughput(result["avg_throughput"]);
        if (result.contains("total_communication"))
            text += textTotal(result["total_communication"]);
        if (result.contains("peak_kernels"))
            text += textPeakKernels(result["peak_kernels"], alignment);
    }
    if (const QString e = writeOutput(text, o.output); !e.isEmpty()) {
        printError(e);
        return ExitInput;
    }

    if (!o.png.isEmpty()) {
        // The whole recording with its NCCL band: all kernels of the device over the recording's span.
        std::vector<NvlinkPlotSeries> plotted;
        TimeNs from = 0, to = 0;
        bool any = false;
        for (std::size_t i = 0; i < series.size(); ++i) {
            const ThroughputSeries& s = *series[i];
            NvlinkPlotSeries p;
            p.series = &s;
            p.index = std::make_shared<SeriesMaxIndex>(s);
            p.shift = alignment.shiftOf(s);
            p.name = s.label();
            p.style = s.direction == LinkDirection::Tx ? Qt::SolidLine : Qt::DashLine;
            p.color = QColor::fromHsv((s.link == kAllLinks ? int(i) : s.link) * 47 % 360, 200, 190);
            if (s.time.size() >= 2) {
                from = any ? std::min(from, s.time.front() + p.shift) : s.time.front() + p.shift;
                to = any ? std::max(to, s.time.back() + p.shift) : s.time.back() + p.shift;
                any = true;
            }
            plotted.push_back(std::move(p));
        }
        std::vector<std::pair<TimeNs, TimeNs>> busy;
        if (exportData.db && any) {
            QString error;
            if (const auto all = kernelSpansFromExport(*exportData.db, o.gpu, { { from, to } }, &error))
                busy = all->ncclBusy();
            else
                warn(QStringLiteral("no NCCL band in the plot: %1").arg(error));
        }
        std::vector<NvlinkPlotPeak> marks;
        int rank = 0;
        for (const IntervalRef& p : peaks) {
            const ThroughputSeries& s = *series[p.series];
            const TimeNs shift = alignment.shiftOf(s);
            marks.push_back({ ++rank, s.time[p.index] + shift, s.time[p.index + 1] + shift, s.value(p.index) });
        }
        const bool percent = !series.empty() && series.front()->unit == ThroughputUnit::PercentOfPeak;
        const QString title = QStringLiteral("NVLink %1 — GPU %2%3")
                                  .arg(QFileInfo(recording ? in.recordingPath : in.exportPath).fileName())
                                  .arg(o.gpu)
                                  .arg(o.filter.aggregateLinks ? QStringLiteral(", sum of links") : QString());
        const QString e
            = saveNvlinkPlotPng(std::move(plotted), percent ? QStringLiteral("% of peak") : QStringLiteral("GB/s"),
                std::move(marks), std::move(busy), title, o.png);
        if (!e.isEmpty()) {
            printError(e);
            return ExitInput;
        }
    }
    return ExitOk;
}

} // namespace nsw::cli

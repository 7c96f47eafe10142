// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/nsys/reportexport.h"
#include "core/profile/capturespan.h"
#include "core/profile/exportcheck.h"
#include "core/profile/metadatareader.h"
#include "core/profile/timelimits.h"
#include "core/session/workbenchload.h"
#include "core/sqlite/sqlitedb.h"
#include "core/util/procstatus.h"
#include "core/util/timeformat.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTimeZone>
#include <map>
#include <nlohmann/json.hpp>

namespace nsw::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string utf8(const QString& s)
{
    return s.toStdString();
}

/// Tables whose rows `info` counts, in the order printed.
const char* const kCountedTables[] = { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
    "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "CUPTI_ACTIVITY_KIND_RUNTIME",
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS", "OSRT_API", "GPU_METRICS", "StringIds" };

struct DeviceUse
{
    qint64 kernels = 0;
    TimeNs first = 0;
    TimeNs last = 0;
};

/// GPUs used = distinct device ids with GPU activity (TARGET_INFO_GPU lists every GPU of the host), and the span.
Status readDeviceUse(const SqliteDb& db, std::map<std::pair<qint64, int>, DeviceUse>& use, Json& span)
{
    TimeNs spanStart = kNoTime, spanEnd = kNoTime;
    for (const char* table :
        { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET" }) {
        const QString t = QLatin1String(table);
        if (!db.hasColumn(t, QStringLiteral("deviceId")) || !db.hasColumn(t, QStringLiteral("globalPid")))
            continue;
        Statement st(db,
            // The span over the rows the loader keeps (core/profile/timelimits.h); the counts over all rows.
            QStringLiteral("SELECT globalPid, deviceId, count(*), min(CASE WHEN %2 THEN start END), "
                           "max(CASE WHEN %2 THEN end END) FROM %1 GROUP BY 1, 2")
                .arg(quoteIdentifier(t), plausibleIntervalSql()));
        Statement::Step step;
        while ((step = st.step()) == Statement::Step::Row) {
            DeviceUse& u = use[{ globalPidOf(st.int64(0)), int(st.int64(1)) }];
            if (t.endsWith(QLatin1String("KERNEL")))
                u.kernels += st.int64(2);
            if (st.isNull(3))
                continue;
            spanStart = spanStart == kNoTime ? st.int64(3) : std::min<TimeNs>(spanStart, st.int64(3));
            spanEnd = spanEnd == kNoTime ? st.int64(4) : std::max<TimeNs>(spanEnd, st.int64(4));
        }
        if (step == Statement::Step::Error)
            return Status::failure(
                ErrorKind::Input, QStringLiteral("%1: cannot read %2: %3").arg(db.path(), t, st.error()));
    }
    span = spanStart == kNoTime ? Json(nullptr) : Json({ spanStart, spanEnd });
    return success();
}

Result<Json> describe(const SqliteDb& db, Profile& meta)
{
    if (const Status read = readMetadata(db, meta); !read)
        return read.failureAs<Json>();
    const ProfileMetadata& m = meta.meta;
    Json j;
    j["file"] = utf8(m.filePath);
    j["file_bytes"] = m.fileSize;
    j["nsys_version"] = m.nsysVersion.isEmpty() ? Json(nullptr) : Json(utf8(m.nsysVersion));
    j["schema_version"] = m.schemaVersion.isEmpty() ? Json(nullptr) : Json(utf8(m.schemaVersion));
    j["metadata_table"] = m.metadataTable.isEmpty() ? Json(nullptr) : Json(utf8(m.metadataTable));
    j["hostname"] = utf8(m.hostname);
    j["session_start_utc_ns"] = m.sessionStartUtcNs == kNoTime ? Json(nullptr) : Json(m.sessionStartUtcNs);
    j["analysis_duration_ns"] = m.analysisDurationNs == kNoTime ? Json(nullptr) : Json(m.analysisDurationNs);
    const CaptureSpan capture = captureSpanOf(m, readEventSpan(db));
    j["capture_span"] = capture.source == CaptureSpanSource::None
        ? Json(nullptr)
        : Json({ { "start_ns", capture.start }, { "end_ns", capture.end }, { "duration_ns", capture.durationNs() },
            { "source", utf8(capture.sourceText()) } });
    Json gpus = Json::array();
    for (const GpuInfo& g : meta.gpus)
        gpus.push_back({ { "id", g.id }, { "name", utf8(g.name) }, { "cuda_device", g.cudaDevice },
            { "bus", utf8(g.busLocation) }, { "sm_count", g.smCount }, { "memory_bytes", g.totalMemory },
            { "compute_capability", utf8(QStringLiteral("%1.%2").arg(g.computeMajor).arg(g.computeMinor)) } });
    j["gpus_listed"] = gpus;

    std::map<std::pair<qint64, int>, DeviceUse> use;
    Json span;
    if (const Status read = readDeviceUse(db, use, span); !read)
        return read.failureAs<Json>();
    Json used = Json::array();
    for (const auto& [key, u] : use)
        used.push_back({ { "pid", pidOf(key.first) }, { "device", key.second }, { "kernels", u.kernels } });
    j["gpus_used"] = used;

    Json processes = Json::array();
    for (const ProcessInfo& p : meta.processes) {
        bool gpu = false;
        for (const auto& [key, u] : use)
            gpu |= key.first == p.globalPid;
        if (gpu)
            processes.push_back({ { "pid", p.pid }, { "name", utf8(p.name) } });
    }
    j["processes_with_gpu_work"] = processes;
    j["processes_listed"] = qint64(meta.processes.size());

    Json counts;
    for (const char* table : kCountedTables) {
        QString error;
        const qint64 n = db.countRows(QLatin1String(table), &error);
        if (!error.isEmpty())
            return Result<Json>::failure(ErrorKind::Input, error);
        counts[table] = n < 0 ? Json(nullptr) : Json(n);
    }
    j["rows"] = counts;
    j["gpu_activity_span_ns"] = span;
    Json warnings = Json::array();
    for (const QString& w : m.warnings)
        warnings.push_back(utf8(w));
    j["warnings"] = warnings;
    return j;
}

QString textOf(const Json& j)
{
    auto str = [](const Json& v) {
        if (v.is_null())
            return QStringLiteral("-");
        if (v.is_string())
            return QString::fromStdString(v.get<std::string>());
        return QString::fromStdString(v.dump());
    };
    QString t;
    auto line = [&t](const char* label, const QString& value) {
        t += QString::fromLatin1(label).leftJustified(22) + value + QLatin1Char('\n');
    };
    line("File:", QStringLiteral("%1 (%2)").arg(str(j["file"]), formatBytes(j["file_bytes"].get<qint64>())));
    line("nsys version:", str(j["nsys_version"]));
    line("Export schema:",
        QStringLiteral("%1 (metadata in %2)").arg(str(j["schema_version"]), str(j["metadata_table"])));
    if (!j["hostname"].get<std::string>().empty())
        line("Host:", str(j["hostname"]));
    if (!j["session_start_utc_ns"].is_null()) {
        const qint64 ns = j["session_start_utc_ns"].get<qint64>();
        line("Session start (UTC):", QDateTime::fromMSecsSinceEpoch(ns / 1000000, Qt::UTC).toString(Qt::ISODateWithMs));
    }
    if (!j["analysis_duration_ns"].is_null())
        line("Analysis duration:", formatDuration(j["analysis_duration_ns"].get<qint64>()));
    if (!j["capture_span"].is_null())
        line("Capture span:",
            QStringLiteral("%1, from %2")
                .arg(formatDuration(j["capture_span"]["duration_ns"].get<qint64>()), str(j["capture_span"]["source"])));
    if (!j["gpu_activity_span_ns"].is_null()) {
        const qint64 a = j["gpu_activity_span_ns"][0].get<qint64>(), b = j["gpu_activity_span_ns"][1].get<qint64>();
        line("GPU activity span:",
            QStringLiteral("%1 (%2 .. %3)").arg(formatDuration(b - a), formatSeconds(a), formatSeconds(b)));
    }
    QStringList listed;
    for (const Json& g : j["gpus_listed"])
        listed.append(QStringLiteral("%1: %2").arg(str(g["id"]), str(g["name"])));
    line("GPUs listed:",
        listed.isEmpty() ? QStringLiteral("none (no TARGET_INFO_GPU)") : listed.join(QStringLiteral("; ")));
    QStringList used;
    for (const Json& g : j["gpus_used"])
        used.append(
            QStringLiteral("device %1 by pid %2 (%3 kernels)").arg(str(g["device"]), str(g["pid"]), str(g["kernels"])));
    line("GPUs used:", used.isEmpty() ? QStringLiteral("none") : used.join(QStringLiteral("; ")));
    QStringList procs;
    for (const Json& p : j["processes_with_gpu_work"])
        procs.append(QStringLiteral("%1 (%2)").arg(str(p["name"]), str(p["pid"])));
    line("Processes on GPUs:", procs.isEmpty() ? QStringLiteral("none") : procs.join(QStringLiteral(", ")));
    line("Processes listed:", str(j["processes_listed"]));
    t += QStringLiteral("Rows:\n");
    for (const auto& [table, n] : j["rows"].items())
        t += QStringLiteral("  %1%2\n")
                 .arg(QString::fromStdString(table).leftJustified(38),
                     n.is_null() ? QStringLiteral("(no table)") : str(n));
    for (const Json& w : j["warnings"])
        t += QStringLiteral("Warning: %1\n").arg(str(w));
    return t;
}

qint64 peakRssBytes()
{
    const qint64 kib = procStatusKiB("VmHWM");
    return kib < 0 ? -1 : kib * 1024;
}

int runLoad(const QString& path, bool json, const QString& outFile)
{
    // Staged as in the window: the first stage (kernels, memory operations, their index) is timed on its own.
    QElapsedTimer clock;
    clock.start();
    qint64 firstStageMs = -1;
    const Result<LoadedProfile> result = loadForWorkbench(
        path, {}, [&](const std::shared_ptr<LoadedProfile>&) { firstStageMs = clock.elapsed(); }, cacheSettings(),
        cacheWriteFailed());
    printLoadWarnings(path, result.warnings());
    if (!result) {
        printError(result.errorMessage());
        return exitCodeOf(result.error());
    }
    printCacheNote(result->load.cacheNote);
    const LoadedProfile& loaded = *result;
    const Profile& p = *loaded.profile;
    Json j;
    j["file"] = utf8(path);
    j["file_bytes"] = p.meta.fileSize;
    Json stages = Json::array();
    for (const StageTiming& s : loaded.load.timings)
        stages.push_back({ { "stage", utf8(s.stage) }, { "ms", s.milliseconds },
            { "rows", s.rows < 0 ? Json(nullptr) : Json(s.rows) } });
    j["stages"] = stages;
    j["total_ms"] = loaded.load.totalMilliseconds;
    j["first_stage_ms"] = firstStageMs < 0 ? Json(nullptr) : Json(firstStageMs);
    j["sqlite_access"] = utf8(loaded.load.sqliteAccess);
    j["profile_bytes"] = qint64(p.memoryBytes());
    j["kernel_index_bytes"] = qint64(loaded.kernelIndex ? loaded.kernelIndex->memoryBytes() : 0);
    j["peak_rss_bytes"] = peakRssBytes();
    j["rows"] = { { "kernels", p.kernels.size() }, { "memops", p.memops.size() },
        { "graph_launches", p.graphLaunches.size() }, { "cuda_api", p.cudaApi.size() }, { "nvtx", p.nvtx.size() },
        { "osrt", p.osrt.size() }, { "strings", p.strings.size() } };
    QString text;
    if (json) {
        text = QString::fromStdString(j.dump(2)) + QLatin1Char('\n');
    } else {
        text = QStringLiteral("Loaded %1 (%2) in %3 ms\n")
                   .arg(path, formatBytes(p.meta.fileSize))
                   .arg(loaded.load.totalMilliseconds);
        if (firstStageMs >= 0)
            text += QStringLiteral("  Kernels and memory operations ready after %1 ms (the window's first view)\n")
                        .arg(firstStageMs);
        for (const StageTiming& s : loaded.load.timings)
            text += QStringLiteral("  %1%2 ms%3\n")
                        .arg(s.stage.leftJustified(34))
                        .arg(s.milliseconds, 7)
                        .arg(s.rows >= 0 ? QStringLiteral("  (%1 rows)").arg(s.rows) : QString());
        text += QStringLiteral("Profile in memory:   %1 (%2 of the file)\n")
                    .arg(formatBytes(qint64(p.memoryBytes())))
                    .arg(QString::number(
                        double(p.memoryBytes()) / double(std::max<qint64>(p.meta.fileSize, 1)), 'f', 3));
        text += QStringLiteral("Kernel index:        %1\n").arg(formatBytes(qint64(loaded.kernelIndex->memoryBytes())));
        text += QStringLiteral("Peak RSS of process: %1\n").arg(formatBytes(peakRssBytes()));
        text += QStringLiteral("SQLite access:       %1\n").arg(loaded.load.sqliteAccess);
    }
    return writeCommandOutput(text, outFile);
}

} // namespace

int runInfo(const QStringList& args)
{
    QCommandLineParser parser;
    addTraceArgument(parser);
    const QCommandLineOption format = option("format", QStringLiteral("text (default) or json."), "format", "text");
    const QCommandLineOption load = option("load",
        QStringLiteral("Load the whole profile exactly as the window does and print each "
                       "stage's time and the loaded profile's memory."));
    const QCommandLineOption output = outputOption();
    parser.addOptions({ format, load, output });
    int exitCode = ExitOk;
    if (!parseArguments(parser, args, commandHelp("info"), &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(QStringLiteral("info takes exactly one TRACE"));
        return ExitUsage;
    }
    const QString fmt = parser.value(format);
    if (!checkFormat(fmt, { QStringLiteral("text"), QStringLiteral("json") }))
        return ExitUsage;
    if (parser.isSet(load))
        return runLoad(positional.first(), fmt == QLatin1String("json"), parser.value(output));
    const Result<QString> file = sqliteFileFor(positional.first());
    if (!file) {
        printError(file.errorMessage());
        return exitCodeOf(file.error());
    }
    const QString& path = *file;

    if (const QString e = checkFileBeforeOpen(path); !e.isEmpty()) {
        printError(e);
        return ExitInput;
    }
    QString error;
    const auto db = SqliteDb::open(path, &error);
    if (!db) {
        printError(error);
        return ExitInput;
    }
    if (const QString e = checkIsNsysExport(*db); !e.isEmpty()) {
        printError(e);
        return ExitInput;
    }
    Profile meta;
    const Result<Json> described = describe(*db, meta);
    if (!described) {
        printError(described.errorMessage());
        return ExitInput;
    }
    const Json& j = *described;
    const QString text
        = fmt == QLatin1String("json") ? QString::fromStdString(j.dump(2)) + QLatin1Char('\n') : textOf(j);
    return writeCommandOutput(text, parser.value(output));
}

} // namespace nsw::cli

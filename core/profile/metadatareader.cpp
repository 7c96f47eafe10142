// SPDX-License-Identifier: GPL-3.0-or-later
#include "metadatareader.h"

#include "core/profile/scancontext.h"
#include "core/sqlite/sqlitedb.h"

#include <QFileInfo>

namespace nsw {

namespace {

/// Calls rowFn for every row of @p st; false with @p error set (naming the file and table) on an SQLite error, so
/// that a corrupt table is never read as a shorter one.
template <typename RowFn>
bool forEachRow(const SqliteDb& db, const QString& table, Statement& st, QString& error, RowFn&& rowFn)
{
    Statement::Step step;
    while ((step = st.step()) == Statement::Step::Row)
        rowFn();
    if (step == Statement::Step::Done)
        return true;
    error = QStringLiteral("%1: cannot read %2: %3").arg(db.path(), table, st.error());
    return false;
}

bool readExportMetadata(const SqliteDb& db, ProfileMetadata& meta, QString& error)
{
    for (const char* table : { "META_DATA_EXPORT", "EXPORT_META_DATA" }) {
        const QString name = QLatin1String(table);
        if (!db.hasTable(name))
            continue;
        meta.metadataTable = name;
        ColumnSelect s(db, name);
        const int key = s.add(QStringLiteral("name"));
        const int value = s.add(QStringLiteral("value"));
        Statement st(db, s.sql());
        return forEachRow(db, name, st, error, [&]() {
            const QString k = st.text(key);
            const QString v = st.text(value);
            meta.exportMetadata.emplace_back(k, v);
            if (k == QLatin1String("EXPORT_PRODUCT_VERSION"))
                meta.nsysVersion = v;
            else if (k == QLatin1String("EXPORT_SCHEMA_VERSION"))
                meta.schemaVersion = v;
            else if (k == QLatin1String("EXPORT_PARAM_TIME_NORMALIZE"))
                meta.timeNormalized = v.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
        });
    }
    return true;
}

/// The first value of a one-column query, when it is an integer; false on an SQLite error.
bool readInteger(const SqliteDb& db, const QString& table, const QString& sql, TimeNs& value, QString& error)
{
    Statement st(db, sql);
    return forEachRow(db, table, st, error, [&]() {
        if (st.type(0) == SqlType::Integer && value == kNoTime)
            value = st.int64(0);
    });
}

bool readSessionTimes(const SqliteDb& db, ProfileMetadata& meta, QString& error)
{
    const QString start = QStringLiteral("TARGET_INFO_SESSION_START_TIME");
    if (db.hasColumn(start, QStringLiteral("utcEpochNs"))
        && !readInteger(db, start, QStringLiteral("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1"),
            meta.sessionStartUtcNs, error))
        return false;
    const QString analysis = QStringLiteral("ANALYSIS_DETAILS");
    if (db.hasColumn(analysis, QStringLiteral("duration"))
        && !readInteger(
            db, analysis, QStringLiteral("SELECT max(duration) FROM ANALYSIS_DETAILS"), meta.analysisDurationNs, error))
        return false;
    if (db.hasColumn(QStringLiteral("TARGET_INFO_SYSTEM_ENV"), QStringLiteral("value"))
        && db.hasColumn(QStringLiteral("TARGET_INFO_SYSTEM_ENV"), QStringLiteral("name"))) {
        meta.hostname
            = db.scalarText(QStringLiteral("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname' LIMIT 1"));
    }
    return true;
}

bool readTargetGpus(const SqliteDb& db, Profile& profile, QString& error)
{
    const QString table = QStringLiteral("TARGET_INFO_GPU");
    if (!db.hasTable(table))
        return true;
    ColumnSelect s(db, table);
    // The oldest layout names the GPU id `deviceId`.
    const int id = s.has(QStringLiteral("id")) ? s.add(QStringLiteral("id")) : s.add(QStringLiteral("deviceId"));
    const int name = s.add(QStringLiteral("name"));
    const int bus = s.add(QStringLiteral("busLocation"));
    const int uuid = s.add(QStringLiteral("uuid"));
    const int chip = s.add(QStringLiteral("chipName"));
    const int cuDevice = s.add(QStringLiteral("cuDevice"));
    const int sms = s.add(QStringLiteral("smCount"));
    const int memory = s.add(QStringLiteral("totalMemory"));
    const int bandwidth = s.add(QStringLiteral("memoryBandwidth"));
    const int major = s.add(QStringLiteral("computeMajor"));
    const int minor = s.add(QStringLiteral("computeMinor"));
    Statement st(db, s.sql());
    return forEachRow(db, table, st, error, [&]() {
        GpuInfo g;
        g.id = int(st.int64(id));
        g.name = st.text(name);
        g.busLocation = st.text(bus);
        g.uuid = st.text(uuid);
        g.chipName = st.text(chip);
        g.cudaDevice = st.isNull(cuDevice) ? -1 : int(st.int64(cuDevice));
        g.smCount = int(st.int64(sms));
        g.totalMemory = st.int64(memory);
        g.memoryBandwidth = st.int64(bandwidth);
        g.computeMajor = int(st.int64(major));
        g.computeMinor = int(st.int64(minor));
        profile.gpus.push_back(g);
    });
}

GpuInfo& gpuWithId(Profile& profile, int id)
{
    for (GpuInfo& g : profile.gpus)
        if (g.id == id)
            return g;
    profile.gpus.push_back(GpuInfo {});
    profile.gpus.back().id = id;
    return profile.gpus.back();
}

/// Oldest layout: details live in TARGET_INFO_CUDA_GPU, matched on the CUDA ordinal.
bool readCudaGpus(const SqliteDb& db, Profile& profile, QString& error)
{
    const QString table = QStringLiteral("TARGET_INFO_CUDA_GPU");
    if (!db.hasTable(table))
        return true;
    ColumnSelect s(db, table);
    const int name = s.add(QStringLiteral("name"));
    const int device = s.add(QStringLiteral("deviceId"));
    const int sms = s.add(QStringLiteral("numMultiprocessors"));
    const int major = s.add(QStringLiteral("computeCapabilityMajor"));
    const int minor = s.add(QStringLiteral("computeCapabilityMinor"));
    const int bus = s.add(QStringLiteral("pciBusId"));
    Statement st(db, s.sql());
    return forEachRow(db, table, st, error, [&]() {
        const int dev = int(st.int64(device));
        GpuInfo& target = gpuWithId(profile, dev);
        if (target.name.isEmpty())
            target.name = st.text(name);
        if (target.cudaDevice < 0)
            target.cudaDevice = dev;
        if (target.smCount == 0)
            target.smCount = int(st.int64(sms));
        if (target.computeMajor == 0) {
            target.computeMajor = int(st.int64(major));
            target.computeMinor = int(st.int64(minor));
        }
        if (target.busLocation.isEmpty())
            target.busLocation = st.text(bus);
    });
}

bool readCudaDevices(const SqliteDb& db, Profile& profile, QString& error)
{
    const QString table = QStringLiteral("TARGET_INFO_CUDA_DEVICE");
    if (!db.hasColumn(table, QStringLiteral("gpuId")) || !db.hasColumn(table, QStringLiteral("cudaId")))
        return true;
    ColumnSelect s(db, table);
    const int gpuId = s.add(QStringLiteral("gpuId"));
    const int cudaId = s.add(QStringLiteral("cudaId"));
    const int pid = s.add(QStringLiteral("pid"));
    Statement st(db, s.sql());
    return forEachRow(db, table, st, error, [&]() {
        profile.cudaDevices.push_back({ int(st.int64(gpuId)), int(st.int64(cudaId)), int(st.int64(pid)) });
    });
}

bool readProcesses(const SqliteDb& db, Profile& profile, QString& error)
{
    const QString table = QStringLiteral("PROCESSES");
    if (!db.hasColumn(table, QStringLiteral("globalPid")))
        return true;
    ColumnSelect s(db, table);
    const int globalPid = s.add(QStringLiteral("globalPid"));
    const int pid = s.add(QStringLiteral("pid"));
    const int name = s.add(QStringLiteral("name"));
    Statement st(db, s.sql());
    return forEachRow(db, table, st, error, [&]() {
        ProcessInfo p;
        p.globalPid = globalPidOf(st.int64(globalPid));
        p.pid = st.isNull(pid) ? pidOf(p.globalPid) : int(st.int64(pid));
        p.hostKey = hostKeyOf(p.globalPid);
        p.name = st.text(name);
        profile.processes.push_back(p);
    });
}

bool readMemcpyKinds(const SqliteDb& db, Profile& profile, QString& error)
{
    // Stable ids (schema doc §4.3); exports before 2022.4 have no ENUM tables.
    static const char* const kLabels[] = { "Unknown", "Host-to-Device", "Device-to-Host", "Host-to-Array",
        "Array-to-Host", "Array-to-Array", "Array-to-Device", "Device-to-Array", "Device-to-Device", "Host-to-Host",
        "Peer-to-Peer", "Unified Host-to-Device", "Unified Device-to-Host", "Unified Device-to-Device" };
    for (int i = 0; i < int(std::size(kLabels)); ++i)
        profile.memcpyKindLabels[i] = QLatin1String(kLabels[i]);
    const QString table = QStringLiteral("ENUM_CUDA_MEMCPY_OPER");
    if (!db.hasColumn(table, QStringLiteral("id")) || !db.hasColumn(table, QStringLiteral("label")))
        return true;
    Statement st(db, QStringLiteral("SELECT id, label FROM ENUM_CUDA_MEMCPY_OPER"));
    return forEachRow(db, table, st, error, [&]() {
        if (!st.isNull(1))
            profile.memcpyKindLabels[int(st.int64(0))] = st.text(1);
    });
}

/// ENUM_SAMPLING_THREAD_STATE (2022.4+); nsys's labels, the same in every export that has the table, otherwise.
bool readSamplingStates(const SqliteDb& db, Profile& profile, QString& error)
{
    static const char* const kLabels[] = { "Unknown", "Running", "Interruptible", "Uninterruptible", "Stopped",
        "Terminated", "Unscheduled", "Waiting", "OS runtime", "Initialized", "Transition" };
    for (int i = 0; i < int(std::size(kLabels)); ++i)
        profile.cpuSamples.stateLabels[i] = QLatin1String(kLabels[i]);
    const QString table = QStringLiteral("ENUM_SAMPLING_THREAD_STATE");
    if (!db.hasColumn(table, QStringLiteral("id")) || !db.hasColumn(table, QStringLiteral("label")))
        return true;
    Statement st(db, QStringLiteral("SELECT id, label FROM ENUM_SAMPLING_THREAD_STATE"));
    return forEachRow(db, table, st, error, [&]() {
        if (!st.isNull(1) && st.int64(0) >= 0 && st.int64(0) <= 255)
            profile.cpuSamples.stateLabels[int(st.int64(0))] = st.text(1);
    });
}

} // namespace

Status readMetadata(const SqliteDb& db, Profile& profile)
{
    ProfileMetadata& meta = profile.meta;
    meta.filePath = db.path();
    meta.fileSize = QFileInfo(db.path()).size();
    meta.tables = db.tables();
    QString error;
    const bool ok = readExportMetadata(db, meta, error) && readSessionTimes(db, meta, error)
        && readTargetGpus(db, profile, error) && readCudaGpus(db, profile, error) && readCudaDevices(db, profile, error)
        && readProcesses(db, profile, error) && readMemcpyKinds(db, profile, error)
        && readSamplingStates(db, profile, error);
    if (!ok)
        return Status::failure(ErrorKind::Input, error);
    if (meta.timeNormalized)
        meta.warnings.append(
            QStringLiteral("exported with --ts-normalize: timestamps are absolute, not session-relative"));
    return success();
}

Result<std::vector<RawThreadName>> readThreadNames(const SqliteDb& db)
{
    std::vector<RawThreadName> names;
    const QString table = QStringLiteral("ThreadNames");
    if (!db.hasColumn(table, QStringLiteral("globalTid")) || !db.hasColumn(table, QStringLiteral("nameId")))
        return names;
    ColumnSelect s(db, table);
    const int tid = s.add(QStringLiteral("globalTid"));
    const int name = s.add(QStringLiteral("nameId"));
    const int priority = s.add(QStringLiteral("priority"));
    Statement st(db, s.sql());
    qint64 bad = 0;
    QString error;
    const bool ok = forEachRow(db, table, st, error, [&]() {
        if (st.isNull(name))
            return;
        const qint64 id = st.int64(name);
        if (st.type(name) != SqlType::Integer || id < 0 || id > std::numeric_limits<std::int32_t>::max()) {
            ++bad; // used as an index later: out of range is "no name", never an out-of-bounds read
            return;
        }
        names.push_back({ st.int64(tid), std::int32_t(id), st.int64(priority) });
    });
    if (!ok)
        return Result<std::vector<RawThreadName>>::failure(ErrorKind::Input, error);
    Result<std::vector<RawThreadName>> result(std::move(names));
    if (bad > 0)
        result.addWarning(QStringLiteral("ThreadNames: %1 name ids out of range or not integers, ignored").arg(bad));
    return result;
}

} // namespace nsw

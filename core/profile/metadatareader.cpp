// SPDX-License-Identifier: GPL-3.0-or-later
#include "metadatareader.h"

#include "core/profile/scancontext.h"
#include "core/sqlite/sqlitedb.h"

#include <QFileInfo>

namespace nsw {

namespace {

void readExportMetadata(const SqliteDb& db, ProfileMetadata& meta)
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
        while (st.step() == Statement::Step::Row) {
            const QString k = st.text(key);
            const QString v = st.text(value);
            meta.exportMetadata.emplace_back(k, v);
            if (k == QLatin1String("EXPORT_PRODUCT_VERSION"))
                meta.nsysVersion = v;
            else if (k == QLatin1String("EXPORT_SCHEMA_VERSION"))
                meta.schemaVersion = v;
            else if (k == QLatin1String("EXPORT_PARAM_TIME_NORMALIZE"))
                meta.timeNormalized = v.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
        }
        return;
    }
}

void readSessionTimes(const SqliteDb& db, ProfileMetadata& meta)
{
    if (db.hasColumn(QStringLiteral("TARGET_INFO_SESSION_START_TIME"), QStringLiteral("utcEpochNs"))) {
        Statement st(db, QStringLiteral("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1"));
        if (st.step() == Statement::Step::Row && !st.isNull(0))
            meta.sessionStartUtcNs = st.int64(0);
    }
    if (db.hasColumn(QStringLiteral("ANALYSIS_DETAILS"), QStringLiteral("duration"))) {
        Statement st(db, QStringLiteral("SELECT max(duration) FROM ANALYSIS_DETAILS"));
        if (st.step() == Statement::Step::Row && !st.isNull(0))
            meta.analysisDurationNs = st.int64(0);
    }
    if (db.hasColumn(QStringLiteral("TARGET_INFO_SYSTEM_ENV"), QStringLiteral("value"))
        && db.hasColumn(QStringLiteral("TARGET_INFO_SYSTEM_ENV"), QStringLiteral("name"))) {
        meta.hostname
            = db.scalarText(QStringLiteral("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname' LIMIT 1"));
    }
}

void readGpus(const SqliteDb& db, Profile& profile)
{
    const QString table = QStringLiteral("TARGET_INFO_GPU");
    if (db.hasTable(table)) {
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
        while (st.step() == Statement::Step::Row) {
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
        }
    }
    // Oldest layout: details live in TARGET_INFO_CUDA_GPU, matched on the CUDA ordinal.
    const QString cudaGpu = QStringLiteral("TARGET_INFO_CUDA_GPU");
    if (db.hasTable(cudaGpu)) {
        ColumnSelect s(db, cudaGpu);
        const int name = s.add(QStringLiteral("name"));
        const int device = s.add(QStringLiteral("deviceId"));
        const int sms = s.add(QStringLiteral("numMultiprocessors"));
        const int major = s.add(QStringLiteral("computeCapabilityMajor"));
        const int minor = s.add(QStringLiteral("computeCapabilityMinor"));
        const int bus = s.add(QStringLiteral("pciBusId"));
        Statement st(db, s.sql());
        while (st.step() == Statement::Step::Row) {
            const int dev = int(st.int64(device));
            GpuInfo* target = nullptr;
            for (GpuInfo& g : profile.gpus)
                if (g.id == dev)
                    target = &g;
            if (!target) {
                profile.gpus.push_back(GpuInfo {});
                target = &profile.gpus.back();
                target->id = dev;
            }
            if (target->name.isEmpty())
                target->name = st.text(name);
            if (target->cudaDevice < 0)
                target->cudaDevice = dev;
            if (target->smCount == 0)
                target->smCount = int(st.int64(sms));
            if (target->computeMajor == 0) {
                target->computeMajor = int(st.int64(major));
                target->computeMinor = int(st.int64(minor));
            }
            if (target->busLocation.isEmpty())
                target->busLocation = st.text(bus);
        }
    }
    const QString mapping = QStringLiteral("TARGET_INFO_CUDA_DEVICE");
    if (db.hasColumn(mapping, QStringLiteral("gpuId")) && db.hasColumn(mapping, QStringLiteral("cudaId"))) {
        ColumnSelect s(db, mapping);
        const int gpuId = s.add(QStringLiteral("gpuId"));
        const int cudaId = s.add(QStringLiteral("cudaId"));
        const int pid = s.add(QStringLiteral("pid"));
        Statement st(db, s.sql());
        while (st.step() == Statement::Step::Row)
            profile.cudaDevices.push_back({ int(st.int64(gpuId)), int(st.int64(cudaId)), int(st.int64(pid)) });
    }
}

void readProcesses(const SqliteDb& db, Profile& profile)
{
    const QString table = QStringLiteral("PROCESSES");
    if (!db.hasColumn(table, QStringLiteral("globalPid")))
        return;
    ColumnSelect s(db, table);
    const int globalPid = s.add(QStringLiteral("globalPid"));
    const int pid = s.add(QStringLiteral("pid"));
    const int name = s.add(QStringLiteral("name"));
    Statement st(db, s.sql());
    while (st.step() == Statement::Step::Row) {
        ProcessInfo p;
        p.globalPid = globalPidOf(st.int64(globalPid));
        p.pid = st.isNull(pid) ? pidOf(p.globalPid) : int(st.int64(pid));
        p.hostKey = hostKeyOf(p.globalPid);
        p.name = st.text(name);
        profile.processes.push_back(p);
    }
}

void readMemcpyKinds(const SqliteDb& db, Profile& profile)
{
    // Stable ids (schema doc §4.3); exports before 2022.4 have no ENUM tables.
    static const char* const kLabels[] = { "Unknown", "Host-to-Device", "Device-to-Host", "Host-to-Array",
        "Array-to-Host", "Array-to-Array", "Array-to-Device", "Device-to-Array", "Device-to-Device", "Host-to-Host",
        "Peer-to-Peer", "Unified Host-to-Device", "Unified Device-to-Host", "Unified Device-to-Device" };
    for (int i = 0; i < int(std::size(kLabels)); ++i)
        profile.memcpyKindLabels[i] = QLatin1String(kLabels[i]);
    const QString table = QStringLiteral("ENUM_CUDA_MEMCPY_OPER");
    if (!db.hasColumn(table, QStringLiteral("id")) || !db.hasColumn(table, QStringLiteral("label")))
        return;
    Statement st(db, QStringLiteral("SELECT id, label FROM ENUM_CUDA_MEMCPY_OPER"));
    while (st.step() == Statement::Step::Row)
        if (!st.isNull(1))
            profile.memcpyKindLabels[int(st.int64(0))] = st.text(1);
}

} // namespace

void readMetadata(const SqliteDb& db, Profile& profile)
{
    ProfileMetadata& meta = profile.meta;
    meta.filePath = db.path();
    meta.fileSize = QFileInfo(db.path()).size();
    meta.tables = db.tables();
    readExportMetadata(db, meta);
    readSessionTimes(db, meta);
    readGpus(db, profile);
    readProcesses(db, profile);
    readMemcpyKinds(db, profile);
    if (meta.timeNormalized)
        meta.warnings.append(
            QStringLiteral("exported with --ts-normalize: timestamps are absolute, not session-relative"));
}

std::vector<RawThreadName> readThreadNames(const SqliteDb& db)
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
    while (st.step() == Statement::Step::Row)
        if (!st.isNull(name))
            names.push_back({ st.int64(tid), std::int32_t(st.int64(name)), st.int64(priority) });
    return names;
}

} // namespace nsw

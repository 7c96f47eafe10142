// SPDX-License-Identifier: GPL-3.0-or-later
// The profile cache (core/profilecache): a profile read back from its cache file is the profile SQLite gave, value
// for value, mapped in place; an entry of a changed export, of other load options, damaged, crafted or left by a
// crashed writer is never used; a cache folder that cannot be written leaves the load working; one LRU and limit for
// profiles and exports.
#include "core/profile/profileloader.h"
#include "core/profilecache/cachefile.h"
#include "core/profilecache/filesystem.h"
#include "core/profilecache/profilecache.h"
#include "core/session/profilesession.h"
#include "core/session/workbenchload.h"
#include "core/timeline/timelinebuild.h"
#include "core/util/cachestore.h"
#include "oracleexports.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <sqlite3.h>
#include <unistd.h>
#include <utility>

using namespace nsw;

namespace {

/// Every value of every column of every table, by section name, widened to int64 (an NVTX end thread as two).
std::map<QByteArray, std::vector<qint64>> columnValues(const Profile& p)
{
    std::map<QByteArray, std::vector<qint64>> out;
    Profile::forEachTable(p, [&](const char* table, const auto& t) {
        forEachTableMember(t, [&](const char* column, const auto& c, IndexInto, bool) {
            std::vector<qint64>& values = out[QByteArray(table) + '.' + column];
            using C = std::remove_cvref_t<decltype(c)>;
            if constexpr (std::is_arithmetic_v<C>) {
                values.push_back(qint64(c));
            } else {
                for (const auto& v : c) {
                    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(v)>, NvtxEndThread>) {
                        values.push_back(v.row);
                        values.push_back(v.thread);
                    } else {
                        values.push_back(qint64(v));
                    }
                }
            }
        });
    });
    return out;
}

/// Two profiles hold the same rows, strings, threads, processes, GPUs, domains and metadata.
void compareExactly(const Profile& cached, const Profile& loaded)
{
    QCOMPARE(cached.strings.texts(), loaded.strings.texts());
    const auto a = columnValues(cached), b = columnValues(loaded);
    QCOMPARE(a.size(), b.size());
    for (const auto& [name, values] : b)
        QVERIFY2(a.at(name) == values, name.constData());
    QCOMPARE(cached.launchShapes, loaded.launchShapes);
    QCOMPARE(cached.processes.size(), loaded.processes.size());
    for (std::size_t i = 0; i < loaded.processes.size(); ++i) {
        QCOMPARE(cached.processes[i].globalPid, loaded.processes[i].globalPid);
        QCOMPARE(cached.processes[i].name, loaded.processes[i].name);
    }
    QCOMPARE(cached.threads.size(), loaded.threads.size());
    for (std::size_t i = 0; i < loaded.threads.size(); ++i) {
        QCOMPARE(cached.threads[i].globalTid, loaded.threads[i].globalTid);
        QCOMPARE(cached.threads[i].process, loaded.threads[i].process);
        QCOMPARE(cached.threads[i].name, loaded.threads[i].name);
        QCOMPARE(cached.threads[i].namePriority, loaded.threads[i].namePriority);
    }
    QCOMPARE(cached.gpus.size(), loaded.gpus.size());
    for (std::size_t i = 0; i < loaded.gpus.size(); ++i) {
        QCOMPARE(cached.gpus[i].name, loaded.gpus[i].name);
        QCOMPARE(cached.gpus[i].uuid, loaded.gpus[i].uuid);
        QCOMPARE(cached.gpus[i].totalMemory, loaded.gpus[i].totalMemory);
    }
    QCOMPARE(cached.cudaDevices.size(), loaded.cudaDevices.size());
    QCOMPARE(cached.nvtxDomains.size(), loaded.nvtxDomains.size());
    for (std::size_t i = 0; i < loaded.nvtxDomains.size(); ++i)
        QCOMPARE(cached.nvtxDomains[i].name, loaded.nvtxDomains[i].name);
    QCOMPARE(cached.memcpyKindLabels, loaded.memcpyKindLabels);
    QCOMPARE(cached.cpuSamples.stateLabels, loaded.cpuSamples.stateLabels);
    QCOMPARE(cached.activityStart, loaded.activityStart);
    QCOMPARE(cached.activityEnd, loaded.activityEnd);
    QCOMPARE(cached.meta.filePath, loaded.meta.filePath);
    QCOMPARE(cached.meta.fileSize, loaded.meta.fileSize);
    QCOMPARE(cached.meta.nsysVersion, loaded.meta.nsysVersion);
    QCOMPARE(cached.meta.exportMetadata, loaded.meta.exportMetadata);
    QCOMPARE(cached.meta.sessionStartUtcNs, loaded.meta.sessionStartUtcNs);
    QCOMPARE(cached.meta.warnings, loaded.meta.warnings);
    QCOMPARE(cached.meta.tables, loaded.meta.tables);
}

bool copyFile(const QString& from, const QString& to)
{
    QFile::remove(to);
    return QFile::copy(from, to) && QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
}

QString execSql(const QString& path, const char* sql)
{
    sqlite3* db = nullptr;
    QString error;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK
        || sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
        error = QString::fromUtf8(sqlite3_errmsg(db));
    sqlite3_close(db);
    return error;
}

/// The first column of the first row @p sql selects from @p path, or -1.
qint64 queryCount(const QString& path, const char* sql)
{
    sqlite3* db = nullptr;
    sqlite3_stmt* statement = nullptr;
    qint64 value = -1;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK
        && sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK && sqlite3_step(statement) == SQLITE_ROW)
        value = sqlite3_column_int64(statement, 0);
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return value;
}

/// The cache file of @p path with @p edit applied to its sections and every checksum recomputed: what a forger
/// could write.
bool forgeEntry(const QString& entry, const std::function<void(const QByteArray& name, QByteArray& bytes)>& edit)
{
    Result<std::unique_ptr<cachefile::Reader>> r = cachefile::Reader::open(entry);
    if (!r)
        return false;
    std::vector<std::pair<cachefile::Section, QByteArray>> sections;
    for (const auto& [name, s] : (*r)->sections()) {
        Result<QByteArray> bytes = (*r)->read(name);
        if (!bytes)
            return false;
        edit(name, *bytes);
        sections.emplace_back(s, *bytes);
    }
    r = Result<std::unique_ptr<cachefile::Reader>>::failure(ErrorKind::Input, QString());
    Result<std::unique_ptr<cachefile::Writer>> w = cachefile::Writer::create(entry);
    if (!w)
        return false;
    for (const auto& [s, bytes] : sections)
        if (!(*w)->add(s.name, bytes.constData(), std::size_t(bytes.size()), s.elementSize))
            return false;
    return (*w)->commit().ok();
}

/// Two timeline indexes hold the same rows and lanes, and every lane the same events (the index read from a cache
/// against the one built from the profile SQLite gave).
void compareTimelines(const TimelineIndex& cached, const TimelineIndex& built)
{
    QCOMPARE(cached.rows().size(), built.rows().size());
    for (std::size_t i = 0; i < built.rows().size(); ++i) {
        const TimelineRow &a = cached.rows()[i], &b = built.rows()[i];
        QCOMPARE(a.label, b.label);
        QVERIFY(a.kind == b.kind && a.parent == b.parent && a.level == b.level && a.firstLane == b.firstLane
            && a.laneCount == b.laneCount && a.events == b.events && a.thread == b.thread);
    }
    QCOMPARE(cached.lanes().size(), built.lanes().size());
    for (std::uint32_t l = 0; l < built.lanes().size(); ++l) {
        QVERIFY(cached.lanes()[l].source == built.lanes()[l].source);
        QCOMPARE(cached.lanes()[l].count, built.lanes()[l].count);
        for (std::uint32_t k = 0; k < built.lanes()[l].count; ++k) {
            QVERIFY(cached.eventAt(l, k) == built.eventAt(l, k));
            QCOMPARE(cached.startAt(l, k), built.startAt(l, k));
            QCOMPARE(cached.endAt(l, k), built.endAt(l, k));
        }
    }
    QCOMPARE(cached.start(), built.start());
    QCOMPARE(cached.end(), built.end());
    QCOMPARE(cached.origin(), built.origin());
    QCOMPARE(cached.eventCount(), built.eventCount());
}

/// What a timeline of @p profile must be whatever code built it: every row of every table it shows exactly once
/// (the kernels as many as @p sqlKernels, what SQLite counts), each lane in time order without overlaps.
void checkTimelineOf(const TimelineIndex& index, const Profile& profile, qint64 sqlKernels)
{
    std::map<EventTable, std::vector<int>> seen;
    seen[EventTable::Kernel].assign(profile.kernels.size(), 0);
    seen[EventTable::MemOp].assign(profile.memops.size(), 0);
    seen[EventTable::GraphLaunch].assign(profile.graphLaunches.size(), 0);
    seen[EventTable::CudaApi].assign(profile.cudaApi.size(), 0);
    seen[EventTable::Nvtx].assign(profile.nvtx.size(), 0);
    seen[EventTable::Osrt].assign(profile.osrt.size(), 0);
    for (std::uint32_t l = 0; l < index.lanes().size(); ++l) {
        const TimelineLane& lane = index.lanes()[l];
        for (std::uint32_t k = 0; k < lane.count; ++k) {
            if (k > 0)
                QVERIFY(index.endAt(l, k - 1) <= index.startAt(l, k));
            if (lane.source == LaneSource::GpuBusy)
                continue;
            const EventRef e = index.eventAt(l, k);
            QVERIFY(seen.contains(e.table) && e.row < seen[e.table].size());
            ++seen[e.table][e.row];
            QCOMPARE(index.startAt(l, k), eventStart(profile, e));
        }
    }
    for (const auto& [table, counts] : seen)
        for (const int n : counts)
            QCOMPARE(n, 1);
    QCOMPARE(qint64(seen[EventTable::Kernel].size()), sqlKernels);
}

} // namespace

class TestProfileCache : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_settings.root = m_dir.filePath(QStringLiteral("cache"));
        m_settings.profiles = true;
    }
    void cleanup() { profilecache::waitForWrites(); }

    void readsBackTheProfileSqliteGave_data()
    {
        QTest::addColumn<QString>("path");
        for (const test::OracleExport& e : test::oracleExports())
            QTest::addRow("%s", qPrintable(e.label)) << e.path;
    }
    void readsBackTheProfileSqliteGave()
    {
        QFETCH(QString, path);
        const LoadResult loaded = ProfileLoader::load(path);
        QVERIFY2(loaded, qPrintable(loaded.errorMessage()));
        const Result<ExportIdentity> id = ExportIdentity::of(path);
        QVERIFY2(id, qPrintable(id.errorMessage()));
        const ProfileCacheKey key { *id, LoadEverything, KernelAllColumns };
        const QString entry = m_dir.filePath(QStringLiteral("roundtrip.nswprof"));
        const auto index = std::make_shared<const KernelIndex>(loaded->profile, KernelNameMode::Demangled);
        const Status written
            = writeProfileCacheFile(entry, key, { loaded->profile, loaded.warnings(), index, nullptr, {} });
        QVERIFY2(written, qPrintable(written.errorMessage()));
        const Result<CachedLoad> read = readProfileCacheFile(entry, key, path, CancelToken::never());
        QVERIFY2(read, qPrintable(read.errorMessage()));
        compareExactly(*read->profile, *loaded->profile);
        QCOMPARE(read->warnings, loaded.warnings());
        // The big columns are read in place from the mapped file.
        if (loaded->profile->kernels.size() > 0) {
            QVERIFY(read->profile->kernels.correlation.isView());
            // Only the last, partly filled block of a time column is copied.
            QVERIFY(read->profile->kernels.start.memoryBytes() <= TimeColumn::kBlockRows * sizeof(TimeNs));
        }
        QVERIFY(read->kernelIndex);
        QCOMPARE(read->kernelIndex->order().toVector(), index->order().toVector());
        for (std::size_t p = 0; p < index->order().size(); ++p)
            QCOMPARE(read->kernelIndex->sortedDuration(p), index->sortedDuration(p));
        QCOMPARE(read->kernelIndex->groups().size(), index->groups().size());
        QVERIFY(read->kernelIndex->profile() == read->profile);
        // A cache file is smaller than the profile in memory, which is smaller than the export.
        QVERIFY(QFileInfo(entry).size() <= QFileInfo(path).size());
    }

    void secondWindowLoadComesFromTheCache_data()
    {
        QTest::addColumn<bool>("staged");
        // The window and `info --load` load in two stages: the kernel index of the first stage, rebound to the whole
        // profile, knows only the first stage's strings.
        QTest::addRow("staged, as the window loads") << true;
        QTest::addRow("in one go") << false;
    }
    void secondWindowLoadComesFromTheCache()
    {
        QFETCH(bool, staged);
        const QString path = copyOf(test::demoExport(), QStringLiteral("window-%1.sqlite").arg(staged));
        QStringList failures;
        bool firstStageSeen = false;
        FirstStageReady firstStage;
        if (staged)
            firstStage = [&](const std::shared_ptr<LoadedProfile>&) { firstStageSeen = true; };
        const Result<LoadedProfile> first = loadForWorkbench(
            path, {}, firstStage, m_settings, [&](const Status& failed) { failures.append(failed.errorMessage()); });
        QCOMPARE(firstStageSeen, staged);
        QVERIFY2(first, qPrintable(first.errorMessage()));
        QVERIFY(first->load.cacheFile.isEmpty());
        profilecache::waitForWrites();
        QCOMPARE(failures, QStringList());
        const Result<LoadedProfile> second = loadForWorkbench(path, {}, {}, m_settings);
        QVERIFY2(second, qPrintable(second.errorMessage()));
        QVERIFY2(!second->load.cacheFile.isEmpty(), qPrintable(second->load.cacheNote));
        QVERIFY(second->load.cacheFile.startsWith(m_settings.profilesFolder()));
        QVERIFY(second->load.cacheNote.isEmpty());
        compareExactly(*second->profile, *first->profile);
        QVERIFY(second->kernelIndex);
        QCOMPARE(second->kernelIndex->order().toVector(), first->kernelIndex->order().toVector());
        QCOMPARE(second.warnings(), first.warnings());
    }

    void timelineIndexComesBackWithTheProfile_data()
    {
        QTest::addColumn<QString>("path");
        for (const test::OracleExport& e : test::oracleExports())
            QTest::addRow("%s", qPrintable(e.label)) << e.path;
    }
    void timelineIndexComesBackWithTheProfile()
    {
        QFETCH(QString, path);
        const Result<LoadedProfile> first = loadForWorkbench(path, {}, {}, m_settings);
        QVERIFY2(first, qPrintable(first.errorMessage()));
        QVERIFY(!first->timelineIndex);
        // The Timeline pane's index, held while the entry is written: the writer stores that one.
        const Result<TimelineIndexPtr> built = sharedTimelineIndex(first->profile);
        QVERIFY(built);
        profilecache::waitForWrites();
        const Result<LoadedProfile> second = loadForWorkbench(path, {}, {}, m_settings);
        QVERIFY2(second, qPrintable(second.errorMessage()));
        QVERIFY2(!second->load.cacheFile.isEmpty(), qPrintable(second->load.cacheNote));
        QVERIFY(second->timelineIndex);
        QVERIFY(second->timelineIndex->profilePtr() == second->profile);
        if ((*built)->eventCount() > 0)
            QVERIFY(second->timelineIndex->data().refs.isView()); // read in place
        compareTimelines(*second->timelineIndex, **built);
        // An export without a kernel table has no kernels (the query fails: -1).
        checkTimelineOf(*second->timelineIndex, *second->profile,
            std::max<qint64>(0, queryCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")));
        // The session hands it to the Timeline pane.
        const ProfileSession session(*second);
        QVERIFY(session.attachment<const TimelineIndex>(timelineIndexAttachmentKey()) == second->timelineIndex);
    }

    void forgedTimelineIndexIsNeverUsed_data()
    {
        QTest::addColumn<QByteArray>("section");
        QTest::addColumn<int>("edit");
        QTest::addColumn<QString>("says");
        QTest::addRow("a reference past every table") << QByteArray("tl.refs") << 0 << QStringLiteral("out of range");
        QTest::addRow("an API call past the calls") << QByteArray("tl.refs") << 1 << QStringLiteral("out of range");
        QTest::addRow("a busy end past the kernels")
            << QByteArray("tl.busyEnds") << 2 << QStringLiteral("out of range");
        QTest::addRow("references cut short") << QByteArray("tl.refs") << 3 << QStringLiteral("timeline index");
        QTest::addRow("gap trees cut short") << QByteArray("tl.gapTrees") << 3 << QStringLiteral("timeline index");
        QTest::addRow("a lane past the references") << QByteArray("tl.layout") << 4 << QStringLiteral("timeline index");
        QTest::addRow("a layout cut short") << QByteArray("tl.layout") << 3 << QStringLiteral("timeline index");
    }
    void forgedTimelineIndexIsNeverUsed()
    {
        QFETCH(QByteArray, section);
        QFETCH(int, edit);
        QFETCH(QString, says);
        const QString path = copyOf(test::demoExport(), QStringLiteral("forged-timeline.sqlite"));
        const Result<LoadedProfile> first = loadForWorkbench(path, {}, {}, m_settings);
        QVERIFY2(first, qPrintable(first.errorMessage()));
        const Result<TimelineIndexPtr> built = sharedTimelineIndex(first->profile);
        QVERIFY(built);
        profilecache::waitForWrites();
        const profilecache::Lookup probe = profilecache::lookUp(path, LoadOptions {}, m_settings);
        QVERIFY(probe.hit && probe.timelineIndex);
        const QString entry = (*probe.hit)->cacheFile;
        const TimelineIndex& index = **built;
        // The position of the first event of an API lane, and of a GPU busy interval.
        qsizetype apiRef = -1;
        for (const TimelineLane& lane : index.lanes())
            if (lane.source == LaneSource::CudaApi && lane.count > 0 && apiRef < 0)
                apiRef = qsizetype(lane.begin);
        QVERIFY(apiRef >= 0 && !index.data().busyEnds.empty());
        const bool forged = forgeEntry(entry, [&](const QByteArray& name, QByteArray& bytes) {
            if (name != section)
                return;
            const auto setUInt32
                = [&](qsizetype at, std::uint32_t value) { std::memcpy(bytes.data() + at * 4, &value, 4); };
            switch (edit) {
            case 0:
                setUInt32(0, 0xFFFFFFFFu);
                break;
            case 1:
                setUInt32(apiRef, std::uint32_t(first->profile->cudaApi.size()));
                break;
            case 2:
                setUInt32(0, std::uint32_t(first->profile->kernels.size())); // a kernel code (tag 0) one past the end
                break;
            case 3:
                bytes.chop(4);
                break;
            case 4: {
                // The first lane's count (after the extent: start, end, events; the lane count; source, begin) made
                // to reach past every reference.
                const qsizetype at = 8 + 8 + 8 + 4 + 1 + 4;
                const std::uint32_t count = std::uint32_t(index.data().refs.size()) + 1;
                std::memcpy(bytes.data() + at, &count, 4);
                break;
            }
            }
        });
        QVERIFY(forged);
        const Result<LoadedProfile> second = loadForWorkbench(path, {}, {}, m_settings);
        QVERIFY2(second, qPrintable(second.errorMessage()));
        QVERIFY(second->load.cacheFile.isEmpty());
        QVERIFY(!second->timelineIndex);
        QVERIFY2(second->load.cacheNote.contains(says), qPrintable(second->load.cacheNote));
        compareExactly(*second->profile, *first->profile);
    }

    void changedExportIsDroppedAndReadAgain_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addRow("rows written (change counter)") << QStringLiteral("write");
        QTest::addRow("modification time only") << QStringLiteral("touch");
        QTest::addRow("replaced by another file") << QStringLiteral("replace");
    }
    void changedExportIsDroppedAndReadAgain()
    {
        QFETCH(QString, change);
        const QString path = copyOf(test::demoExport(), QStringLiteral("changing-%1.sqlite").arg(change));
        const LoadResult first = profilecache::load(path, LoadOptions {}, m_settings);
        QVERIFY2(first, qPrintable(first.errorMessage()));
        profilecache::waitForWrites();
        if (change == QLatin1String("write")) {
            QCOMPARE(execSql(path, "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 2 = 0"), QString());
        } else if (change == QLatin1String("touch")) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(60), QFileDevice::FileModificationTime));
        } else {
            QVERIFY(copyFile(test::generatedExport(QStringLiteral("2024.6")), path));
        }
        const LoadResult second = profilecache::load(path, LoadOptions {}, m_settings);
        QVERIFY2(second, qPrintable(second.errorMessage()));
        QVERIFY(second->cacheFile.isEmpty());
        QVERIFY2(second->cacheNote.contains(QStringLiteral("dropped")), qPrintable(second->cacheNote));
        profilecache::waitForWrites();
        const LoadResult sqlite = ProfileLoader::load(path);
        compareExactly(*second->profile, *sqlite->profile);
        // Rebuilt: the third load maps the new entry, which holds the changed export.
        const LoadResult third = profilecache::load(path, LoadOptions {}, m_settings);
        QVERIFY(!third->cacheFile.isEmpty());
        QVERIFY(third->cacheNote.isEmpty());
        compareExactly(*third->profile, *sqlite->profile);
    }

    void otherLoadOptionsHaveTheirOwnEntry()
    {
        const QString path = copyOf(test::demoExport(), QStringLiteral("options.sqlite"));
        LoadOptions kernelsOnly;
        kernelsOnly.parts = LoadKernels;
        kernelsOnly.kernelColumns = KernelDemangledName;
        QVERIFY(profilecache::load(path, LoadOptions {}, m_settings).ok());
        profilecache::waitForWrites();
        const LoadResult partial = profilecache::load(path, kernelsOnly, m_settings);
        QVERIFY(partial->cacheFile.isEmpty()); // the whole profile's entry does not stand for a partial load
        profilecache::waitForWrites();
        const LoadResult again = profilecache::load(path, kernelsOnly, m_settings);
        QVERIFY(!again->cacheFile.isEmpty());
        compareExactly(*again->profile, *ProfileLoader::load(path, kernelsOnly)->profile);
        QVERIFY(again->profile->cudaApi.size() == 0 && again->profile->nvtx.size() == 0);
    }

    void damagedOrForgedEntryIsNeverUsed_data()
    {
        QTest::addColumn<int>("damage");
        QTest::addColumn<QString>("says");
        QTest::addRow("a flipped byte in a column") << 0 << QStringLiteral("checksum");
        QTest::addRow("cut short") << 1 << QStringLiteral("cut short");
        QTest::addRow("forged: a kernel's process past the processes") << 2 << QStringLiteral("index out of range");
        QTest::addRow("forged: a name past the string pool") << 3 << QStringLiteral("index out of range");
        QTest::addRow("forged: a column shorter than its table") << 4 << QStringLiteral("row count");
        QTest::addRow("forged: another format version") << 5 << QStringLiteral("another version");
        QTest::addRow("forged: a kernel index row past the kernels") << 6 << QStringLiteral("index out of range");
        QTest::addRow("forged: time offsets of a whole block past its times") << 7 << QStringLiteral("malformed");
        QTest::addRow("garbage") << 8 << QStringLiteral("not a profile cache file");
        QTest::addRow("symlink to a device") << 9 << QStringLiteral("symbolic link");
        QTest::addRow("forged: the last sample's stack past the frames") << 10 << QStringLiteral("CPU sample stacks");
        QTest::addRow("forged: sample stacks that go back") << 11 << QStringLiteral("CPU sample stacks");
        QTest::addRow("forged: a frame past the functions") << 12 << QStringLiteral("index out of range");
        QTest::addRow("forged: a frame of no function") << 13 << QStringLiteral("index out of range");
        QTest::addRow("forged: a kernel index lane past the lanes") << 14 << QStringLiteral("index out of range");
    }
    void damagedOrForgedEntryIsNeverUsed()
    {
        QFETCH(int, damage);
        QFETCH(QString, says);
        const QString path = copyOf(test::generatedExport(QStringLiteral("2024.6")), QStringLiteral("forged.sqlite"));
        const Result<LoadedProfile> first = loadForWorkbench(path, {}, {}, m_settings);
        QVERIFY2(first, qPrintable(first.errorMessage()));
        // The forged stacks and frames need samples whose stacks are not all empty.
        QVERIFY(first->profile->cpuSamples.size() > 2 && first->profile->cpuSamples.depthOf(0) > 0);
        profilecache::waitForWrites();
        const profilecache::Lookup probe = profilecache::lookUp(path, LoadOptions {}, m_settings);
        QVERIFY(probe.hit);
        const QString entry = (*probe.hit)->cacheFile;
        const auto setInt32 = [](QByteArray& bytes, qsizetype row, std::int32_t value) {
            std::memcpy(bytes.data() + row * 4, &value, 4);
        };
        bool ok = true;
        // Index columns of few distinct values hold value + 1 in 8 bits (".byte") or 16 (".narrow"): the part that
        // holds the column's values is forged, and the value must fit it.
        const auto widthOfPart = [](const QByteArray& name, const QByteArray& column, const QByteArray& bytes) {
            if (bytes.isEmpty())
                return 0;
            return name == column + ".byte" ? 1 : name == column + ".narrow" ? 2 : 0;
        };
        const auto setIndex = [&](QByteArray& bytes, int width, qsizetype row, std::int32_t value) {
            const std::uint32_t stored = std::uint32_t(value + 1);
            ok = ok && stored < (width == 1 ? 0xFFu : 0xFFFFu);
            if (width == 1)
                bytes[row] = char(std::uint8_t(stored));
            else
                std::memcpy(bytes.data() + row * 2, &stored, 2); // little-endian: the low 16 bits
        };
        int forged = 0;
        switch (damage) {
        case 0: {
            // A byte inside a column's values: the padding between sections is never read, nor checked.
            Result<std::unique_ptr<cachefile::Reader>> reader = cachefile::Reader::open(entry);
            QVERIFY(reader);
            const auto section = (*reader)->sections().find("t.kernels.correlation");
            QVERIFY(section != (*reader)->sections().end() && section->second.bytes > 0);
            const qint64 at = qint64(section->second.offset + section->second.bytes / 2);
            reader = Result<std::unique_ptr<cachefile::Reader>>::failure(ErrorKind::Input, QString());
            QFile f(entry);
            QVERIFY(f.open(QIODevice::ReadWrite) && f.seek(at));
            char byte = 0;
            QVERIFY(f.getChar(&byte) && f.seek(at) && f.putChar(char(byte ^ 0x10)));
            break;
        }
        case 1:
            QVERIFY(QFile::resize(entry, QFileInfo(entry).size() - 100));
            break;
        case 2:
            ok = forgeEntry(entry, [&](const QByteArray& name, QByteArray& bytes) {
                if (const int width = widthOfPart(name, "t.kernels.process", bytes); width && ++forged)
                    setIndex(bytes, width, 3, std::int32_t(first->profile->processes.size()));
            }) && ok;
            break;
        case 3: {
            // 8 bits can't hold a name past a pool of 255 strings or more: the names move to the 16-bit part first.
            QByteArray byteValues;
            ok = forgeEntry(entry, [&](const QByteArray& name, QByteArray& bytes) {
                const QByteArray column = "t.kernels.demangledName";
                if (name == column + ".byte")
                    byteValues = std::exchange(bytes, QByteArray());
                if (name == column + ".narrow" && !byteValues.isEmpty()) {
                    bytes.resize(byteValues.size() * 2);
                    for (qsizetype i = 0; i < byteValues.size(); ++i) {
                        const std::uint16_t stored = std::uint8_t(byteValues[i]);
                        std::memcpy(bytes.data() + i * 2, &stored, 2);
                    }
                }
                if (const int width = widthOfPart(name, column, bytes); width && ++forged)
                    setIndex(bytes, width, 0, std::int32_t(first->profile->strings.size()) + 5);
            }) && ok;
            break;
        }
        case 4:
            ok = forgeEntry(entry, [&](const QByteArray& name, QByteArray& bytes) {
                if (const int width = widthOfPart(name, "t.kernels.stream", bytes); width && ++forged)
                    bytes.chop(width);
            });
            break;
        case 5:
            ok = forgeEntry(entry, [](const QByteArray& name, QByteArray& bytes) {
                if (name == "key")
                    bytes[0] = char(bytes[0] + 1);
            });
            break;
        case 6:
            ok = forgeEntry(entry, [&](const QByteArray& name, QByteArray& bytes) {
                if (name == "ki.order")
                    setInt32(bytes, 0, std::int32_t(first->profile->kernels.size()));
            });
            break;
        case 7:
            ok = forgeEntry(entry, [](const QByteArray& name, QByteArray& bytes) {
                if (name == "t.kernels.start.bases" && bytes.size() >= 8) {
                    const qint64 whole = std::numeric_limits<qint64>::min(); // the block says: times kept whole
                    std::memcpy(bytes.data(), &whole, 8);
                }
            });
            break;
        case 8:
            QVERIFY(QFile::remove(entry));
            {
                QFile f(entry);
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write(QByteArray(4096, 'g'));
            }
            break;
        case 9:
            QVERIFY(QFile::remove(entry));
            QVERIFY(::symlink("/dev/zero", QFile::encodeName(entry).constData()) == 0);
            break;
        case 10:
            ok = forgeEntry(entry, [&](const QByteArray& name, QByteArray& bytes) {
                if (name == "t.cpuSamples.stackBegin")
                    setInt32(bytes, bytes.size() / 4 - 1, std::int32_t(first->profile->cpuSamples.frames.size() + 1));
            });
            break;
        case 11:
            ok = forgeEntry(entry, [&](const QByteArray& name, QByteArray& bytes) {
                if (name == "t.cpuSamples.stackBegin") // the second sample's stack starts before the first's
                    setInt32(bytes, 1, std::int32_t(first->profile->cpuSamples.frames.size()));
            });
            break;
        case 12:
        case 13:
            // Frames are narrow (value + 1 in 16 bits) in an export with this few functions.
            ok = forgeEntry(entry, [&](const QByteArray& name, QByteArray& bytes) {
                if (const int width = widthOfPart(name, "t.cpuSamples.frames", bytes); width && ++forged)
                    setIndex(
                        bytes, width, 1, damage == 12 ? std::int32_t(first->profile->cpuSamples.functions.size()) : -1);
            }) && ok;
            break;
        case 14: {
            // The kernel index's lanes (a stream of a process on a device): a byte each, so few.
            QVERIFY(probe.kernelIndex);
            const std::int32_t lanes = std::int32_t(probe.kernelIndex->lanes().size());
            ok = forgeEntry(entry, [&](const QByteArray& name, QByteArray& bytes) {
                if (const int width = widthOfPart(name, "ki.sortedLanes", bytes); width && ++forged)
                    setIndex(bytes, width, 2, lanes);
            }) && ok;
            break;
        }
        }
        QVERIFY(ok);
        QCOMPARE(forged, (damage >= 2 && damage <= 4) || damage >= 12 ? 1 : 0);
        const Result<LoadedProfile> second = loadForWorkbench(path, {}, {}, m_settings);
        QVERIFY2(second, qPrintable(second.errorMessage()));
        QVERIFY(second->load.cacheFile.isEmpty());
        QVERIFY2(second->load.cacheNote.contains(says), qPrintable(second->load.cacheNote));
        compareExactly(*second->profile, *first->profile);
        profilecache::waitForWrites();
        // Rebuilt in its place.
        const profilecache::Lookup after = profilecache::lookUp(path, LoadOptions {}, m_settings);
        QVERIFY(after.hit);
        QVERIFY(after.note.isEmpty());
    }

    void crashedWritersFilesAreNeverUsed()
    {
        const QString path = copyOf(test::demoExport(), QStringLiteral("crashed.sqlite"));
        const profilecache::Lookup before = profilecache::lookUp(path, LoadOptions {}, m_settings);
        QVERIFY(before.key);
        const QString entry = profilecache::entryPath(m_settings, *before.key);
        // What a writer killed half-way leaves: a temporary file, never the entry's name.
        QVERIFY(QDir().mkpath(m_settings.profilesFolder()));
        const QString temporary = entry + QStringLiteral(".tmp-99999-0");
        {
            QFile f(temporary);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(1000, '\0'));
            QVERIFY(f.flush()); // written now, not when closed after the time is set
            QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-7200), QFileDevice::FileModificationTime));
        }
        const profilecache::Lookup lookup = profilecache::lookUp(path, LoadOptions {}, m_settings);
        QVERIFY(!lookup.hit);
        QVERIFY(lookup.note.isEmpty());
        for (const CacheEntry& e : listCacheEntries(m_settings))
            QVERIFY(e.path != temporary);
        evictLeastRecentlyUsed(m_settings);
        QVERIFY(!QFileInfo::exists(temporary)); // an hour old: its writer is gone
    }

    void unwritableCacheFolderLeavesTheLoadWorking()
    {
        // A regular file where the cache folder should be: no one can write under it, root included.
        CacheSettings settings = m_settings;
        settings.root = m_dir.filePath(QStringLiteral("cache-root-is-a-file"));
        {
            QFile f(settings.root);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const QString path = copyOf(test::demoExport(), QStringLiteral("unwritable.sqlite"));
        QStringList failures;
        std::mutex mutex;
        const LoadResult loaded = profilecache::load(path, LoadOptions {}, settings, {}, [&](const Status& s) {
            const std::lock_guard lock(mutex);
            failures.append(s.errorMessage());
        });
        profilecache::waitForWrites();
        QVERIFY2(loaded, qPrintable(loaded.errorMessage()));
        QVERIFY(loaded->cacheNote.isEmpty());
        QCOMPARE(failures.size(), 1);
        QVERIFY2(failures[0].contains(settings.profilesFolder()), qPrintable(failures[0]));
        compareExactly(*loaded->profile, *ProfileLoader::load(path)->profile);
    }

    void nothingIsWrittenBesideTheExport_data()
    {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<bool>("cached");
        QTest::addRow("within the limit: cached") << CacheSettings::kDefaultLimitBytes << true;
        QTest::addRow("a profile over the limit: not written") << qint64(1000) << false;
    }
    void nothingIsWrittenBesideTheExport()
    {
        QFETCH(qint64, limit);
        QFETCH(bool, cached);
        CacheSettings settings = m_settings;
        settings.root = m_dir.filePath(QStringLiteral("limit-%1").arg(limit));
        settings.limitBytes = limit;
        const QString folder = m_dir.filePath(QStringLiteral("alone-%1").arg(limit));
        QVERIFY(QDir().mkpath(folder));
        const QString path = folder + QStringLiteral("/alone.sqlite");
        QVERIFY(copyFile(test::demoExport(), path));
        QStringList failures;
        std::mutex mutex;
        const LoadResult loaded = profilecache::load(path, LoadOptions {}, settings, {}, [&](const Status& s) {
            const std::lock_guard lock(mutex);
            failures.append(s.errorMessage());
        });
        profilecache::waitForWrites();
        QVERIFY2(loaded, qPrintable(loaded.errorMessage()));
        QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
            QStringList { QStringLiteral("alone.sqlite") });
        QCOMPARE(QDir(settings.profilesFolder()).entryList(QDir::Files | QDir::Hidden).size(), cached ? 1 : 0);
        QCOMPARE(failures.size(), cached ? 0 : 1);
        if (!cached)
            QVERIFY2(failures[0].contains(QStringLiteral("over the cache limit")), qPrintable(failures[0]));
    }

    void exportsBesideAWriterAreNotCached()
    {
        const QString path = copyOf(test::demoExport(), QStringLiteral("journal.sqlite"));
        {
            QFile journal(path + QStringLiteral("-journal"));
            QVERIFY(journal.open(QIODevice::WriteOnly));
        }
        const profilecache::Lookup lookup = profilecache::lookUp(path, LoadOptions {}, m_settings);
        QVERIFY(!lookup.key);
        QVERIFY2(lookup.note.contains(QStringLiteral("-journal")), qPrintable(lookup.note));
        QFile::remove(path + QStringLiteral("-journal"));
    }

    void noCacheNeitherReadsNorWrites()
    {
        const QString path = copyOf(test::demoExport(), QStringLiteral("nocache.sqlite"));
        CacheSettings off = m_settings;
        off.profiles = false;
        QVERIFY(profilecache::load(path, LoadOptions {}, m_settings).ok());
        profilecache::waitForWrites();
        const LoadResult loaded = profilecache::load(path, LoadOptions {}, off);
        QVERIFY2(loaded, qPrintable(loaded.errorMessage()));
        QVERIFY(loaded->cacheFile.isEmpty());
    }

    void profileWithCpuSamplesComesBackWithTheirStacks()
    {
        // The generated 2026.2 export carries 4,000 CPU samples with their call chains.
        const QString path = copyOf(test::generatedExport(QStringLiteral("2026.2")), QStringLiteral("samples.sqlite"));
        const LoadResult first = profilecache::load(path, LoadOptions {}, m_settings);
        QVERIFY2(first, qPrintable(first.errorMessage()));
        profilecache::waitForWrites();
        const LoadResult second = profilecache::load(path, LoadOptions {}, m_settings);
        QVERIFY2(second, qPrintable(second.errorMessage()));
        QVERIFY(!second->cacheFile.isEmpty());
        const CpuSamples& samples = second->profile->cpuSamples;
        QCOMPARE(samples.size(), std::size_t(queryCount(path, "SELECT count(*) FROM COMPOSITE_EVENTS")));
        QCOMPARE(samples.frames.size(), std::size_t(queryCount(path, "SELECT count(*) FROM SAMPLING_CALLCHAINS")));
        QCOMPARE(std::size_t(samples.depthOf(0)),
            std::size_t(queryCount(path,
                "SELECT count(*) FROM SAMPLING_CALLCHAINS WHERE id = (SELECT id FROM COMPOSITE_EVENTS ORDER BY rowid "
                "LIMIT 1)")));
        QVERIFY(!samples.stateLabels.empty());
        compareExactly(*second->profile, *first->profile);
    }

    void timeColumnsAreReadInPlace_data()
    {
        QTest::addColumn<qint64>("step");
        // 1024 rows 5 s apart span more than 2^32 ns: the blocks are kept whole (TimeColumn). 1 µs apart they are
        // stored as offsets from each block's base.
        QTest::addRow("whole blocks") << qint64(5'000'000'000);
        QTest::addRow("offset blocks") << qint64(1'000);
    }
    void timeColumnsAreReadInPlace()
    {
        QFETCH(qint64, step);
        std::vector<TimeNs> starts, ends;
        for (qint64 i = 0; i < 2 * qint64(TimeColumn::kBlockRows) + 7; ++i) {
            starts.push_back(1'000'000 + i * step);
            ends.push_back(starts.back() + 500 + i % 3);
        }
        auto profile = std::make_shared<Profile>();
        profile->kernels.start = TimeColumn(starts);
        profile->kernels.end = TimeColumn(ends);
        const QString path = copyOf(test::demoExport(), QStringLiteral("inplace.sqlite"));
        const Result<ExportIdentity> id = ExportIdentity::of(path);
        QVERIFY2(id, qPrintable(id.errorMessage()));
        const ProfileCacheKey key { *id, LoadEverything, KernelAllColumns };
        const QString entry = m_dir.filePath(QStringLiteral("inplace.nswprof"));
        QVERIFY(writeProfileCacheFile(entry, key, { profile, {}, nullptr, nullptr, {} }).ok());
        const Result<CachedLoad> read = readProfileCacheFile(entry, key, path, CancelToken::never());
        QVERIFY2(read, qPrintable(read.errorMessage()));
        for (const auto& [column, expected] :
            { std::pair(&read->profile->kernels.start, &starts), std::pair(&read->profile->kernels.end, &ends) }) {
            QVERIFY(column->toVector() == *expected);
            // Only the open block (7 rows) is copied; the sealed blocks are views of the mapped file.
            const TimeColumn::Parts parts = column->parts();
            QVERIFY(parts.offsets.isView());
            QVERIFY(parts.bases.isView());
            QCOMPARE(column->memoryBytes(), parts.open.capacity() * sizeof(TimeNs));
        }
        QCOMPARE(read->profile->kernels.start.parts().whole.isView(), step > (qint64(1) << 32) / 1024);
    }

    void networkFileSystemsAreKnownByName_data()
    {
        QTest::addColumn<quint64>("type");
        QTest::addColumn<QString>("name");
        // statfs(2) magic numbers (linux/magic.h and the file systems' own headers).
        QTest::addRow("nfs") << quint64(0x6969) << QStringLiteral("nfs");
        QTest::addRow("cifs") << quint64(0xFF534D42) << QStringLiteral("cifs");
        QTest::addRow("smb2") << quint64(0xFE534D42) << QStringLiteral("smb2");
        QTest::addRow("ceph") << quint64(0x00C36400) << QStringLiteral("ceph");
        QTest::addRow("lustre") << quint64(0x0BD00BD0) << QStringLiteral("lustre");
        QTest::addRow("ext4 is local") << quint64(0xEF53) << QString();
        QTest::addRow("tmpfs is local") << quint64(0x01021994) << QString();
        QTest::addRow("xfs is local") << quint64(0x58465342) << QString();
    }
    void networkFileSystemsAreKnownByName()
    {
        QFETCH(quint64, type);
        QFETCH(QString, name);
        QCOMPARE(profilecache::networkFileSystemName(type), name);
    }

    void oneLimitForProfilesAndExports()
    {
        CacheSettings settings;
        settings.root = m_dir.filePath(QStringLiteral("lru"));
        settings.limitBytes = 2500;
        const QDateTime now = QDateTime::currentDateTime();
        // Four 1000-byte entries, alternately exports and profiles, used 4, 3, 2 and 1 hours ago.
        const QStringList paths = { settings.exportsFolder() + QStringLiteral("/e1/a.sqlite"),
            settings.profilesFolder() + QStringLiteral("/p1.nswprof"),
            settings.exportsFolder() + QStringLiteral("/e2/b.sqlite"),
            settings.profilesFolder() + QStringLiteral("/p2.nswprof") };
        for (int i = 0; i < paths.size(); ++i) {
            QVERIFY(QDir().mkpath(QFileInfo(paths[i]).absolutePath()));
            QFile f(paths[i]);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(1000, 'x'));
            QVERIFY(f.flush()); // written now, not when closed after the time is set
            QVERIFY(f.setFileTime(now.addSecs(-3600 * (4 - i)), QFileDevice::FileModificationTime));
        }
        const std::vector<CacheEntry> listed = listCacheEntries(settings);
        QCOMPARE(listed.size(), std::size_t(4));
        QCOMPARE(listed[0].kind, CacheEntry::Kind::Export);
        QCOMPARE(listed[1].kind, CacheEntry::Kind::Profile);
        // The entry in use stays though it is the oldest; the next two oldest go.
        evictLeastRecentlyUsed(settings, { paths[0] });
        QVERIFY(QFileInfo::exists(paths[0]));
        QVERIFY(!QFileInfo::exists(paths[1]));
        QVERIFY(!QFileInfo::exists(paths[2]));
        QVERIFY(QFileInfo::exists(paths[3]));
        QCOMPARE(clearCaches(settings), qint64(2000));
        QVERIFY(listCacheEntries(settings).empty());
    }

private:
    QString copyOf(const QString& source, const QString& name)
    {
        const QString path = m_dir.filePath(name);
        return copyFile(source, path) ? path : QString();
    }

    QTemporaryDir m_dir;
    CacheSettings m_settings;
};

QTEST_GUILESS_MAIN(TestProfileCache)
#include "tst_profilecache.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/chunkplan.h"
#include "core/profile/profileloader.h"
#include "core/session/workbenchload.h"
#include "core/sqlite/sqlitedb.h"
#include "loaderfixtures.h"
#include "oracleexports.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <optional>
#include <sqlite3.h>
#include <thread>

using namespace nsw;
using namespace nsw::test;

namespace {
/// A writer connection on a fresh export at @p path that has run @p sql (its transaction left as @p sql leaves it);
/// null when either fails. The caller closes it.
sqlite3* writerOnNewExport(const QString& path, const char* sql)
{
    QString error;
    sqlite3* writer = nullptr;
    if (!writeModernExport(path, &error) || sqlite3_open(path.toUtf8().constData(), &writer) != SQLITE_OK)
        return nullptr;
    if (sqlite3_exec(writer, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
        sqlite3_close(writer);
        return nullptr;
    }
    return writer;
}
} // namespace

class TestProfileLoader : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_modern;
    QString m_old;

    ProfilePtr loadOrFail(const QString& path)
    {
        LoadResult r = ProfileLoader::load(path);
        if (!r.ok()) {
            qWarning("load failed: %s", qPrintable(r.errorMessage()));
            return nullptr;
        }
        return r->profile;
    }
    static std::size_t threadOf(const Profile& p, int pid, int tid)
    {
        for (std::size_t i = 0; i < p.threads.size(); ++i)
            if (p.threads[i].tid == tid && p.processes[std::size_t(p.threads[i].process)].pid == pid)
                return i;
        return std::size_t(-1);
    }

    /// A copy of the modern export changed by @p sql, in its own folder.
    QString alteredCopy(const QString& sql, const QString& name = QStringLiteral("altered.sqlite"))
    {
        const QString path = m_dir.filePath(QStringLiteral("%1-%2").arg(++m_copies).arg(name));
        QString error;
        if (!writeModernExport(path, &error)) {
            qWarning("%s", qPrintable(error));
            return {};
        }
        if (const QString failed = test::execOnFile(path, sql); !failed.isEmpty()) {
            qWarning("%s", qPrintable(failed));
            return {};
        }
        return path;
    }
    static qint64 countOf(const QString& path, const QString& sql)
    {
        return queryRows(path, sql).value(0).value(0).toLongLong();
    }
    int m_copies = 0;

    /// Every column of two loads of one file, compared by value (strings, threads and processes by what they are).
    static void compareProfiles(const Profile& x, const Profile& y)
    {
        auto names = [](const Profile& p, const auto& refs) {
            QStringList out;
            for (const StringRef r : refs)
                out.append(p.strings.at(r));
            return out;
        };
        auto gtids = [](const Profile& p, const auto& threads) {
            std::vector<qint64> out;
            for (const ThreadIndex t : threads)
                out.push_back(t >= 0 ? p.threads[std::size_t(t)].globalTid : -1);
            return out;
        };
        auto pids = [](const Profile& p, const auto& processes) {
            std::vector<int> out;
            for (const ProcessIndex i : processes)
                out.push_back(i >= 0 ? p.processes[std::size_t(i)].pid : -1);
            return out;
        };
        QCOMPARE(y.kernels.start, x.kernels.start);
        QCOMPARE(y.kernels.end, x.kernels.end);
        QCOMPARE(pids(y, y.kernels.process), pids(x, x.kernels.process));
        QCOMPARE(y.kernels.stream, x.kernels.stream);
        QCOMPARE(y.kernels.api, x.kernels.api);
        QCOMPARE(names(y, y.kernels.demangledName), names(x, x.kernels.demangledName));
        QCOMPARE(names(y, y.kernels.mangledName), names(x, x.kernels.mangledName));
        for (std::size_t i = 0; i < x.kernels.size(); ++i)
            QVERIFY(x.launchShapes[x.kernels.shape[i]] == y.launchShapes[y.kernels.shape[i]]);
        QCOMPARE(y.memops.bytes, x.memops.bytes);
        QCOMPARE(y.memops.api, x.memops.api);
        QCOMPARE(y.cudaApi.start, x.cudaApi.start);
        QCOMPARE(gtids(y, y.cudaApi.thread), gtids(x, x.cudaApi.thread));
        QCOMPARE(names(y, y.cudaApi.name), names(x, x.cudaApi.name));
        QCOMPARE(y.nvtx.start, x.nvtx.start);
        QCOMPARE(y.nvtx.end, x.nvtx.end);
        QCOMPARE(names(y, y.nvtx.name), names(x, x.nvtx.name));
        QCOMPARE(gtids(y, y.nvtx.thread), gtids(x, x.nvtx.thread));
        QCOMPARE(y.nvtx.maxTimestamp, x.nvtx.maxTimestamp);
        QCOMPARE(y.nvtx.endThread.size(), x.nvtx.endThread.size());
        for (std::size_t i = 0; i < x.nvtx.size(); ++i) {
            QCOMPARE(y.nvtxDomainName(y.nvtx.domain[i]), x.nvtxDomainName(x.nvtx.domain[i]));
            QCOMPARE(y.threads[std::size_t(y.nvtx.endThreadOf(i))].globalTid,
                x.threads[std::size_t(x.nvtx.endThreadOf(i))].globalTid);
        }
        QCOMPARE(y.osrt.start, x.osrt.start);
        QCOMPARE(names(y, y.osrt.name), names(x, x.osrt.name));
        for (const ThreadInfo& t : x.threads)
            for (const ThreadInfo& u : y.threads)
                if (t.globalTid == u.globalTid)
                    QCOMPARE(u.name, t.name);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_modern = m_dir.filePath(QStringLiteral("modern.sqlite"));
        m_old = m_dir.filePath(QStringLiteral("old.sqlite"));
        QString error;
        QVERIFY2(writeModernExport(m_modern, &error), qPrintable(error));
        QVERIFY2(writeOldExport(m_old, &error), qPrintable(error));
    }

    void metadataAndGpus()
    {
        const ProfilePtr p = loadOrFail(m_modern);
        QVERIFY(p);
        QCOMPARE(p->meta.nsysVersion, QStringLiteral("2026.2.1.210"));
        QCOMPARE(p->meta.schemaVersion, QStringLiteral("3.25.0"));
        QCOMPARE(p->meta.metadataTable, QStringLiteral("META_DATA_EXPORT"));
        QCOMPARE(p->meta.sessionStartUtcNs, qint64(1700000000000000000));
        QCOMPARE(p->meta.analysisDurationNs, qint64(123456789));
        QCOMPARE(p->captureDurationNs(), qint64(123456789));
        QCOMPARE(p->gpus.size(), std::size_t(2));
        // TARGET_INFO_CUDA_DEVICE: CUDA device 0 of pid 100 is GPU id 1, of pid 200 GPU id 0.
        ProcessIndex p100 = -1, p200 = -1;
        for (std::size_t i = 0; i < p->processes.size(); ++i) {
            if (p->processes[i].pid == 100)
                p100 = ProcessIndex(i);
            if (p->processes[i].pid == 200)
                p200 = ProcessIndex(i);
        }
        QVERIFY(p100 >= 0 && p200 >= 0);
        QCOMPARE(p->processes[std::size_t(p100)].name, QStringLiteral("python3"));
        QCOMPARE(p->gpuFor(p100, 0)->name, QStringLiteral("GPU B"));
        QCOMPARE(p->gpuFor(p200, 0)->name, QStringLiteral("GPU A"));
        QCOMPARE(p->deviceLabel(p100, 0), QStringLiteral("GPU 0 (GPU B)"));
        QCOMPARE(p->devicesUsed(), std::vector<int> { 0 });
    }

    void kernelsAndNames()
    {
        const ProfilePtr p = loadOrFail(m_modern);
        QVERIFY(p);
        const KernelTable& k = p->kernels;
        QCOMPARE(k.size(), std::size_t(4));
        QCOMPARE(p->strings.at(k.demangledName[0]), QStringLiteral("void gemm<float>(float *, int)"));
        QCOMPARE(p->strings.at(k.shortName[0]), QStringLiteral("gemm"));
        QCOMPARE(p->strings.at(k.mangledName[0]), QStringLiteral("_Z4gemmIfEvPfi"));
        QCOMPARE(k.mangledName[1], kNoString);
        // Equal texts share one pool entry.
        QCOMPARE(k.demangledName[0], k.demangledName[1]);
        QCOMPARE(k.start[3], qint64(-50));
        QCOMPARE(k.duration(3), qint64(150));
        const LaunchShape& shape = p->launchShapes[k.shape[2]];
        QCOMPARE(shape.grid[0], 8u);
        QCOMPARE(shape.block[0], 512u);
        QCOMPARE(shape.staticSharedMemory, 4096);
        QCOMPARE(k.stream[2], 13u);
    }

    void correlationJoinStaysInProcess()
    {
        const ProfilePtr p = loadOrFail(m_modern);
        QVERIFY(p);
        const KernelTable& k = p->kernels;
        const CudaApiTable& a = p->cudaApi;
        QCOMPARE(a.size(), std::size_t(5));
        // Kernel 0 (pid 100, corr 1) -> the call at 900 on pid 100, not pid 200's corr 1 at 700.
        QVERIFY(k.api[0] >= 0);
        QCOMPARE(a.start[std::size_t(k.api[0])], qint64(900));
        QCOMPARE(a.start[std::size_t(k.api[1])], qint64(1900));
        QCOMPARE(a.start[std::size_t(k.api[2])], qint64(700));
        QCOMPARE(k.api[3], -1); // launching call not in the file
        QCOMPARE(p->threads[std::size_t(a.thread[std::size_t(k.api[1])])].tid, 101);
        QCOMPARE(a.eventClass[4], CudaApiTable::kDriver);
        const MemOpTable& m = p->memops;
        QCOMPARE(m.size(), std::size_t(2));
        QCOMPARE(a.start[std::size_t(m.api[0])], qint64(3000));
        QCOMPARE(m.api[1], -1);
        QCOMPARE(p->memOpName(m.copyKind[0]), QStringLiteral("[CUDA memcpy Host-to-Device]"));
        QCOMPARE(p->memOpName(m.copyKind[1]), QStringLiteral("[CUDA memset]"));
        QCOMPARE(m.bytes[0], qint64(4096));
    }

    void threadsAndLenientUtf8()
    {
        const ProfilePtr p = loadOrFail(m_modern);
        QVERIFY(p);
        QCOMPARE(p->threads[threadOf(*p, 100, 100)].name, QStringLiteral("python3"));
        QVERIFY(p->threads[threadOf(*p, 100, 101)].name.isEmpty());
        const QString latin1Name = p->threads[threadOf(*p, 200, 200)].name;
        QVERIFY(latin1Name.startsWith(QStringLiteral("cafn")));
        QVERIFY(latin1Name.contains(QChar(QChar::ReplacementCharacter)));
        // No ThreadNames row: the NVTX thread-name (39) row names it.
        QCOMPARE(p->threads[threadOf(*p, 200, 201)].name, QStringLiteral("nvtx-named"));
    }

    void nvtxEvents()
    {
        const ProfilePtr p = loadOrFail(m_modern);
        QVERIFY(p);
        const NvtxTable& n = p->nvtx;
        // Registration rows (75 domain create, 33 category, 39 thread name) are not kept as events.
        QCOMPARE(n.size(), std::size_t(6));
        QStringList names;
        for (std::size_t i = 0; i < n.size(); ++i)
            names.append(p->strings.at(n.name[i]));
        QCOMPARE(names,
            (QStringList { QStringLiteral("step"), QStringLiteral("registered range"), QStringLiteral("mark here"),
                QStringLiteral("async"), QStringLiteral("unterminated"),
                QStringLiteral("registered range") })); // textId wins over text
        QCOMPARE(p->nvtxDomainName(n.domain[1]), QStringLiteral("NCCL"));
        QCOMPARE(n.domain[0], -1);
        QCOMPARE(n.eventType[2], NvtxTable::kMark);
        QCOMPARE(n.end[2], kNoTime);
        QCOMPARE(n.end[4], kNoTime);
        QCOMPARE(n.eventType[3], NvtxTable::kStartEnd);
        QVERIFY(n.hasEndThread(3));
        QCOMPARE(p->threads[std::size_t(n.endThreadOf(3))].tid, 201);
        QVERIFY(!n.hasEndThread(0));
        QCOMPARE(n.endThreadOf(0), n.thread[0]);
        QCOMPARE(n.maxTimestamp, qint64(9000)); // over all event types, the category row included
    }

    void spanAndOsrt()
    {
        const ProfilePtr p = loadOrFail(m_modern);
        QVERIFY(p);
        QCOMPARE(p->activityStart, qint64(-50));
        QCOMPARE(p->activityEnd, qint64(3500));
        QCOMPARE(p->osrt.size(), std::size_t(2));
        QCOMPARE(p->osrt.eventClass[0], OsrtTable::kOsRuntime);
        QCOMPARE(p->osrt.eventClass[1], std::uint8_t(31));
        QCOMPARE(p->strings.at(p->osrt.name[0]), QStringLiteral("ioctl"));
    }

    void oldestLayout()
    {
        const ProfilePtr p = loadOrFail(m_old);
        QVERIFY(p);
        QVERIFY(p->meta.nsysVersion.isEmpty());
        QVERIFY(p->meta.metadataTable.isEmpty());
        QCOMPARE(p->meta.sessionStartUtcNs, kNoTime);
        QCOMPARE(p->kernels.size(), std::size_t(1));
        QCOMPARE(p->kernels.mangledName[0], kNoString);
        QCOMPARE(p->cudaApi.start[std::size_t(p->kernels.api[0])], qint64(4000));
        QCOMPARE(p->gpus.size(), std::size_t(1));
        QCOMPARE(p->gpus[0].name, QStringLiteral("Quadro RTX 6000"));
        QCOMPARE(p->deviceLabel(p->kernels.process[0], 0), QStringLiteral("GPU 0 (Quadro RTX 6000)"));
        QCOMPARE(p->processes[std::size_t(p->kernels.process[0])].pid, 7);
        QCOMPARE(p->captureDurationNs(), qint64(9000 - 4000));
    }

    void partialLoad()
    {
        LoadOptions options;
        options.parts = LoadKernels;
        const LoadResult r = ProfileLoader::load(m_modern, options);
        QVERIFY(r.ok());
        QCOMPARE(r->profile->kernels.size(), std::size_t(4));
        QCOMPARE(r->profile->cudaApi.size(), std::size_t(0));
        QCOMPARE(r->profile->kernels.api[0], -1);
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expectedWords");
        QTest::addRow("missing file") << QStringLiteral("does-not-exist.sqlite") << QByteArray()
                                      << QStringLiteral("no such file");
        QTest::addRow("directory") << QStringLiteral("a-folder") << QByteArray() << QStringLiteral("is a directory");
        QTest::addRow("empty file") << QStringLiteral("empty.sqlite") << QByteArray("") << QStringLiteral("empty");
        QTest::addRow("text file") << QStringLiteral("notes.sqlite") << QByteArray("hello, world\n")
                                   << QStringLiteral("not an SQLite file");
        QTest::addRow("NVLink recording") << QStringLiteral("rec.sqlite") << QByteArray("NVF1\x01\x00\x28\x00", 8)
                                          << QStringLiteral("NVLink recording");
        QTest::addRow("sqlite but not nsys") << QStringLiteral("other.sqlite") << QByteArray("<other>")
                                             << QStringLiteral("not an Nsight Systems export");
        QTest::addRow("truncated export")
            << QStringLiteral("truncated.sqlite") << QByteArray("<truncated>") << QStringLiteral("truncated");
        QTest::addRow("corrupt page inside a table")
            << QStringLiteral("corrupt.sqlite") << QByteArray("<corrupt>") << QStringLiteral("corrupt");
    }
    void badInput()
    {
        QFETCH(QString, fileName);
        QFETCH(QByteArray, content);
        QFETCH(QString, expectedWords);
        const QString path = m_dir.filePath(fileName);
        if (fileName == QLatin1String("a-folder")) {
            QVERIFY(QDir(m_dir.path()).mkpath(fileName));
        } else if (content == "<other>") {
            SqliteFixture db(path);
            QVERIFY(db.exec(QStringLiteral("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup');")));
        } else if (content == "<truncated>" || content == "<corrupt>") {
            // A bigger export so that tables span many pages.
            SqliteFixture db(path);
            QString sql = QStringLiteral(
                "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
                "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId "
                "INTEGER, streamId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER);"
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
                "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT i * 10, i * 10 + 5, 0, 7, 0, 1, 1 FROM n;");
            QVERIFY2(db.exec(sql), qPrintable(db.lastError()));
            db.close();
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            if (content == "<truncated>") {
                QVERIFY(f.resize(f.size() / 2));
            } else {
                QVERIFY(f.seek(f.size() - 4096 * 3));
                f.write(QByteArray(4096, '\xAB'));
            }
        } else if (!content.isNull()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY(!r.ok());
        QVERIFY(!r.isCancelled());
        QVERIFY2(r.errorMessage().contains(path), qPrintable(r.errorMessage()));
        QVERIFY2(r.errorMessage().contains(expectedWords, Qt::CaseInsensitive), qPrintable(r.errorMessage()));
    }

    void noKernelsIsAWarningNotAnError()
    {
        const QString path = m_dir.filePath(QStringLiteral("nokernels.sqlite"));
        SqliteFixture db(path);
        QVERIFY(db.exec(QStringLiteral("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
                                       "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, eventClass INTEGER, "
                                       "globalTid INTEGER, nameId INTEGER);")));
        db.close();
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY(r.ok());
        QVERIFY2(r->profile->meta.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("no CUDA kernels")),
            qPrintable(r->profile->meta.warnings.join(QLatin1Char(' '))));
    }

    void manyNamesAndThreadsReadBackExactly_data()
    {
        QTest::addColumn<qint64>("chunkRows");
        QTest::addRow("one chunk: local indices past 2 bytes") << std::numeric_limits<qint64>::max();
        QTest::addRow("chunks of 25000: narrow per chunk, wide once merged") << qint64(25000);
    }
    void manyNamesAndThreadsReadBackExactly()
    {
        // 70,000 NVTX ranges and CUDA API calls, each with a name and a thread of its own: more than the 65,535
        // values an IndexColumn holds in 2 bytes, with StringIds ids past 100,000.
        QFETCH(qint64, chunkRows);
        const QString path = m_dir.filePath(QStringLiteral("manynames.sqlite"));
        if (!QFileInfo::exists(path)) {
            SqliteFixture db(path);
            QVERIFY(db.exec(QStringLiteral(
                "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
                "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, "
                "text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);"
                "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                "eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, "
                "returnValue INTEGER NOT NULL);"
                "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 69999) "
                "INSERT INTO StringIds SELECT 100000 + i, 'api name ' || i FROM n;"
                "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 69999) "
                "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) "
                "SELECT i * 10, i * 10 + 5, 59, 'range ' || i, (7 << 24) + 1000 + i FROM n;"
                "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 69999) "
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, "
                "returnValue) SELECT i * 10, i * 10 + 3, 0, (7 << 24) + 1000 + i, i + 1, 100000 + i, 0 FROM n;")));
        }
        LoadOptions options;
        options.chunkRows = chunkRows;
        const LoadResult r = ProfileLoader::load(path, options);
        QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
        const Profile& p = *r->profile;
        QCOMPARE(p.nvtx.size(), std::size_t(70000));
        QCOMPARE(p.cudaApi.size(), std::size_t(70000));
        for (std::size_t i = 0; i < 70000; ++i) {
            const int tid = 1000 + int(i);
            if (p.strings.at(p.nvtx.name[i]) != QStringLiteral("range %1").arg(i)
                || p.threads[std::size_t(p.nvtx.thread[i])].tid != tid
                || p.strings.at(p.cudaApi.name[i]) != QStringLiteral("api name %1").arg(i)
                || p.threads[std::size_t(p.cudaApi.thread[i])].tid != tid || p.nvtx.end[i] != TimeNs(i) * 10 + 5)
                QFAIL(qPrintable(QStringLiteral("row %1").arg(i)));
        }
    }

    void neverWritesNextToTheTrace()
    {
        // A copy in its own folder, switched to WAL mode: a plain read-only open of a WAL database would create
        // -wal and -shm files; immutable=1 must not.
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("trace.sqlite"));
        QString error;
        QVERIFY2(writeModernExport(path, &error), qPrintable(error));
        sqlite3* raw = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &raw), SQLITE_OK);
        QCOMPARE(sqlite3_exec(raw, "PRAGMA journal_mode=WAL;", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(raw);
        QFile(path).setPermissions(QFileDevice::ReadOwner | QFileDevice::ReadUser);
        const QByteArray hashBefore = fileHash(path);
        const QStringList listingBefore = folderListing(folder.path());
        QCOMPARE(listingBefore.size(), 1);
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
        QCOMPARE(r->profile->kernels.size(), std::size_t(4));
        QCOMPARE(fileHash(path), hashBefore);
        QCOMPARE(folderListing(folder.path()), listingBefore);
    }

    void cancelledLoadReportsCancel()
    {
        CancelToken cancel;
        cancel.cancel();
        const LoadResult r = ProfileLoader::load(m_modern, {}, JobContext(cancel));
        QVERIFY(!r.ok());
        QVERIFY(r.isCancelled());
        QVERIFY(r.errorMessage().contains(m_modern));
    }

    void progressEndsAtOne()
    {
        std::vector<double> fractions;
        QStringList stages;
        const LoadResult r = ProfileLoader::load(m_modern, {}, JobContext(CancelToken(), [&](const Progress& p) {
            fractions.push_back(p.fraction);
            stages.append(p.stage);
        }));
        QVERIFY(r.ok());
        QVERIFY(!fractions.empty());
        QCOMPARE(fractions.back(), 1.0);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QVERIFY(!r->timings.empty());
    }

    void chunkedScansGiveTheSameProfile_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<qint64>("chunkRows");
        QTest::addRow("modern export, one row per chunk") << m_modern << qint64(1);
        QTest::addRow("modern export, chunks of 3") << m_modern << qint64(3);
        const QString demo = demoExport();
        if (QFileInfo::exists(demo))
            QTest::addRow("demo profile, chunks of 777") << demo << qint64(777);
        for (const QString& t : sharedTraces())
            if (t.contains(QLatin1String("mfu_before")) || t.contains(QLatin1String("mordred")))
                QTest::addRow("%s, chunks of 500", qPrintable(QFileInfo(t).fileName())) << t << qint64(500);
    }
    void chunkedScansGiveTheSameProfile()
    {
        QFETCH(QString, path);
        QFETCH(qint64, chunkRows);
        LoadOptions whole;
        whole.chunkRows = std::numeric_limits<qint64>::max();
        LoadOptions chunked;
        chunked.chunkRows = chunkRows;
        const LoadResult a = ProfileLoader::load(path, whole);
        const LoadResult b = ProfileLoader::load(path, chunked);
        QVERIFY(a.ok() && b.ok());
        compareProfiles(*a->profile, *b->profile);
    }

    void stagedLoadGivesTheSameProfile_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<qint64>("chunkRows");
        QTest::addRow("modern export") << m_modern << qint64(2'000'000);
        QTest::addRow("modern export, chunks of 3") << m_modern << qint64(3);
        QTest::addRow("oldest layout") << m_old << qint64(2'000'000);
        QTest::addRow("demo profile") << demoExport() << qint64(2'000'000);
        for (const QString& t : sharedTraces())
            if (t.contains(QLatin1String("mfu_before")) || t.contains(QLatin1String("mordred")))
                QTest::addRow("%s", qPrintable(QFileInfo(t).fileName())) << t << qint64(2'000'000);
    }
    void stagedLoadGivesTheSameProfile()
    {
        // The window's staged load hands over kernels and memory operations first; the whole profile it returns is
        // the single-pass load's, and it shares (not copies) the first stage's columns.
        QFETCH(QString, path);
        QFETCH(qint64, chunkRows);
        LoadOptions options;
        options.chunkRows = chunkRows;
        const LoadResult single = ProfileLoader::load(path, options);
        QVERIFY2(single.ok(), qPrintable(single.errorMessage()));
        ProfilePtr first;
        int calls = 0;
        const LoadResult staged
            = ProfileLoader::load(path, options, {}, [&](const ProfilePtr& p, const LoadResult& soFar) {
                  ++calls;
                  first = p;
                  QVERIFY(soFar.ok());
                  QVERIFY(!soFar->profile);
              });
        QVERIFY2(staged.ok(), qPrintable(staged.errorMessage()));
        QCOMPARE(calls, 1);
        compareProfiles(*single->profile, *staged->profile);
        QCOMPARE(staged->profile->activityStart, single->profile->activityStart);
        QCOMPARE(staged->profile->activityEnd, single->profile->activityEnd);
        QCOMPARE(staged->profile->meta.warnings.size(), single->profile->meta.warnings.size());

        // The first stage: GPU tables whole, nothing of the second stage, no launch links yet.
        const Profile& a = *first;
        const Profile& whole = *staged->profile;
        QCOMPARE(a.kernels.size(), whole.kernels.size());
        QCOMPARE(a.memops.size(), whole.memops.size());
        QCOMPARE(a.cudaApi.size(), std::size_t(0));
        QCOMPARE(a.nvtx.size(), std::size_t(0));
        QCOMPARE(a.osrt.size(), std::size_t(0));
        QVERIFY(a.kernels.api.empty());
        QVERIFY(a.memops.api.empty());
        for (std::size_t i = 0; i < a.kernels.size(); ++i)
            QCOMPARE(a.strings.at(a.kernels.demangledName[i]), whole.strings.at(whole.kernels.demangledName[i]));
        if (whole.kernels.size() > 0) {
            QVERIFY(a.kernels.start.sharesStorageWith(whole.kernels.start));
            QVERIFY(a.kernels.demangledName.sharesStorageWith(whole.kernels.demangledName));
            QVERIFY(a.kernels.process.sharesStorageWith(whole.kernels.process));
            QVERIFY(!a.kernels.api.sharesStorageWith(whole.kernels.api));
        }
        if (whole.memops.size() > 0)
            QVERIFY(a.memops.bytes.sharesStorageWith(whole.memops.bytes));
    }

    void firstStageIsNeverWrittenAfterItsHandOver()
    {
        // What the window shows while the second stage runs must not change under it (no data race, no moving
        // vectors): sizes and a deep copy taken in the callback still hold after the load.
        ProfilePtr first;
        std::size_t strings = 0, processes = 0, threads = 0;
        std::vector<TimeNs> starts;
        const LoadResult staged
            = ProfileLoader::load(demoExport(), {}, {}, [&](const ProfilePtr& p, const LoadResult&) {
                  first = p;
                  strings = p->strings.size();
                  processes = p->processes.size();
                  threads = p->threads.size();
                  starts = p->kernels.start.toVector();
              });
        QVERIFY2(staged.ok(), qPrintable(staged.errorMessage()));
        QVERIFY(first);
        QVERIFY(staged->profile->strings.size() > strings); // API and NVTX names went into the whole profile only
        QCOMPARE(first->strings.size(), strings);
        QCOMPARE(first->processes.size(), processes);
        QCOMPARE(first->threads.size(), threads);
        QVERIFY(first->kernels.api.empty());
        QCOMPARE(first->cudaApi.size(), std::size_t(0));
        QCOMPARE(first->kernels.start.toVector(), starts);
        QVERIFY(staged->profile->cudaApi.size() > 0);
    }

    void cancelAtTheFirstStageCancelsTheLoad()
    {
        CancelToken cancel;
        bool handedOver = false;
        const LoadResult r
            = ProfileLoader::load(demoExport(), {}, JobContext(cancel), [&](const ProfilePtr&, const LoadResult&) {
                  handedOver = true;
                  cancel.cancel();
              });
        QVERIFY(handedOver);
        QVERIFY(!r.ok());
        QVERIFY(r.isCancelled());
    }

    void workbenchLoadKeepsTheFirstStageKernelIndex()
    {
        // The index built for the first stage serves the whole profile: same sorted data, bound to the whole profile.
        std::shared_ptr<LoadedProfile> first;
        const Result<LoadedProfile> loaded
            = loadForWorkbench(demoExport(), {}, [&](const std::shared_ptr<LoadedProfile>& f) { first = f; });
        QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
        const LoadedProfile& whole = *loaded;
        QVERIFY(first && first->kernelIndex);
        QVERIFY(!first->complete);
        QVERIFY(whole.complete);
        QCOMPARE(first->kernelIndex->profile(), first->profile);
        QCOMPARE(whole.kernelIndex->profile(), whole.profile);
        QCOMPARE(&whole.kernelIndex->order(), &first->kernelIndex->order());
        const KernelIndex fresh(whole.profile, KernelNameMode::Demangled);
        QCOMPARE(whole.kernelIndex->order(), fresh.order());
        QCOMPARE(whole.kernelIndex->groups().size(), fresh.groups().size());
    }

    void hostileValuesAreSkippedAndCounted_data()
    {
        // Constraint-free copies of the kernel table, so that NULLs can be written where nsys never writes them.
        const QString loose = QStringLiteral(
            "CREATE TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; "
            "ALTER TABLE k RENAME TO CUPTI_ACTIVITY_KIND_KERNEL; ");
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("warning");
        QTest::addRow("NULL start") << loose
                + QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL "
                                 "WHERE rowid = 1;")
                                    << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL: 1 rows skipped");
        QTest::addRow("text end") << QStringLiteral(
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 'soon' WHERE rowid = 2;")
                                  << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL: 1 rows skipped");
        QTest::addRow("real start") << QStringLiteral(
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 1.5 WHERE rowid = 2;")
                                    << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL: 1 rows skipped");
        QTest::addRow("end before start")
            << QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1 WHERE rowid IN (1, 3);")
            << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL: 2 rows skipped");
        QTest::addRow("extreme timestamps")
            << QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -9223372036854775807, "
                              "end = 9223372036854775807 WHERE rowid = 1; "
                              "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = 9223372036854775807 WHERE rowid = 2;")
            << QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME: 1 rows skipped");
        QTest::addRow("NVTX range ending before it starts")
            << QStringLiteral("UPDATE NVTX_EVENTS SET end = 700 WHERE start = 800;")
            << QStringLiteral("NVTX_EVENTS: 1 rows skipped");
        QTest::addRow("string id beyond 32 bits")
            << QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 1099511627776 WHERE rowid = 1;")
            << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL: 1 ids out of range");
        QTest::addRow("negative string id")
            << QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = -5 WHERE rowid = 1;")
            << QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME: 1 ids out of range");
        QTest::addRow("text string id") << QStringLiteral(
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = 'gemm' WHERE rowid = 2;")
                                        << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL: 1 ids out of range");
        QTest::addRow("device id 2^40") << QStringLiteral(
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 1099511627776 WHERE rowid = 3;")
                                        << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL: 1 ids out of range");
        QTest::addRow("correlation id 2^33")
            << QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET correlationId = 8589934593 WHERE rowid = 1;")
            << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL: 1 ids out of range");
        QTest::addRow("ThreadNames name ids negative and 2^31")
            << QStringLiteral("UPDATE ThreadNames SET nameId = -3 WHERE nameId = 7; "
                              "UPDATE ThreadNames SET nameId = 2147483648 WHERE nameId = 9;")
            << QStringLiteral("ThreadNames: 2 name ids out of range");
        QTest::addRow("StringIds trimmed") << QStringLiteral("DELETE FROM StringIds WHERE id = 4;")
                                           << QStringLiteral("1 string ids are missing from StringIds");
    }
    void hostileValuesAreSkippedAndCounted()
    {
        QFETCH(QString, sql);
        QFETCH(QString, warning);
        const QString path = alteredCopy(sql);
        QVERIFY(!path.isEmpty());
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
        QVERIFY2(
            r.warnings().join(QLatin1Char('\n')).contains(warning), qPrintable(r.warnings().join(QLatin1Char('\n'))));
        // Independently: the rows whose start and end are integers, in order, plausible (|t| <= 2^62, duration
        // <= 2^52 ns).
        const QString usable = QStringLiteral(
            "SELECT count(*) FROM %1 WHERE typeof(start) = 'integer' AND typeof(end) = 'integer' AND end >= start "
            "AND start >= -4611686018427387904 AND end <= 4611686018427387904 AND end - start <= 4503599627370496");
        QCOMPARE(qint64(r->profile->kernels.size()),
            countOf(path, usable.arg(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"))));
        QCOMPARE(qint64(r->profile->cudaApi.size()),
            countOf(path, usable.arg(QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"))));
        for (std::size_t i = 0; i < r->profile->kernels.size(); ++i)
            QVERIFY(r->profile->kernels.end[i] >= r->profile->kernels.start[i]);
        for (const ThreadInfo& t : r->profile->threads)
            QVERIFY(!t.name.contains(QLatin1String("missing string -")));
    }

    void sparseRowidsMakeFewChunks_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addRow("one row at rowid 2^62")
            << QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET rowid = 4611686018427387904 WHERE rowid = 4;");
        QTest::addRow("rows at INT64_MIN + 1 and INT64_MAX")
            << QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET rowid = -9223372036854775807 WHERE rowid = 1; "
                              "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET rowid = 9223372036854775807 WHERE rowid = 4;");
        QTest::addRow("gaps of 10^15 between all rows")
            << QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET rowid = rowid * 1000000000000000;");
    }
    void sparseRowidsMakeFewChunks()
    {
        QFETCH(QString, sql);
        const QString path = alteredCopy(sql);
        QVERIFY(!path.isEmpty());
        for (const qint64 chunkRows : { qint64(1), qint64(2), qint64(2'000'000) }) {
            LoadOptions options;
            options.chunkRows = chunkRows;
            const LoadResult r = ProfileLoader::load(path, options);
            QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
            // Rowid order, as SQLite returns it.
            const QList<QStringList> rows
                = queryRows(path, QStringLiteral("SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid"));
            QCOMPARE(qsizetype(r->profile->kernels.size()), rows.size());
            for (qsizetype i = 0; i < rows.size(); ++i)
                QCOMPARE(r->profile->kernels.start[std::size_t(i)], rows[i][0].toLongLong());
        }
    }

    void chunkPlanFollowsRowsNotRowids_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<qint64>("chunkRows");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<qint64>("estimated"); // the rows the progress counts towards; -1: not known (walked rowids)
        const QString gap
            = QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET rowid = 4611686018427387904 WHERE rowid = 4;");
        const QString extremes
            = QStringLiteral("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET rowid = -9223372036854775807 WHERE rowid = 1; "
                             "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET rowid = 9223372036854775807 WHERE rowid = 4;");
        // Four rows: ceil(4 / chunkRows) chunks whatever the rowids.
        // The dense tables' estimates add up to the real count ("Reading kernels 4.0M/6.0M" counted a last chunk
        // of 10k rows as a whole 2M one).
        QTest::addRow("dense rowids, chunks of 1") << QStringLiteral("SELECT 1;") << qint64(1) << 4 << qint64(4);
        QTest::addRow("dense rowids, chunks of 3") << QStringLiteral("SELECT 1;") << qint64(3) << 2 << qint64(4);
        // 131 rows, rowids 1..131 (each INSERT doubles the table, the last adds 3): 66 chunks of 2. Each chunk's
        // edges are rows: its chunks are split by arithmetic, not by walking every rowid (which reads the whole
        // table), and the last one counts 1 row, not 2.
        const QString grow
            = QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;")
                  .repeated(5)
            + QStringLiteral(
                "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 3;");
        QTest::addRow("dense rowids, 66 chunks of 2") << grow << qint64(2) << 66 << qint64(131);
        // Rowid 5 missing: the chunk from 5 starts on no row, so the rowids are walked (65 chunks for 130 rows).
        QTest::addRow("a gap at a chunk's edge, 130 rows in chunks of 2")
            << grow + QStringLiteral("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = 5;") << qint64(2) << 65
            << qint64(-1);
        // Rowid 5 missing in chunks of 3: every chunk's edges are rows, the gap is inside the chunk [4, 7):
        // arithmetic chunks, whose estimates count the missing row.
        QTest::addRow("a gap inside a chunk, 130 rows in chunks of 3")
            << grow + QStringLiteral("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = 5;") << qint64(3) << 44
            << qint64(131);
        QTest::addRow("row at 2^62, chunks of 1") << gap << qint64(1) << 4 << qint64(-1);
        QTest::addRow("row at 2^62, chunks of 3") << gap << qint64(3) << 2 << qint64(-1);
        QTest::addRow("row at 2^62, chunks of 2M") << gap << qint64(2'000'000) << 1 << qint64(-1);
        QTest::addRow("rowids at both extremes, chunks of 1") << extremes << qint64(1) << 4 << qint64(-1);
        QTest::addRow("rowids at both extremes, one chunk asked")
            << extremes << std::numeric_limits<qint64>::max() << 1 << qint64(-1);
    }
    void chunkPlanFollowsRowsNotRowids()
    {
        QFETCH(QString, sql);
        QFETCH(qint64, chunkRows);
        QFETCH(int, chunks);
        QFETCH(qint64, estimated);
        const QString path = alteredCopy(sql);
        QVERIFY(!path.isEmpty());
        QString error;
        const auto db = SqliteDb::open(path, &error);
        QVERIFY2(db, qPrintable(error));
        const Result<std::vector<RowRange>> plan
            = planChunks(*db, QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"), chunkRows);
        QVERIFY2(plan.ok(), qPrintable(plan.errorMessage()));
        QCOMPARE(int(plan->size()), chunks);
        for (const RowRange& r : *plan)
            QVERIFY(r.estimatedRows <= chunkRows && r.estimatedRows <= (qint64(1) << 24));
        QVERIFY(!plan->front().lower && !plan->back().upper);
        qint64 sum = 0;
        for (const RowRange& r : *plan)
            sum += r.estimatedRows;
        if (estimated >= 0)
            QCOMPARE(sum, estimated);
    }

    void viewsInPlaceOfTablesAreRefused_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("view");
        QTest::addRow("recursive StringIds view")
            << QStringLiteral("DROP TABLE StringIds; CREATE VIEW StringIds AS WITH RECURSIVE n(id) AS (SELECT 1 "
                              "UNION ALL SELECT id + 1 FROM n) SELECT id, 'x' AS value FROM n;")
            << QStringLiteral("StringIds");
        QTest::addRow("kernel table as a view")
            << QStringLiteral("CREATE TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE "
                              "CUPTI_ACTIVITY_KIND_KERNEL; CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT * FROM k;")
            << QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL");
    }
    void viewsInPlaceOfTablesAreRefused()
    {
        QFETCH(QString, sql);
        QFETCH(QString, view);
        const QString path = alteredCopy(sql);
        QVERIFY(!path.isEmpty());
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.errorMessage().contains(path) && r.errorMessage().contains(view + QStringLiteral(" is a view")),
            qPrintable(r.errorMessage()));
    }

    void corruptTableIsAnErrorNamingIt()
    {
        // The kernel table's root page (a leaf: four rows) overwritten with garbage.
        const QString path = alteredCopy(QStringLiteral("VACUUM;"));
        QVERIFY(!path.isEmpty());
        const qint64 page = countOf(
            path, QStringLiteral("SELECT rootpage FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'"));
        const qint64 pageSize = countOf(path, QStringLiteral("PRAGMA page_size"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.seek((page - 1) * pageSize));
        f.write(QByteArray(int(pageSize), '\x7f'));
        f.close();
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY(!r.ok());
        QVERIFY2(
            r.errorMessage().contains(path) && r.errorMessage().contains(QLatin1String("CUPTI_ACTIVITY_KIND_KERNEL")),
            qPrintable(r.errorMessage()));
    }

    void walLogIsReadWithoutWritingNextToTheTrace()
    {
        // A writer keeps the database open in WAL mode with rows only in the log (-wal and -shm exist).
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("trace.sqlite"));
        sqlite3* writer = writerOnNewExport(path,
            "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL "
            "SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;");
        QVERIFY(writer);
        const QStringList listing = folderListing(folder.path());
        QVERIFY(QFileInfo::exists(path + QStringLiteral("-wal")) && QFileInfo::exists(path + QStringLiteral("-shm")));
        const LoadResult r = ProfileLoader::load(path);
        QVERIFY2(r.ok(), qPrintable(r.errorMessage()));
        QCOMPARE(r->profile->kernels.size(), std::size_t(8));
        QVERIFY(r->sqliteAccess.contains(QLatin1String("WAL")));
        QCOMPARE(folderListing(folder.path()), listing);

        // The same two files without the -shm (copied while the writer was open): a clear refusal, nothing created.
        QTemporaryDir copy;
        const QString copied = copy.filePath(QStringLiteral("trace.sqlite"));
        QVERIFY(QFile::copy(path, copied));
        QVERIFY(QFile::copy(path + QStringLiteral("-wal"), copied + QStringLiteral("-wal")));
        sqlite3_close(writer);
        const QStringList copyListing = folderListing(copy.path());
        const LoadResult refused = ProfileLoader::load(copied);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.errorMessage().contains(copied)
                && refused.errorMessage().contains(QLatin1String("write-ahead log")),
            qPrintable(refused.errorMessage()));
        QCOMPARE(folderListing(copy.path()), copyListing);
    }

    void fileLockedByAWriterIsInUse()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("trace.sqlite"));
        sqlite3* writer = writerOnNewExport(
            path, "BEGIN EXCLUSIVE; INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;");
        QVERIFY(writer);
        QVERIFY(QFileInfo::exists(path + QStringLiteral("-journal")));
        const LoadResult r = ProfileLoader::load(path);
        sqlite3_exec(writer, "ROLLBACK;", nullptr, nullptr, nullptr);
        sqlite3_close(writer);
        QVERIFY(!r.ok());
        QVERIFY2(
            r.errorMessage().contains(path) && r.errorMessage().contains(QLatin1String("in use by another process")),
            qPrintable(r.errorMessage()));
    }

    // A writer that died mid-transaction leaves a hot journal: reading would roll it back (a write next to the trace).
    void hotJournalIsRefusedAndKept()
    {
        QTemporaryDir folder, crashed;
        const QString path = folder.filePath(QStringLiteral("trace.sqlite"));
        // A one-page cache spills the transaction's pages into the file, their originals into the journal.
        sqlite3* writer = writerOnNewExport(path,
            "PRAGMA cache_size=1; BEGIN EXCLUSIVE; DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL; DELETE FROM StringIds;");
        QVERIFY(writer);
        // The files as a crash would leave them: changed pages in the file, never committed or rolled back.
        const QString copy = crashed.filePath(QStringLiteral("trace.sqlite"));
        QVERIFY(QFile::copy(path, copy));
        QVERIFY(QFile::copy(path + QStringLiteral("-journal"), copy + QStringLiteral("-journal")));
        sqlite3_exec(writer, "ROLLBACK;", nullptr, nullptr, nullptr);
        sqlite3_close(writer);
        const QStringList before = folderListing(crashed.path());
        const LoadResult r = ProfileLoader::load(copy);
        QVERIFY(!r.ok());
        QVERIFY2(r.errorMessage().contains(copy)
                && r.errorMessage().contains(QLatin1String("left by a writer that did not finish")),
            qPrintable(r.errorMessage()));
        QCOMPARE(folderListing(crashed.path()), before);
        QVERIFY(QFileInfo(copy + QStringLiteral("-journal")).size() > 0);
    }

    void cancelMidWay_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addRow("while opening") << QStringLiteral("Opening");
        QTest::addRow("while resolving names") << QStringLiteral("Resolving names");
        QTest::addRow("while joining correlation ids") << QStringLiteral("Joining GPU work to API calls");
        QTest::addRow("while indexing kernels") << QStringLiteral("Indexing kernels");
    }
    void cancelMidWay()
    {
        // The flag is set from the progress callback when the stage begins: the load is then inside that stage.
        QFETCH(QString, stage);
        CancelToken cancel;
        QStringList seen;
        const Result<LoadedProfile> loaded = loadForWorkbench(demoExport(), JobContext(cancel, [&](const Progress& p) {
            seen.append(p.stage);
            if (p.stage.startsWith(stage))
                cancel.cancel();
        }));
        QVERIFY2(cancel.isCancelled(), qPrintable(seen.join(QLatin1Char(','))));
        QVERIFY(loaded.isCancelled());
        QVERIFY(!seen.contains(QStringLiteral("Done")) || stage == QLatin1String("Indexing kernels"));
    }

    void qtSqlAccessGivesTheSameProfile_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addRow("modern export") << m_modern;
        QTest::addRow("oldest layout") << m_old;
        for (const OracleExport& e : oracleExports())
            if (e.label.contains(QLatin1String("2021")) || e.label.contains(QLatin1String("2026.2"))
                || e.label == QLatin1String("demo"))
                QTest::addRow("%s", qPrintable(e.label)) << e.path;
    }
    void qtSqlAccessGivesTheSameProfile()
    {
        QFETCH(QString, path);
        const LoadResult native = ProfileLoader::load(path);
        qputenv("NSW_SQLITE_ACCESS", "qtsql");
        LoadOptions chunked;
        chunked.chunkRows = 1000;
        const LoadResult viaQt = ProfileLoader::load(path, chunked);
        qunsetenv("NSW_SQLITE_ACCESS");
        QVERIFY2(native.ok() && viaQt.ok(), qPrintable(native.errorMessage() + viaQt.errorMessage()));
        QVERIFY2(native->sqliteAccess.startsWith(QLatin1String("native handle")), qPrintable(native->sqliteAccess));
        QVERIFY2(viaQt->sqliteAccess.startsWith(QLatin1String("Qt SQL")), qPrintable(viaQt->sqliteAccess));
        compareProfiles(*native->profile, *viaQt->profile);
        QCOMPARE(viaQt.warnings(), native.warnings());
        QCOMPARE(viaQt->profile->gpus.size(), native->profile->gpus.size());
        QCOMPARE(viaQt->profile->meta.nsysVersion, native->profile->meta.nsysVersion);
    }

    void severalLoadsAtOnce()
    {
        std::optional<LoadResult> a, b;
        std::thread ta([&]() { a = ProfileLoader::load(m_modern); });
        std::thread tb([&]() { b = ProfileLoader::load(m_old); });
        ta.join();
        tb.join();
        QVERIFY(a->ok() && b->ok());
        QCOMPARE((*a)->profile->kernels.size(), std::size_t(4));
        QCOMPARE((*b)->profile->kernels.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestProfileLoader)
#include "tst_profileloader.moc"

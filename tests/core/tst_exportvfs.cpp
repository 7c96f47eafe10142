// SPDX-License-Identifier: GPL-3.0-or-later
// An immutable export read by the default VFS or around the page cache (the export VFS) gives the same rows, checked
// against the formula that wrote them; a file truncated while it is read ends the statement with an error in both,
// never rows of zeros taken for data.
#include "core/sqlite/exportvfs.h"
#include "core/sqlite/sqlitedb.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>
#include <unistd.h>

using namespace nsw;

namespace {

/// Twelve MiB or so: more blocks than a direct reader holds.
constexpr qint64 kRows = 400000;

qint64 valueOf(qint64 i)
{
    return i * 7919 % 1000003;
}

QByteArray labelOf(qint64 i)
{
    return "row-" + QByteArray::number(i) + "-with-some-padding-to-fill-pages";
}

/// A table written row by row, on the build's disk (a tmpfs may refuse O_DIRECT); empty on failure.
QString writeExport(const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("rows.sqlite"));
    sqlite3* db = nullptr;
    bool ok = sqlite3_open(QFile::encodeName(path).constData(), &db) == SQLITE_OK
        && sqlite3_exec(db, "CREATE TABLE Rows (id INTEGER PRIMARY KEY, value INTEGER, label TEXT); BEGIN", nullptr,
               nullptr, nullptr)
            == SQLITE_OK;
    sqlite3_stmt* insert = nullptr;
    ok = ok && sqlite3_prepare_v2(db, "INSERT INTO Rows VALUES (?, ?, ?)", -1, &insert, nullptr) == SQLITE_OK;
    for (qint64 i = 1; ok && i <= kRows; ++i) {
        const QByteArray label = labelOf(i);
        sqlite3_bind_int64(insert, 1, i);
        sqlite3_bind_int64(insert, 2, valueOf(i));
        sqlite3_bind_text(insert, 3, label.constData(), int(label.size()), SQLITE_TRANSIENT);
        ok = sqlite3_step(insert) == SQLITE_DONE && sqlite3_reset(insert) == SQLITE_OK;
    }
    sqlite3_finalize(insert);
    ok = ok && sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok ? path : QString();
}

/// Reads exports in @p mode for the length of a test.
class ReadModeSetting
{
public:
    explicit ReadModeSetting(const QByteArray& mode) { qputenv("NSW_SQLITE_READ", mode); }
    ~ReadModeSetting() { qunsetenv("NSW_SQLITE_READ"); }
};

void addModeRows()
{
    QTest::addColumn<QByteArray>("mode");
    QTest::addColumn<QString>("openMode");
    QTest::newRow("default VFS") << QByteArray("default") << QStringLiteral("immutable");
    QTest::newRow("around the page cache")
        << QByteArray("direct") << QStringLiteral("immutable, read around the page cache");
}

struct Fixture
{
    QTemporaryDir dir { QCoreApplication::applicationDirPath() + QStringLiteral("/exportvfs-XXXXXX") };
    QString path = writeExport(dir);
    QString error;

    /// The export opened as SqliteDb opens it; null (and error set) on failure.
    std::unique_ptr<SqliteDb> open() { return path.isEmpty() ? nullptr : SqliteDb::open(path, &error); }
};

} // namespace

class TestExportVfs : public QObject
{
    Q_OBJECT

private slots:
    void everyModeReadsTheSameRows_data() { addModeRows(); }

    void everyModeReadsTheSameRows()
    {
        QFETCH(QByteArray, mode);
        QFETCH(QString, openMode);
        const ReadModeSetting setting(mode);
        Fixture f;
        const std::unique_ptr<SqliteDb> db = f.open();
        QVERIFY2(db, qPrintable(f.path.isEmpty() ? QStringLiteral("no export written") : f.error));
        QCOMPARE(db->openMode(), openMode);

        qint64 count = 0, valueSum = 0, labelBytes = 0, expectedValues = 0, expectedBytes = 0;
        Statement st(*db, QStringLiteral("SELECT id, value, label FROM Rows"));
        while (st.step() == Statement::Step::Row) {
            ++count;
            QCOMPARE(st.int64(1), valueOf(st.int64(0)));
            valueSum += st.int64(1);
            labelBytes += qint64(st.bytes(2).size());
        }
        QVERIFY2(st.error().isEmpty(), qPrintable(st.error()));
        for (qint64 i = 1; i <= kRows; ++i) {
            expectedValues += valueOf(i);
            expectedBytes += labelOf(i).size();
        }
        QCOMPARE(count, kRows);
        QCOMPARE(valueSum, expectedValues);
        QCOMPARE(labelBytes, expectedBytes);
        // A lookup by key goes down the b-tree, not along it.
        Statement one(*db, QStringLiteral("SELECT label FROM Rows WHERE id = 314159"));
        QCOMPARE(one.step(), Statement::Step::Row);
        QCOMPARE(QByteArray(one.bytes(0).data(), qsizetype(one.bytes(0).size())), labelOf(314159));
    }

    void truncatedWhileReadIsAnError_data() { addModeRows(); }

    void truncatedWhileReadIsAnError()
    {
        QFETCH(QByteArray, mode);
        const ReadModeSetting setting(mode);
        Fixture f;
        const std::unique_ptr<SqliteDb> db = f.open();
        QVERIFY2(db, qPrintable(f.path.isEmpty() ? QStringLiteral("no export written") : f.error));
        Statement st(*db, QStringLiteral("SELECT id, value FROM Rows"));
        for (int i = 0; i < 10; ++i)
            QCOMPARE(st.step(), Statement::Step::Row);
        QCOMPARE(::truncate(QFile::encodeName(f.path).constData(), 8192), 0);
        Statement::Step step;
        qint64 rows = 10;
        while ((step = st.step()) == Statement::Step::Row) {
            QCOMPARE(st.int64(1), valueOf(st.int64(0))); // rows still given are real ones
            ++rows;
        }
        QCOMPARE(step, Statement::Step::Error);
        QVERIFY(rows < kRows);
    }

    /// Direct past half the memory (MemTotal of /proc/meminfo here), unless NSW_SQLITE_READ says otherwise.
    void modeFollowsTheFileAndTheMemory_data()
    {
        QTest::addColumn<QByteArray>("setting");
        QTest::addColumn<double>("fractionOfMemory");
        QTest::addColumn<int>("mode");
        const int byDefault = int(exportvfs::ReadMode::Default);
        const int direct = int(exportvfs::ReadMode::Direct);
        QTest::newRow("a small export") << QByteArray() << 0.0001 << byDefault;
        QTest::newRow("a quarter of the memory") << QByteArray() << 0.25 << byDefault;
        QTest::newRow("as large as the memory") << QByteArray() << 1.0 << direct;
        QTest::newRow("small, direct forced") << QByteArray("direct") << 0.0001 << direct;
        QTest::newRow("large, default forced") << QByteArray("default") << 1.0 << byDefault;
    }

    void modeFollowsTheFileAndTheMemory()
    {
        QFETCH(QByteArray, setting);
        QFETCH(double, fractionOfMemory);
        QFETCH(int, mode);
        QFile meminfo(QStringLiteral("/proc/meminfo"));
        QVERIFY(meminfo.open(QIODevice::ReadOnly));
        const QList<QByteArray> total = meminfo.readLine().simplified().split(' '); // "MemTotal: N kB"
        QCOMPARE(total.value(0), QByteArray("MemTotal:"));
        const double memoryBytes = total.value(1).toDouble() * 1024;
        const ReadModeSetting forced(setting);
        if (setting.isEmpty())
            qunsetenv("NSW_SQLITE_READ");
        QCOMPARE(int(exportvfs::modeFor(std::int64_t(memoryBytes * fractionOfMemory))), mode);
    }

    /// A file that is not immutable (a -journal beside it) is never read around the page cache.
    void onlyImmutableFilesGoThroughTheVfs()
    {
        Fixture f;
        QVERIFY(!f.path.isEmpty());
        const ReadModeSetting setting("direct");
        QFile journal(f.path + QStringLiteral("-journal"));
        QVERIFY(journal.open(QIODevice::WriteOnly));
        QVERIFY(journal.write(QByteArray(512, '\0')) == 512);
        journal.close();
        const std::unique_ptr<SqliteDb> db = f.open();
        QVERIFY2(db, qPrintable(f.error));
        QCOMPARE(db->openMode(), QStringLiteral("read-only (rollback journal present)"));
        QCOMPARE(exportvfs::modeOf(db->handle()), exportvfs::ReadMode::Default);
    }
};

QTEST_GUILESS_MAIN(TestExportVfs)
#include "tst_exportvfs.moc"

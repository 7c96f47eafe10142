// SPDX-License-Identifier: GPL-3.0-or-later
// pid 100: memcpy HtoD 4000 bytes [100, 300] (cudaMemcpyAsync), HtoD 2000 bytes [400, 500], DtoH 1000 bytes
// [600, 1100], a memset 64 bytes [1200, 1210]; a blocking cudaMemcpy call [2000, 2500] without a GPU op.
// By direction: HtoD 2 copies 6000 bytes in 300 ns (20 GB/s), DtoH 1 copy 1000 bytes in 500 ns (2 GB/s), memset.
// Kinds (in the profile's columns, as the export's would give them): the first HtoD pageable -> device (issued
// async), the second pinned -> device, the DtoH device -> pageable; the memset's device memory is no memcpy's kind.
#include "core/diagnostics/memorytransfers.h"
#include "profilebuilder.h"
#include "sqlitefixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// @p withKinds: the memory kinds as the export's columns give them (a memset's source is its memKind, here device).
ProfilePtr fixture(bool withKinds = false)
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    b.memOp(t, 0, 10, 100, 300, 1, 4000);
    b.memOp(t, 300, 310, 400, 500, 1, 2000);
    b.memOp(t, 500, 510, 600, 1100, 2, 1000);
    b.memOp(t, 1100, 1110, 1200, 1210, MemOpTable::kMemset, 64);
    b.apiCall(t, 2000, 2500, QStringLiteral("cudaMemcpy_v3020"));
    if (withKinds) {
        MemOpTable& m = b.profile().memops;
        for (const int source : { 0, 1, 2, 2 })
            m.srcKind.push_back(std::uint8_t(source));
        for (const int destination : { 2, 2, 0, int(MemOpTable::kNoMemKind) })
            m.dstKind.push_back(std::uint8_t(destination));
    }
    return b.build();
}

} // namespace

class TestMemoryTransfers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void byDirection_data();
    void byDirection();
    void byKind_data();
    void byKind();
    void pageableAndSync();
    void kindsMissing();
    void kindsExported_data();
    void kindsExported();
};

void TestMemoryTransfers::byDirection_data()
{
    QTest::addColumn<QString>("direction");
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<double>("gbps");
    QTest::newRow("HtoD") << QStringLiteral("Host-to-Device") << qint64(2) << qint64(6000) << qint64(300) << 20.0;
    QTest::newRow("DtoH") << QStringLiteral("Device-to-Host") << qint64(1) << qint64(1000) << qint64(500) << 2.0;
    QTest::newRow("memset") << QStringLiteral("memset") << qint64(1) << qint64(64) << qint64(10) << 6.4;
}

void TestMemoryTransfers::byDirection()
{
    QFETCH(QString, direction);
    QFETCH(qint64, count);
    QFETCH(qint64, bytes);
    QFETCH(qint64, time);
    QFETCH(double, gbps);
    const ProfilePtr p = fixture();
    const MemoryResult r = computeMemoryTransfers(makeAnalysisContext(p), false);
    QCOMPARE(r.copies, qint64(3));
    for (const MemoryTransferRow& m : r.byDirection) {
        if (m.direction != direction)
            continue;
        QCOMPARE(m.count, count);
        QCOMPARE(m.bytes, bytes);
        QCOMPARE(m.totalNs, time);
        QCOMPARE(m.gbPerSecond(), gbps);
        return;
    }
    QFAIL("direction missing");
}

void TestMemoryTransfers::byKind_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("pageable to device") << QStringLiteral("Pageable -> Device") << qint64(4000);
    QTest::newRow("pinned to device") << QStringLiteral("Pinned -> Device") << qint64(2000);
    QTest::newRow("device to pageable") << QStringLiteral("Device -> Pageable") << qint64(1000);
}

void TestMemoryTransfers::byKind()
{
    QFETCH(QString, kind);
    QFETCH(qint64, bytes);
    const MemoryResult r = computeMemoryTransfers(makeAnalysisContext(fixture(true)), true);
    QVERIFY(r.kindsKnown);
    QCOMPARE(r.byKind.size(), std::size_t(3));
    for (const MemoryTransferRow& m : r.byKind) {
        if (m.memoryKind != kind)
            continue;
        QCOMPARE(m.count, qint64(1));
        QCOMPARE(m.bytes, bytes);
        return;
    }
    QFAIL("kind missing");
}

void TestMemoryTransfers::pageableAndSync()
{
    const MemoryResult r = computeMemoryTransfers(makeAnalysisContext(fixture(true)), true);
    QCOMPARE(r.pageableCopies, qint64(2));
    QCOMPARE(r.pageableBytes, qint64(5000));
    QCOMPARE(r.pageableNs, TimeNs(700));
    QCOMPARE(r.pageableAsyncCopies, qint64(2)); // both issued by cudaMemcpyAsync (the builder's call)
    QCOMPARE(r.syncCopyCalls, qint64(1));
    QCOMPARE(r.syncCopyApiNs, TimeNs(500));
    QCOMPARE(r.syncCopyApis, QStringList { QStringLiteral("cudaMemcpy_v3020") });
}

void TestMemoryTransfers::kindsMissing()
{
    const MemoryResult r = computeMemoryTransfers(makeAnalysisContext(fixture()), false, QStringLiteral("why"));
    QVERIFY(!r.kindsKnown);
    QCOMPARE(r.kindsMissing, QStringLiteral("why"));
    QVERIFY(r.byKind.empty());
    QCOMPARE(r.pageableCopies, qint64(0));
}

void TestMemoryTransfers::kindsExported_data()
{
    QTest::addColumn<QString>("schema");
    QTest::addColumn<bool>("exported");
    QTest::addColumn<int>("errorKind");
    QTest::addColumn<QString>("message");
    QTest::newRow("both kind columns")
        << u"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT, end INT, srcKind INT, dstKind INT);"_s << true << -1
        << QString();
    QTest::newRow("no destination kind (an older export)")
        << u"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT, end INT, srcKind INT);"_s << false
        << int(ErrorKind::NoData) << u"CUPTI_ACTIVITY_KIND_MEMCPY has no dstKind column"_s;
    QTest::newRow("no memcpy table") << u"CREATE TABLE StringIds (id INT, value TEXT);"_s << false
                                     << int(ErrorKind::NoData) << u"no CUPTI_ACTIVITY_KIND_MEMCPY table"_s;
    QTest::newRow("not SQLite") << QString() << false << int(ErrorKind::Input) << u"export.sqlite"_s;
}

void TestMemoryTransfers::kindsExported()
{
    QFETCH(QString, schema);
    QFETCH(bool, exported);
    QFETCH(int, errorKind);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"export.sqlite"_s);
    if (schema.isEmpty()) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a database, but long enough to have a header of its own................................");
    } else {
        test::SqliteFixture db(path);
        QVERIFY2(db.exec(schema), qPrintable(db.lastError()));
    }
    const Result<bool> r = memcpyKindsExported(path);
    QCOMPARE(bool(r), exported);
    if (exported)
        return;
    QCOMPARE(int(r.error().kind), errorKind);
    QVERIFY2(r.errorMessage().contains(message), qPrintable(r.errorMessage()));
    QVERIFY2(r.errorMessage().contains(path), qPrintable(r.errorMessage()));
}

QTEST_GUILESS_MAIN(TestMemoryTransfers)
#include "tst_memorytransfers.moc"

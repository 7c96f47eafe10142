// SPDX-License-Identifier: GPL-3.0-or-later
// pid 100: memcpy HtoD 4000 bytes [100, 300] (cudaMemcpyAsync), HtoD 2000 bytes [400, 500], DtoH 1000 bytes
// [600, 1100], a memset 64 bytes [1200, 1210]; a blocking cudaMemcpy call [2000, 2500] without a GPU op.
// By direction: HtoD 2 copies 6000 bytes in 300 ns (20 GB/s), DtoH 1 copy 1000 bytes in 500 ns (2 GB/s), memset.
// Kinds (given as the export's columns would): the first HtoD pageable -> device (issued async), the second pinned
// -> device, the DtoH device -> pageable.
#include "core/diagnostics/memorytransfers.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    b.memOp(t, 0, 10, 100, 300, 1, 4000);
    b.memOp(t, 300, 310, 400, 500, 1, 2000);
    b.memOp(t, 500, 510, 600, 1100, 2, 1000);
    b.memOp(t, 1100, 1110, 1200, 1210, MemOpTable::kMemset, 64);
    b.apiCall(t, 2000, 2500, QStringLiteral("cudaMemcpy_v3020"));
    return b.build();
}

MemcpyKindRows kinds(const Profile& p)
{
    MemcpyKindRows k;
    const std::int16_t src[] = { 0, 1, 2 }, dst[] = { 2, 2, 0 };
    for (std::size_t i = 0; i < 3; ++i) {
        k.start.push_back(p.memops.start[i]);
        k.end.push_back(p.memops.end[i]);
        k.bytes.push_back(p.memops.bytes[i]);
        k.copyKind.push_back(p.memops.copyKind[i]);
        k.srcKind.push_back(src[i]);
        k.dstKind.push_back(dst[i]);
        k.pid.push_back(100);
        k.correlation.push_back(p.memops.correlation[i]);
    }
    return k;
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
    const MemoryResult r = computeMemoryTransfers(makeAnalysisContext(p), nullptr);
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
    const ProfilePtr p = fixture();
    const MemcpyKindRows k = kinds(*p);
    const MemoryResult r = computeMemoryTransfers(makeAnalysisContext(p), &k);
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
    const ProfilePtr p = fixture();
    const MemcpyKindRows k = kinds(*p);
    const MemoryResult r = computeMemoryTransfers(makeAnalysisContext(p), &k);
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
    const MemoryResult r = computeMemoryTransfers(makeAnalysisContext(fixture()), nullptr, QStringLiteral("why"));
    QVERIFY(!r.kindsKnown);
    QCOMPARE(r.kindsMissing, QStringLiteral("why"));
    QVERIFY(r.byKind.empty());
    QCOMPARE(r.pageableCopies, qint64(0));
}

QTEST_GUILESS_MAIN(TestMemoryTransfers)
#include "tst_memorytransfers.moc"

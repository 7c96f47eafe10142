// SPDX-License-Identifier: GPL-3.0-or-later
// Stream concurrency on a hand-worked profile, window [0, 300] ns (calls at 0 and 300):
//   device 0: stream 7 kernels [0, 100], [90, 100] (inside the first: counted once) and [150, 200]; stream 8 a memcpy
//   [50, 120]; stream 9 a kernel [60, 80].
//     0-50: 1 stream, 50-60: 2, 60-80: 3, 80-100: 2, 100-120: 1, 120-150: 0, 150-200: 1, 200-300: 0
//     -> 0: 130, 1: 120, 2: 30, 3: 20 (adds up to 300).
//   device 1: one kernel [0, 300] on stream 7 -> 1: 300. Never added to device 0's.
#include "core/diagnostics/streamconcurrency.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

namespace {

ProfilePtr fixture()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    b.apiCall(t, 0, 1, QStringLiteral("cudaGetDevice"));
    b.kernel(t, 0, 1, 0, 100, QStringLiteral("a"), 0, 7);
    b.kernel(t, 0, 1, 90, 100, QStringLiteral("a"), 0, 7);
    b.kernel(t, 0, 1, 150, 200, QStringLiteral("a"), 0, 7);
    b.memOp(t, 0, 1, 50, 120, 1, 64, 0, 8);
    b.kernel(t, 0, 1, 60, 80, QStringLiteral("b"), 0, 9);
    b.kernel(t, 0, 1, 0, 300, QStringLiteral("c"), 1, 7);
    b.apiCall(t, 299, 300, QStringLiteral("cudaGetDevice"));
    return b.build();
}

} // namespace

class TestStreamConcurrency : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void perDevice_data();
    void perDevice();
    void focus();
};

void TestStreamConcurrency::perDevice_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<QList<qint64>>("times");
    QTest::addColumn<double>("mean");
    QTest::newRow("device 0: up to three streams")
        << 0 << QList<qint64> { 130, 120, 30, 20 } << (120.0 + 2 * 30 + 3 * 20) / 170.0;
    QTest::newRow("device 1: one stream all the time") << 1 << QList<qint64> { 0, 300 } << 1.0;
}

void TestStreamConcurrency::perDevice()
{
    QFETCH(int, device);
    QFETCH(QList<qint64>, times);
    QFETCH(double, mean);
    const std::vector<DeviceConcurrency> r = computeStreamConcurrency(makeAnalysisContext(fixture()));
    QCOMPARE(r.size(), std::size_t(2));
    const DeviceConcurrency& d = r[std::size_t(device)];
    QCOMPARE(d.device, device);
    QCOMPARE(d.spanNs, TimeNs(300));
    QCOMPARE(QList<qint64>(d.timeWithStreams.begin(), d.timeWithStreams.end()), times);
    QCOMPARE(d.meanWhileBusy(), mean);
}

void TestStreamConcurrency::focus()
{
    // [55, 110): 55-60: 2, 60-80: 3, 80-100: 2, 100-110: 1.
    const std::vector<DeviceConcurrency> r
        = computeStreamConcurrency(makeAnalysisContext(fixture(), FocusRange { 55, 110, QStringLiteral("f") }));
    QCOMPARE(r[0].spanNs, TimeNs(55));
    QCOMPARE(
        QList<qint64>(r[0].timeWithStreams.begin(), r[0].timeWithStreams.end()), (QList<qint64> { 0, 10, 25, 20 }));
}

QTEST_GUILESS_MAIN(TestStreamConcurrency)
#include "tst_streamconcurrency.moc"

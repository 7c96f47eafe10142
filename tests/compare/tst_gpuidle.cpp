// SPDX-License-Identifier: GPL-3.0-or-later
// Compare's GPU idle shares on a hand-worked profile (ns): GPU 0 runs kernels [0, 100) and [150, 200) and a memcpy
// [90, 120) (busy: [0, 120) and [150, 200)); GPU 1 a kernel [500, 600). Each window's idle share per GPU is worked by
// hand, operations cut by the window's edges included, and a GPU with nothing in the window idle all of it.
#include "core/compare/gpuidle.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

class TestGpuIdle : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void idleShares_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("gpu0");
        QTest::addColumn<double>("gpu1");
        // Busy 120 + 50 of 200.
        QTest::newRow("[0, 200): GPU 1 ran nothing in it") << qint64(0) << qint64(200) << 15.0 << 100.0;
        // Busy [50, 120) and [150, 175): 95 of 125.
        QTest::newRow("[50, 175): operations cut at both edges") << qint64(50) << qint64(175) << 24.0 << 100.0;
        QTest::newRow("[500, 600): only GPU 1") << qint64(500) << qint64(600) << 100.0 << 0.0;
        // Busy 170 + 100 of 600.
        QTest::newRow("[0, 600): everything") << qint64(0) << qint64(600) << 100.0 * 430 / 600 << 100.0 * 500 / 600;
    }
    void idleShares()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        test::ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(100), 101);
        b.kernel(t, 0, 1, 0, 100, QStringLiteral("a"), 0);
        b.kernel(t, 1, 2, 150, 200, QStringLiteral("b"), 0);
        b.memOp(t, 2, 3, 90, 120, 1, 4096, 0);
        b.kernel(t, 3, 4, 500, 600, QStringLiteral("c"), 1);
        const std::vector<GpuIdle> idle = gpuIdleShares(*b.build(), start, end);
        QCOMPARE(idle.size(), std::size_t(2));
        QCOMPARE(idle[0].gpu, 0);
        QCOMPARE(idle[1].gpu, 1);
        QTEST(idle[0].idlePercent, "gpu0");
        QTEST(idle[1].idlePercent, "gpu1");
    }
};

QTEST_GUILESS_MAIN(TestGpuIdle)
#include "tst_gpuidle.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/kernelindex.h"
#include "kernelfixture.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;
using namespace nsw::test;

Q_DECLARE_METATYPE(std::vector<qint64>)

class TestKernelIndex : public QObject
{
    Q_OBJECT
private:
    ProfilePtr m_profile = twoDeviceKernels();

    const KernelGroupStats* find(const std::vector<KernelGroupStats>& rows, const char* name, int device = -1)
    {
        for (const KernelGroupStats& r : rows)
            if (m_profile->strings.at(r.name) == QLatin1String(name) && r.device == device)
                return &r;
        return nullptr;
    }

private Q_SLOTS:
    void lanes()
    {
        const KernelIndex index(m_profile, KernelNameMode::Demangled);
        QCOMPARE(index.lanes().size(), std::size_t(3)); // (pid1,dev0,s7), (pid1,dev0,s8), (pid2,dev1,s7)
        QCOMPARE(index.groups().size(), std::size_t(2));
    }

    /// Durations are held in 4 bytes while every one fits (under 4.29 s), else in 8: both read back and summarise
    /// exactly (hand-worked sorted runs, totals and medians).
    void durationsOfAnyLength_data()
    {
        QTest::addColumn<std::vector<qint64>>("durations"); // in row order, one kernel name
        QTest::addColumn<std::vector<qint64>>("sorted");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<double>("median");
        QTest::addColumn<qint64>("max");
        QTest::newRow("all under 4.29 s")
            << std::vector<qint64> { 30, 10, 20, 40 } << std::vector<qint64> { 10, 20, 30, 40 } << qint64(100) << 25.0
            << qint64(40);
        QTest::newRow("one exactly 2^32 - 1 ns")
            << std::vector<qint64> { 4294967295LL, 10 } << std::vector<qint64> { 10, 4294967295LL }
            << qint64(4294967305LL) << 2147483652.5 << qint64(4294967295LL);
        QTest::newRow("one of 5 s") << std::vector<qint64> { 30, 5000000000LL, 10 }
                                    << std::vector<qint64> { 10, 30, 5000000000LL } << qint64(5000000040LL) << 30.0
                                    << qint64(5000000000LL);
    }
    void durationsOfAnyLength()
    {
        QFETCH(std::vector<qint64>, durations);
        QFETCH(std::vector<qint64>, sorted);
        QFETCH(qint64, total);
        QFETCH(double, median);
        QFETCH(qint64, max);
        ProfileBuilder b;
        const ThreadIndex t = b.thread(b.process(1, QStringLiteral("p")), 1);
        TimeNs at = 1000;
        for (const qint64 d : durations) {
            b.kernel(t, at - 10, at - 5, at, at + d, QStringLiteral("k"));
            at += d + 100;
        }
        const KernelIndex index(b.build(), KernelNameMode::Demangled);
        for (std::size_t p = 0; p < sorted.size(); ++p)
            QCOMPARE(index.sortedDuration(p), sorted[p]);
        const std::vector<KernelGroupStats> rows = summarizeKernels(index, {}, false);
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows[0].stats.total, total);
        QCOMPARE(rows[0].stats.median, median);
        QCOMPARE(rows[0].stats.max, max);
        QCOMPARE(rows[0].stats.min, sorted.front());
    }

    void filters_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<qint64>("k1Count");
        QTest::addColumn<qint64>("k1Total");
        QTest::addColumn<double>("k1Median");
        QTest::addColumn<qint64>("k2Total");
        QTest::addRow("no filter (the index's kept whole-profile summary)")
            << QStringLiteral("none") << qint64(6) << qint64(210) << 35.0 << qint64(600);
        QTest::addRow("every lane allowed (summarised again)")
            << QStringLiteral("all lanes") << qint64(6) << qint64(210) << 35.0 << qint64(600);
        QTest::addRow("device 0 only") << QStringLiteral("device0") << qint64(4) << qint64(100) << 25.0 << qint64(300);
        QTest::addRow("stream 7 of pid 1 only")
            << QStringLiteral("lane0") << qint64(3) << qint64(60) << 20.0 << qint64(100);
        QTest::addRow("rows of the second half")
            << QStringLiteral("rows") << qint64(3) << qint64(150) << 50.0 << qint64(500);
    }
    void filters()
    {
        QFETCH(QString, filter);
        const KernelIndex index(m_profile, KernelNameMode::Demangled);
        KernelFilter f;
        if (filter == QLatin1String("all lanes")) {
            f.lanes.assign(index.lanes().size(), 1);
        } else if (filter == QLatin1String("device0")) {
            f.lanes.assign(index.lanes().size(), 0);
            for (std::size_t i = 0; i < index.lanes().size(); ++i)
                f.lanes[i] = index.lanes()[i].device == 0;
        } else if (filter == QLatin1String("lane0")) {
            f.lanes.assign(index.lanes().size(), 0);
            f.lanes[index.laneOf(0)] = 1;
        } else if (filter == QLatin1String("rows")) {
            // kernel rows 4..8: k1 40, k2 200, k1 50, k1 60, k2 300
            auto rows = std::make_shared<std::vector<char>>(m_profile->kernels.size(), 0);
            for (std::size_t r = 4; r < 9; ++r)
                (*rows)[r] = 1;
            f.rows = rows;
        }
        const auto result = summarizeKernels(index, f, false);
        QFETCH(qint64, k1Count);
        QFETCH(qint64, k1Total);
        QFETCH(double, k1Median);
        QFETCH(qint64, k2Total);
        const KernelGroupStats* k1 = find(result, "k1");
        const KernelGroupStats* k2 = find(result, "k2");
        QVERIFY(k1 && k2);
        QCOMPARE(k1->stats.count, k1Count);
        QCOMPARE(k1->stats.total, k1Total);
        QCOMPARE(k1->stats.median, k1Median);
        QCOMPARE(k2->stats.total, k2Total);
    }

    void splitByDevice()
    {
        const KernelIndex index(m_profile, KernelNameMode::Demangled);
        const auto result = summarizeKernels(index, {}, true);
        QCOMPARE(result.size(), std::size_t(4));
        QCOMPARE(find(result, "k1", 0)->stats.total, qint64(100));
        QCOMPARE(find(result, "k1", 1)->stats.total, qint64(110));
        QCOMPARE(find(result, "k2", 1)->stats.max, qint64(300));
    }

    void groupWithNothingLeftIsOmitted()
    {
        const KernelIndex index(m_profile, KernelNameMode::Demangled);
        KernelFilter f;
        auto rows = std::make_shared<std::vector<char>>(m_profile->kernels.size(), 0);
        (*rows)[0] = 1; // only the first k1
        f.rows = rows;
        const auto result = summarizeKernels(index, f, false);
        QCOMPARE(result.size(), std::size_t(1));
        QCOMPARE(result[0].stats.total, qint64(10));
    }

    void instancesOfAGroup()
    {
        const KernelIndex index(m_profile, KernelNameMode::Demangled);
        const int k2 = index.groupOf(m_profile->strings.find(QStringLiteral("k2")));
        QVERIFY(k2 >= 0);
        const auto all = kernelInstances(index, k2, {});
        QCOMPARE(all, (std::vector<std::uint32_t> { 3, 5, 8 })); // ascending duration: 100, 200, 300
        QCOMPARE(kernelInstances(index, k2, {}, 1), std::vector<std::uint32_t> { 8 });
    }

    /// k1: 10+20+30+40+50+60 = 210 in 6; k2: 100+200+300 = 600 in 3; first appearance order.
    void totalsByName()
    {
        const auto totals = kernelTotalsByName(*m_profile, KernelNameMode::Demangled);
        QCOMPARE(totals.size(), std::size_t(2));
        QCOMPARE(m_profile->strings.at(totals[0].name), QStringLiteral("k1"));
        QCOMPARE(totals[0].total, qint64(210));
        QCOMPARE(totals[0].count, qint64(6));
        QCOMPARE(m_profile->strings.at(totals[1].name), QStringLiteral("k2"));
        QCOMPARE(totals[1].total, qint64(600));
        QCOMPARE(totals[1].count, qint64(3));
    }
};

QTEST_GUILESS_MAIN(TestKernelIndex)
#include "tst_kernelindex.moc"

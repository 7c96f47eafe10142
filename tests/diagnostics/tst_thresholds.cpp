// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/thresholds.h"
#include "core/ranks/rankfindings.h"

#include <QTest>

using namespace nsw;

class TestThresholds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaults_data();
    void defaults();
    void assignments_data();
    void assignments();
    void everySpecDocumented();
};

void TestThresholds::defaults_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("value");
    QTest::newRow("gpu_idle_pct") << QStringLiteral("gpu_idle_pct") << 10.0;
    QTest::newRow("long_gap_ms") << QStringLiteral("long_gap_ms") << 5.0;
    QTest::newRow("short_kernel_us") << QStringLiteral("short_kernel_us") << 10.0;
    QTest::newRow("nvtx_coverage_pct") << QStringLiteral("nvtx_coverage_pct") << 70.0;
    QTest::newRow("unknown reads 0") << QStringLiteral("no_such") << 0.0;
}

void TestThresholds::defaults()
{
    QFETCH(QString, name);
    QFETCH(double, value);
    QCOMPARE(Thresholds().value(name), value);
}

void TestThresholds::assignments_data()
{
    QTest::addColumn<QString>("assignment");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("errorContains");
    QTest::addColumn<double>("value");
    QTest::newRow("valid") << QStringLiteral("gpu_idle_pct=25") << true << QString() << 25.0;
    QTest::newRow("spaces and decimals") << QStringLiteral(" long_gap_ms = 0.5") << true << QString() << 0.5;
    QTest::newRow("unknown name") << QStringLiteral("gpu_idle=3") << false
                                  << QStringLiteral("unknown threshold 'gpu_idle'") << 0.0;
    QTest::newRow("not a number") << QStringLiteral("gpu_idle_pct=abc") << false
                                  << QStringLiteral("must be a number, not 'abc'") << 0.0;
    QTest::newRow("negative") << QStringLiteral("gpu_idle_pct=-1") << false << QStringLiteral(">= 0") << 0.0;
    QTest::newRow("no equals sign") << QStringLiteral("gpu_idle_pct") << false << QStringLiteral("name=value") << 0.0;
    QTest::newRow("infinite") << QStringLiteral("gpu_idle_pct=inf") << false << QStringLiteral("gpu_idle_pct") << 0.0;
}

void TestThresholds::assignments()
{
    QFETCH(QString, assignment);
    QFETCH(bool, ok);
    QFETCH(QString, errorContains);
    QFETCH(double, value);
    Thresholds t;
    const Status s = t.parseAssignment(assignment);
    QCOMPARE(s.ok(), ok);
    if (!ok) {
        QVERIFY2(s.errorMessage().contains(errorContains), qPrintable(s.errorMessage()));
        QCOMPARE(s.error().kind, ErrorKind::Usage);
        QVERIFY(t.overrides().empty());
        return;
    }
    const QString name = assignment.section(QLatin1Char('='), 0, 0).trimmed();
    QCOMPARE(t.value(name), value);
    QCOMPARE(t.describe(name), QStringLiteral("%1=%2").arg(name).arg(value));
}

void TestThresholds::everySpecDocumented()
{
    // Both groups of resources/data/thresholds.json: every threshold named once, with its unit and description.
    for (const auto* specs : { &thresholdSpecs(), &rankThresholdSpecs() }) {
        QStringList names;
        for (const ThresholdSpec& s : *specs) {
            QVERIFY2(!s.description.isEmpty() && !s.unit.isEmpty(), qPrintable(s.name));
            QVERIFY2(!names.contains(s.name), qPrintable(s.name));
            names << s.name;
        }
        QVERIFY(names.size() >= 5);
    }
    QVERIFY(thresholdSpecs().size() >= 15);
}

QTEST_GUILESS_MAIN(TestThresholds)
#include "tst_thresholds.moc"

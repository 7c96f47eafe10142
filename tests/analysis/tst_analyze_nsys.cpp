// SPDX-License-Identifier: GPL-3.0-or-later
// The analyze rules against the real `nsys analyze` (Nsight Systems 2022.4 from Debian's non-free component, rule
// names of 2022) on the hand-made fixtures, a generated export of every schema version, the demo and the real
// exports in ../shared/traces: the same CSV, or the same SKIPPED message, for every rule and option set.
#include "analysisfixtures.h"
#include "core/analysis/analysisformat.h"
#include "core/analysis/analysisrun.h"
#include "oracleexports.h"
#include "sqlitefixture.h"

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

namespace {

const QStringList kCommonOptions { QString(), QStringLiteral("rows=3"), QStringLiteral("rows=0"),
    QStringLiteral("rows=-1"), QStringLiteral("nvtx=no such range") };

QStringList extraOptions(RuleId id)
{
    if (id == RuleId::GpuGaps)
        return { QStringLiteral("gap=0"), QStringLiteral("gap=1"), QStringLiteral("gap=0:rows=7") };
    if (id == RuleId::GpuTimeUtil)
        return { QStringLiteral("threshold=90"), QStringLiteral("chunks=7:threshold=100"),
            QStringLiteral("chunks=1000:threshold=80"), QStringLiteral("chunks=1"), QStringLiteral("chunks=0") };
    return {};
}

/// A window over the middle half of the export's CUDA activity, and one reversed (start > end).
QStringList windowOptions(const QString& path)
{
    qint64 lo = 0, hi = 0;
    bool any = false;
    for (const char* table : { "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL" }) {
        const auto rows
            = test::queryRows(path, QStringLiteral("SELECT min(start), max(end) FROM %1").arg(QLatin1String(table)));
        if (rows.isEmpty() || rows[0].value(0).isEmpty())
            continue;
        const qint64 a = rows[0][0].toLongLong(), b = rows[0][1].toLongLong();
        lo = any ? std::min(lo, a) : a;
        hi = any ? std::max(hi, b) : b;
        any = true;
    }
    if (!any)
        return {};
    const qint64 q = (hi - lo) / 4;
    return { QStringLiteral("start=%1").arg(lo + q), QStringLiteral("end=%1").arg(hi - q),
        QStringLiteral("start=%1:end=%2").arg(lo + q).arg(hi - q), QStringLiteral("start=%1:end=%2").arg(hi).arg(lo) };
}

/// Each block of `nsys analyze -f csv` (one per "Processing [...]" line): its SKIPPED line, or its non-empty lines.
QStringList nsysBlocks(const QString& stdoutText)
{
    QStringList blocks;
    for (const QString& line : stdoutText.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Processing ["))) {
            blocks << QString();
            continue;
        }
        if (blocks.isEmpty() || line.isEmpty())
            continue;
        if (line.startsWith(QLatin1String("SKIPPED: ")))
            blocks.back() = line + QLatin1Char('\n');
        else if (!blocks.back().startsWith(QLatin1String("SKIPPED: ")))
            blocks.back() += line + QLatin1Char('\n');
    }
    return blocks;
}

/// The console output of `nsys analyze` cut at its "Processing [...]" lines.
QStringList nsysTextBlocks(const QString& stdoutText)
{
    QStringList blocks;
    for (const QString& line : stdoutText.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Processing ["))) {
            blocks << QString();
            continue;
        }
        if (!blocks.isEmpty())
            blocks.back() += line + QLatin1Char('\n');
    }
    if (!blocks.isEmpty() && blocks.back().endsWith(QLatin1Char('\n')))
        blocks.back().chop(1); // the split's last, empty piece
    return blocks;
}

QString ourBlock(const RuleTable& t)
{
    return t.skipped.isEmpty() ? ruleToCsv(t) : QStringLiteral("SKIPPED: %1\n").arg(t.skipped);
}

} // namespace

class TestAnalyzeNsys : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_nsys;

private slots:
    void initTestCase()
    {
        NSW_FIND_NSYS_OR_SKIP(m_nsys,
            "nsys is not installed (Debian non-free package nsight-systems, 2022.4): the comparison with the "
            "real nsys analyze cannot run; tst_analysisrules still checks every rule by hand");
        QVERIFY(m_dir.isValid());
    }

    /// The real exports must be among those compared when ../shared/traces is required (CI).
    void realExportsCompared()
    {
        if (test::realOracleExportCount() == 0)
            NSW_SKIP_WITHOUT_SHARED_TRACES("no real export in ../shared/traces: only generated ones are compared");
    }

    void sameAsNsys_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& version : { QStringLiteral("2022.4"), QStringLiteral("2026.2") }) {
            const QString cuda = m_dir.filePath(QStringLiteral("cuda-%1.sqlite").arg(version));
            const QString gpu = m_dir.filePath(QStringLiteral("gpu-%1.sqlite").arg(version));
            test::writeCudaFixture(cuda, version);
            test::writeGpuFixture(gpu, version);
            QTest::newRow(qPrintable(QStringLiteral("CUDA fixture %1").arg(version))) << cuda;
            QTest::newRow(qPrintable(QStringLiteral("GPU fixture %1").arg(version))) << gpu;
        }
        const QString runtimeOnly = m_dir.filePath(QStringLiteral("runtime.sqlite"));
        test::writeRuntimeOnlyFixture(runtimeOnly);
        QTest::newRow("runtime-only fixture") << runtimeOnly;
        for (const test::OracleExport& e : test::oracleExports())
            QTest::newRow(qPrintable(e.label)) << e.path;
    }

    /// Every rule with every option set in one nsys run per export, block by block.
    void sameAsNsys()
    {
        QFETCH(QString, path);
        QStringList ruleArgs, ourArgs;
        const QStringList windows = windowOptions(path);
        for (const RuleSpec& spec : ruleSpecs())
            for (const QString& o : kCommonOptions + windows + extraOptions(spec.id)) {
                const QString suffix = o.isEmpty() ? QString() : QLatin1Char(':') + o;
                ruleArgs << spec.oldName + suffix;
                ourArgs << spec.name + suffix;
            }
        QProcess nsys;
        nsys.start(m_nsys,
            { QStringLiteral("analyze"), QStringLiteral("-f"), QStringLiteral("csv"), QStringLiteral("-r"),
                ruleArgs.join(QLatin1Char(',')), path });
        QVERIFY(nsys.waitForFinished(300000));
        const QStringList expected = nsysBlocks(QString::fromUtf8(nsys.readAllStandardOutput()));
        QCOMPARE(expected.size(), ruleArgs.size());
        const auto plan = planRules(ourArgs);
        QVERIFY2(plan.ok(), qPrintable(plan.errorMessage()));
        const auto result = computeAnalysis({ path, plan.value(), {}, {} });
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QStringList differences;
        for (qsizetype i = 0; i < ruleArgs.size(); ++i) {
            const QString ours = ourBlock(result->rules[size_t(i)]);
            if (ours != expected[i])
                differences << QStringLiteral("%1:\n--- nsys\n%2--- ours\n%3").arg(ruleArgs[i], expected[i], ours);
        }
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
    }

    void sameTextAsNsys_data() { sameAsNsys_data(); }

    /// The console format: title, advice wrapped as nsys wraps it, the column table, the notes (rule names aside).
    void sameTextAsNsys()
    {
        QFETCH(QString, path);
        QStringList ruleArgs, ourArgs;
        for (const RuleSpec& spec : ruleSpecs())
            for (const QString& o : { QString(), QStringLiteral("rows=3"), QStringLiteral("rows=1") }) {
                const QString suffix = o.isEmpty() ? QString() : QLatin1Char(':') + o;
                ruleArgs << spec.oldName + suffix;
                ourArgs << spec.name + suffix;
            }
        ruleArgs << QStringLiteral("gpu-starv:gap=0:rows=4");
        ourArgs << QStringLiteral("gpu_gaps:gap=0:rows=4");
        QProcess nsys;
        nsys.start(m_nsys, { QStringLiteral("analyze"), QStringLiteral("-r"), ruleArgs.join(QLatin1Char(',')), path });
        QVERIFY(nsys.waitForFinished(300000));
        const QStringList expected = nsysTextBlocks(QString::fromUtf8(nsys.readAllStandardOutput()));
        QCOMPARE(expected.size(), ruleArgs.size());
        const auto result = computeAnalysis({ path, planRules(ourArgs).value(), {}, {} });
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QStringList differences;
        for (qsizetype i = 0; i < ruleArgs.size(); ++i) {
            const RuleTable& t = result->rules[size_t(i)];
            QString ours = ruleToText(t);
            ours.replace(QStringLiteral("(%1):").arg(t.spec->name), QStringLiteral("(%1):").arg(t.spec->oldName));
            if (ours != expected[i])
                differences << QStringLiteral("%1:\n--- nsys\n%2--- ours\n%3").arg(ruleArgs[i], expected[i], ours);
        }
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestAnalyzeNsys)
#include "tst_analyze_nsys.moc"

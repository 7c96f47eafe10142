// SPDX-License-Identifier: GPL-3.0-or-later
// The reports that follow nsys 2022.4 to the byte (nvtx_kern_sum, nvtx_pushpop_sum, nvtx_pushpop_trace,
// nvtx_startend_sum, cuda_api_gpu_sum, um_sum, um_total_sum, um_cpu_page_faults_sum, openacc_sum, openmp_sum)
// against the real `nsys stats -f csv` (Nsight Systems 2022.4 from Debian's non-free component, report names of 2022)
// on every export of oracleExports(): a generated export of every schema version (with unified memory, OpenMP and
// OpenACC activity), the demo and the real exports in ../shared/traces. nsys runs on a copy of each export in a
// temporary folder. Each report's CSV must be nsys's, line for line and byte for byte, but for:
// - nsys 2022.4 prints an empty (NULL) cell as "None", the workbench as an empty field (as all its reports);
// - Debian's SQLite 3.40 round() reads a stored tie (6151.15 stored as 6151.1499...) as 6151.2 where the exact
//   rounding is 6151.1: Avg and Time (%) may differ there, and only there (recomputed from the row's total and count);
// - openmpevtsum takes the OpenMP tables in an order that changes from run to run (a Python set): rows of equal
//   total may come in another order (the workbench: the tables in the file's order);
// - where nsys prints nothing (an empty result) the workbench says "No data available.", as the current nsys does.
// The last lines of the output list every report x export compared with its verdict.
#include "core/analysis/gpuops.h"
#include "core/stats/reportformat.h"
#include "nsysstatsrun.h"
#include "oracleexports.h"
#include "testutils.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace nsw;

namespace {

struct ReportPair
{
    QString old; ///< nsys 2022.4's name
    QString ours;
};

const QList<ReportPair> kReports {
    { QStringLiteral("nvtxkernsum"), QStringLiteral("nvtx_kern_sum") },
    { QStringLiteral("nvtxkernsum:base"), QStringLiteral("nvtx_kern_sum:base") },
    { QStringLiteral("nvtxkernsum:mangled"), QStringLiteral("nvtx_kern_sum:mangled") },
    { QStringLiteral("nvtxppsum"), QStringLiteral("nvtx_pushpop_sum") },
    { QStringLiteral("nvtxpptrace"), QStringLiteral("nvtx_pushpop_trace") },
    { QStringLiteral("nvtxsesum"), QStringLiteral("nvtx_startend_sum") },
    { QStringLiteral("apigpusum"), QStringLiteral("cuda_api_gpu_sum") },
    { QStringLiteral("apigpusum:base"), QStringLiteral("cuda_api_gpu_sum:base") },
    { QStringLiteral("apigpusum:mangled"), QStringLiteral("cuda_api_gpu_sum:mangled") },
    { QStringLiteral("unifiedmemory"), QStringLiteral("um_sum") },
    { QStringLiteral("unifiedmemory:rows=3"), QStringLiteral("um_sum:rows=3") },
    { QStringLiteral("unifiedmemory:rows=-1"), QStringLiteral("um_sum:rows=-1") },
    { QStringLiteral("unifiedmemorytotals"), QStringLiteral("um_total_sum") },
    { QStringLiteral("umcpupagefaults"), QStringLiteral("um_cpu_page_faults_sum") },
    { QStringLiteral("openaccsum"), QStringLiteral("openacc_sum") },
    { QStringLiteral("openmpevtsum"), QStringLiteral("openmp_sum") },
};

/// Everything one export gives: nsys's blocks and our tables, in kReports order.
struct ExportRun
{
    QString path; ///< the original
    QString copy; ///< what both sides read
    test::NsysStatsRun nsys;
    ProfilePtr profile; ///< what the trace report's rows are made from
    std::vector<ReportTable> ours;
};

struct Verdict
{
    QString report;
    QString exportLabel;
    QString verdict;
};

QStringList csvLines(const ReportTable& t)
{
    QStringList lines = reportToCsv(t).split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();
    return lines;
}

/// Sorts the lines within each run of equal @p column values (the header stays first).
void sortEqualRuns(QStringList& lines, qsizetype column)
{
    qsizetype runStart = 1;
    for (qsizetype i = 1; i <= lines.size(); ++i) {
        if (i < lines.size()
            && test::parseNsysCsvLine(lines[i]).value(column) == test::parseNsysCsvLine(lines[runStart]).value(column))
            continue;
        std::sort(lines.begin() + runStart, lines.begin() + i);
        runStart = i;
    }
}

} // namespace

class TestStatsNsysExact : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_nsys;
    ExportRun m_run; ///< of the export the current rows are about (rows come export by export)
    std::vector<Verdict> m_verdicts;
    qsizetype m_rowsCompared = 0;

    /// Runs nsys and our reports on a copy of @p path, once per export.
    void prepare(const QString& path)
    {
        if (m_run.path == path)
            return;
        m_run = {};
        m_run.copy = test::copyForNsys(path, m_dir.path());
        QVERIFY2(!m_run.copy.isEmpty(), qPrintable(path));
        QStringList oldNames, ourNames;
        for (const ReportPair& r : kReports) {
            oldNames << r.old;
            ourNames << r.ours;
        }
        m_run.nsys = test::runNsysStats(m_nsys, oldNames, m_run.copy, m_dir.path());
        QVERIFY2(m_run.nsys.finished, qPrintable(m_run.nsys.errors));
        QVERIFY2(m_run.nsys.blocks.size() == kReports.size(), qPrintable(m_run.nsys.errors));
        test::OurReports ours = test::computeOurReports(m_run.copy, ourNames);
        QVERIFY2(ours.error.isEmpty(), qPrintable(ours.error));
        m_run.ours = std::move(ours.tables);
        m_run.profile = ours.profile;
        m_run.path = path;
    }

    /// A Real cell that differs: accepted when it is a stored tie that Debian's SQLite 3.40 rounds up and ours is the
    /// exact rounding of the same value, recomputed from the row (Avg = total / count, Time = total * 100 / sum).
    bool roundingTie(const QStringList& header, const QStringList& nsys, const QStringList& ours, qsizetype c,
        qint64 grandTotal) const
    {
        const qsizetype total = header.indexOf(QStringLiteral("Total Time (ns)"));
        qsizetype count = -1;
        for (const char* h : { "Instances", "Num Calls", "Count", "Kern Inst" })
            count = std::max(count, header.indexOf(QLatin1String(h)));
        double exact = 0;
        if (header[c] == QLatin1String("Avg (ns)") && total >= 0 && count >= 0)
            exact = nsys[total].toDouble() / nsys[count].toDouble();
        else if (header[c].startsWith(QLatin1String("Time")) && total >= 0 && grandTotal > 0)
            exact = nsys[total].toDouble() * 100.0 / double(grandTotal);
        else
            return false;
        return ours[c] == test::roundedText(exact) && nsys[c] == QString::number(sqlite340Round(exact, 1), 'f', 1);
    }

    /// Compares nsys's CSV lines (NULLs made empty) with ours; returns the verdict, or fails the test.
    QString compareCsv(const QString& old, QStringList expected, QStringList actual)
    {
        for (QString& line : expected)
            line = test::withEmptyNulls(line);
        const qsizetype rows = expected.size() - 1;
        m_rowsCompared += rows;
        if (expected == actual)
            return QStringLiteral("identical CSV, %1 rows").arg(rows);
        if (expected.size() != actual.size())
            return QStringLiteral("DIFFERENT: %1 lines from nsys, %2 ours").arg(expected.size()).arg(actual.size());
        const QStringList header = test::parseNsysCsvLine(expected.front());
        QString note;
        if (old == QLatin1String("openmpevtsum")) {
            const QStringList unsortedExpected = expected, unsortedActual = actual;
            const qsizetype total = header.indexOf(QStringLiteral("Total Time (ns)"));
            sortEqualRuns(expected, total);
            sortEqualRuns(actual, total);
            qsizetype reordered = 0;
            for (qsizetype i = 0; i < expected.size(); ++i)
                reordered += unsortedExpected[i] != unsortedActual[i] && expected[i] == actual[i];
            if (reordered > 0)
                note = QStringLiteral(", %1 rows of equal total (separate tables) in another order").arg(reordered);
        }
        qint64 grandTotal = 0;
        if (const qsizetype total = header.indexOf(QStringLiteral("Total Time (ns)")); total >= 0)
            for (qsizetype i = 1; i < expected.size(); ++i)
                grandTotal += test::parseNsysCsvLine(expected[i]).value(total).toLongLong();
        qsizetype ties = 0;
        for (qsizetype i = 0; i < expected.size(); ++i) {
            if (expected[i] == actual[i])
                continue;
            const QStringList e = test::parseNsysCsvLine(expected[i]);
            const QStringList a = test::parseNsysCsvLine(actual[i]);
            if (i == 0 || e.size() != a.size())
                return QStringLiteral("DIFFERENT line %1: nsys %2 | ours %3").arg(i).arg(expected[i], actual[i]);
            for (qsizetype c = 0; c < e.size(); ++c) {
                if (e[c] == a[c])
                    continue;
                if (!roundingTie(header, e, a, c, grandTotal))
                    return QStringLiteral("DIFFERENT line %1 (%2): nsys %3, ours %4").arg(i).arg(header[c], e[c], a[c]);
                ++ties;
                qInfo("%s line %lld %s: %s (SQLite 3.40's round() in nsys 2022.4) vs %s (exact value rounded)",
                    qPrintable(old), qint64(i), qPrintable(header[c]), qPrintable(e[c]), qPrintable(a[c]));
            }
        }
        return QStringLiteral("same CSV, %1 rows, %2 SQLite 3.40 rounding ties%3").arg(rows).arg(ties).arg(note);
    }

private slots:
    void initTestCase()
    {
        NSW_FIND_NSYS_OR_SKIP(m_nsys,
            "nsys is not installed (Debian non-free package nsight-systems, 2022.4): the comparison with "
            "the real nsys stats cannot run");
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
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("report");
        for (const test::OracleExport& e : test::oracleExports())
            for (int r = 0; r < kReports.size(); ++r)
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(e.label, kReports[r].old)))
                    << e.path << e.label << r;
    }

    void sameAsNsys()
    {
        QFETCH(QString, path);
        QFETCH(QString, label);
        QFETCH(int, report);
        prepare(path);
        if (QTest::currentTestFailed())
            return;
        const test::NsysBlock& expected = m_run.nsys.blocks[report];
        const ReportTable& ours = m_run.ours[std::size_t(report)];
        Verdict& v = m_verdicts.emplace_back(Verdict { kReports[report].ours, label, QString() });
        if (!expected.skipped.isEmpty()) {
            v.verdict = ours.skipped == expected.skipped
                ? QStringLiteral("both skip: %1").arg(expected.skipped.section(QLatin1Char(' '), 1))
                : QStringLiteral("DIFFERENT: nsys skips (%1), ours %2").arg(expected.skipped, ours.skipped);
            QCOMPARE(ours.skipped, expected.skipped);
            return;
        }
        if (expected.lines.isEmpty()) {
            // nsys 2022.4 prints nothing for an empty result (the current nsys: "No data available.").
            const bool empty = ours.skipped == QLatin1String("No data available.") || ours.rowCount() == 0;
            v.verdict = empty ? QStringLiteral("both empty (nsys prints nothing, ours: No data available.)")
                              : QStringLiteral("DIFFERENT: nsys prints nothing, ours %1 rows %2")
                                    .arg(ours.rowCount())
                                    .arg(ours.skipped);
            QVERIFY2(empty, qPrintable(v.verdict));
            return;
        }
        if (!ours.skipped.isEmpty()) {
            v.verdict = QStringLiteral("DIFFERENT: nsys prints rows, ours skips: %1").arg(ours.skipped);
            QFAIL(qPrintable(v.verdict));
        }
        v.verdict = compareCsv(kReports[report].old.section(QLatin1Char(':'), 0, 0), expected.lines, csvLines(ours));
        QVERIFY2(!v.verdict.startsWith(QLatin1String("DIFFERENT")), qPrintable(v.verdict));
    }

    void cleanupTestCase()
    {
        qInfo("%lld report rows compared with nsys stats 2022.4. Report x export x verdict:", qint64(m_rowsCompared));
        for (const Verdict& v : m_verdicts)
            qInfo("  %-26s %-48s %s", qPrintable(v.report), qPrintable(v.exportLabel), qPrintable(v.verdict));
    }
};

QTEST_GUILESS_MAIN(TestStatsNsysExact)
#include "tst_stats_nsys_exact.moc"

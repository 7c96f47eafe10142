// SPDX-License-Identifier: GPL-3.0-or-later
// The statistics reports against the real `nsys stats` (Nsight Systems 2022.4 from Debian's non-free component,
// report names of 2022) on every export of oracleExports(): a generated export of every schema version, the demo and
// the real exports in ../shared/traces. nsys runs on a copy of each export in a temporary folder. Every row and cell
// must be equal, but for what differs between nsys 2022.4 and the current nsys the workbench reproduces:
// - gpukernsum also groups by grid and block: its groups are summed per name before comparing;
// - 2022.4 names memory copies "[CUDA memcpy HtoD]" from its own list, the current nsys from the export's
//   ENUM_CUDA_MEMCPY_OPER ("[CUDA memcpy Host-to-Device]"), and skips the memory reports of exports without that
//   table (a documented skip here);
// - 2022.4 names an NVTX range without domain "step", the current nsys ":step";
// - 2022.4 rounds with Debian's SQLite 3.40, whose round() reads the stored tie 6151.15 (6151.1499...) as 6151.2;
//   the current nsys rounds the exact value (6151.1): Avg and Time (%) may differ there, and only there.
// The launch and trace reports (kernexecsum, kernexectrace, gpusum, gputrace, cudaapitrace) too, with:
// - 2022.4 prints an empty (NULL) cell as "None", the workbench as an empty field (as its other reports);
// - gpusum and gputrace name copies as the memory reports above, and are skipped the same way without the enum;
// - kernexecsum's four averages have the same SQLite 3.40 rounding ties as Avg above;
// - 2022.4's gputrace fails on exports without TARGET_INFO_GPU ("no such table"); the workbench prints the
//   device as " (N)", what the query's LEFT JOIN gives for an unknown GPU (a documented skip here).
#include "core/analysis/gpuops.h"
#include "core/stats/reportformat.h"
#include "nsysstatsrun.h"
#include "oracleexports.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <limits>
#include <map>

using namespace nsw;

namespace {

struct ReportPair
{
    QString old; ///< nsys 2022.4's name
    QString ours;
};

const QList<ReportPair> kReports {
    { QStringLiteral("cudaapisum"), QStringLiteral("cuda_api_sum") },
    { QStringLiteral("gpumemtimesum"), QStringLiteral("cuda_gpu_mem_time_sum") },
    { QStringLiteral("gpumemsizesum"), QStringLiteral("cuda_gpu_mem_size_sum") },
    { QStringLiteral("osrtsum"), QStringLiteral("osrt_sum") },
    { QStringLiteral("nvtxsum"), QStringLiteral("nvtx_sum") },
    { QStringLiteral("gpukernsum"), QStringLiteral("cuda_gpu_kern_sum") },
    { QStringLiteral("gpukernsum:base"), QStringLiteral("cuda_gpu_kern_sum:base") },
    { QStringLiteral("gpukernsum:mangled"), QStringLiteral("cuda_gpu_kern_sum:mangled") },
    { QStringLiteral("kernexecsum"), QStringLiteral("cuda_kern_exec_sum") },
    { QStringLiteral("kernexecsum:base"), QStringLiteral("cuda_kern_exec_sum:base") },
    { QStringLiteral("kernexecsum:mangled"), QStringLiteral("cuda_kern_exec_sum:mangled") },
    { QStringLiteral("kernexectrace"), QStringLiteral("cuda_kern_exec_trace") },
    { QStringLiteral("kernexectrace:base"), QStringLiteral("cuda_kern_exec_trace:base") },
    { QStringLiteral("gpusum"), QStringLiteral("cuda_gpu_sum") },
    { QStringLiteral("gpusum:base"), QStringLiteral("cuda_gpu_sum:base") },
    { QStringLiteral("gputrace"), QStringLiteral("cuda_gpu_trace") },
    { QStringLiteral("cudaapitrace"), QStringLiteral("cuda_api_trace") },
};

/// The reports added with the launch analyses: 2022.4 prints their NULL cells as "None".
bool printsNoneForNull(const QString& old)
{
    static const QStringList kNames { QStringLiteral("kernexecsum"), QStringLiteral("kernexectrace"),
        QStringLiteral("gpusum"), QStringLiteral("gputrace"), QStringLiteral("cudaapitrace") };
    return kNames.contains(old);
}

/// Reports that name memory copies (and so need ENUM_CUDA_MEMCPY_OPER in the current nsys).
bool namesCopies(const QString& old)
{
    static const QStringList kNames { QStringLiteral("gpumemtimesum"), QStringLiteral("gpumemsizesum"),
        QStringLiteral("gpusum"), QStringLiteral("gputrace") };
    return kNames.contains(old);
}

/// nsys 2022.4's names of the copy kinds (MemcpyOperStrs in its nsysstats.py), by ENUM_CUDA_MEMCPY_OPER id.
const QStringList kOldMemcpyNames { QStringLiteral("[CUDA memcpy Unknown]"), QStringLiteral("[CUDA memcpy HtoD]"),
    QStringLiteral("[CUDA memcpy DtoH]"), QStringLiteral("[CUDA memcpy HtoA]"), QStringLiteral("[CUDA memcpy AtoH]"),
    QStringLiteral("[CUDA memcpy AtoA]"), QStringLiteral("[CUDA memcpy AtoD]"), QStringLiteral("[CUDA memcpy DtoA]"),
    QStringLiteral("[CUDA memcpy DtoD]"), QStringLiteral("[CUDA memcpy HtoH]"), QStringLiteral("[CUDA memcpy PtoP]"),
    QStringLiteral("[CUDA Unified Memory memcpy HtoD]"), QStringLiteral("[CUDA Unified Memory memcpy DtoH]"),
    QStringLiteral("[CUDA Unified Memory memcpy DtoD]") };

using Row = QStringList;

/// The fields of each CSV line of a block.
QList<Row> parsedLines(const test::NsysBlock& block)
{
    QList<Row> rows;
    for (const QString& line : block.lines)
        rows << test::parseNsysCsvLine(line);
    return rows;
}

QList<Row> ourLines(const ReportTable& t)
{
    QList<Row> lines;
    Row header;
    for (const ReportColumn& c : t.columns)
        header << c.header;
    lines << header;
    std::vector<ReportValue> buffer;
    for (std::size_t r = 0; r < t.rowCount(); ++r) {
        const std::vector<ReportValue>& row = t.rowAt(r, buffer);
        Row fields;
        for (std::size_t c = 0; c < row.size(); ++c)
            fields << reportCellText(row[c], t.columns[c]);
        lines << fields;
    }
    return lines;
}

/// Everything one export gives: nsys's blocks and our tables, in kReports order.
struct ExportRun
{
    QString path; ///< the original
    QString copy; ///< what both sides read
    QList<test::NsysBlock> nsys;
    QString nsysErrors; ///< nsys's stderr
    ProfilePtr profile; ///< what the trace reports' rows are made from
    std::vector<ReportTable> ours;
    std::map<QString, QString> currentMemcpyName; ///< 2022.4 name -> current name, from the export's enum
    bool hasMemcpyEnum = false;
};

qint64 integer(const QString& text, bool* ok)
{
    bool good = false;
    const qint64 v = text.toLongLong(&good);
    *ok = *ok && good;
    return v;
}

QString describe(const Row& r)
{
    return r.join(QLatin1Char(','));
}

} // namespace

class TestStatsNsys : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_nsys;
    ExportRun m_run; ///< of the export the current rows are about (rows come export by export)
    qsizetype m_rowsCompared = 0;
    qsizetype m_roundingTies = 0;
    qsizetype m_knownDifferences = 0; ///< reports nsys 2022.4 cannot make, checked against the known reason

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
        const test::NsysStatsRun nsys = test::runNsysStats(m_nsys, oldNames, m_run.copy, m_dir.path());
        QVERIFY2(nsys.finished, qPrintable(nsys.errors));
        m_run.nsys = nsys.blocks;
        m_run.nsysErrors = nsys.errors;
        QVERIFY2(m_run.nsys.size() == kReports.size(), qPrintable(m_run.nsysErrors));

        test::OurReports ours = test::computeOurReports(m_run.copy, ourNames);
        QVERIFY2(ours.error.isEmpty(), qPrintable(ours.error));
        m_run.ours = std::move(ours.tables);
        m_run.profile = ours.profile;

        m_run.hasMemcpyEnum = !test::queryRows(
            m_run.copy, QStringLiteral("SELECT 1 FROM sqlite_master WHERE name = 'ENUM_CUDA_MEMCPY_OPER'"))
                                   .isEmpty();
        if (m_run.hasMemcpyEnum)
            for (const QStringList& l :
                test::queryRows(m_run.copy, QStringLiteral("SELECT id, label FROM ENUM_CUDA_MEMCPY_OPER")))
                if (const int id = l[0].toInt(); id >= 0 && id < kOldMemcpyNames.size())
                    m_run.currentMemcpyName[kOldMemcpyNames[id]] = QStringLiteral("[CUDA memcpy %1]").arg(l[1]);
        m_run.path = path;
    }

    /// Compares one cell; a stored tie rounded by SQLite 3.40 (nsys 2022.4) is accepted when ours is the exact
    /// rounding of the same value @p exact.
    void compareReal(
        const QString& nsysText, const QString& ourText, double exact, const QString& where, QStringList& differences)
    {
        if (nsysText == ourText)
            return;
        if (ourText == test::roundedText(exact) && nsysText == QString::number(sqlite340Round(exact, 1), 'f', 1)) {
            ++m_roundingTies;
            qInfo("%s: %s (SQLite 3.40's round() in nsys 2022.4) vs %s (exact value rounded)", qPrintable(where),
                qPrintable(nsysText), qPrintable(ourText));
            return;
        }
        differences << QStringLiteral("%1: nsys %2, ours %3").arg(where, nsysText, ourText);
    }

    /// The reports whose rows must equal nsys's, in nsys's order.
    void compareRows(const QString& report, QList<Row> expected, QList<Row> actual, QStringList& differences)
    {
        const Row header = expected.takeFirst();
        const Row ourHeader = actual.takeFirst();
        if (header != ourHeader) {
            differences << QStringLiteral("header: nsys %1, ours %2").arg(describe(header), describe(ourHeader));
            return;
        }
        const qsizetype total = header.indexOf(QStringLiteral("Total Time (ns)"));
        const qsizetype count = std::max(header.indexOf(QStringLiteral("Num Calls")),
            std::max(header.indexOf(QStringLiteral("Instances")), header.indexOf(QStringLiteral("Count"))));
        const qsizetype avg = header.indexOf(QStringLiteral("Avg (ns)"));
        const qsizetype share = header.indexOf(QStringLiteral("Time (%)"));
        qint64 grandTotal = 0;
        bool ok = true;
        if (total >= 0)
            for (const Row& r : expected)
                grandTotal += integer(r.value(total), &ok);
        for (Row& r : expected) {
            const qsizetype name = r.size() - 1;
            if (namesCopies(report))
                if (const auto it = m_run.currentMemcpyName.find(r[name]); it != m_run.currentMemcpyName.end())
                    r[name] = it->second;
            if (printsNoneForNull(report))
                for (QString& cell : r)
                    if (cell == QLatin1String("None"))
                        cell.clear();
        }
        if (report == QLatin1String("nvtxsum"))
            for (Row& r : actual)
                if (r.back().startsWith(QLatin1Char(':')))
                    r.back().remove(0, 1);
        if (expected.size() != actual.size())
            differences << QStringLiteral("%1 rows from nsys, %2 ours").arg(expected.size()).arg(actual.size());
        for (qsizetype i = 0; i < std::min(expected.size(), actual.size()); ++i) {
            const Row& e = expected[i];
            const Row& a = actual[i];
            ++m_rowsCompared;
            if (e.size() != a.size()) {
                differences << QStringLiteral("row %1: nsys %2, ours %3").arg(i).arg(describe(e), describe(a));
                continue;
            }
            for (qsizetype c = 0; c < e.size(); ++c) {
                if (e[c] == a[c])
                    continue;
                const QString where = QStringLiteral("row %1 (%2) %3").arg(i).arg(e.back(), header[c]);
                if (report == QLatin1String("kernexecsum") && header[c].endsWith(QLatin1String("Avg (ns)"))) {
                    // TAvg/AAvg/QAvg/KAvg: sum / Count (QCount for the queue). Our text is the exact rounding; when
                    // it is a stored tie, the sum is (ours + 0.05) * n, and SQLite 3.40 rounds it up.
                    const qint64 n = integer(e[header[c].startsWith(QLatin1Char('Q')) ? 4 : 3], &ok);
                    const double sum = std::round((a[c].toDouble() + 0.05) * double(n));
                    compareReal(e[c], a[c], sum / double(n), where, differences);
                } else if (c == avg && count >= 0)
                    compareReal(e[c], a[c], double(integer(e[total], &ok)) / double(integer(e[count], &ok)), where,
                        differences);
                else if (c == share && grandTotal > 0)
                    compareReal(
                        e[c], a[c], double(integer(e[total], &ok)) * 100.0 / double(grandTotal), where, differences);
                else
                    differences << QStringLiteral("%1: nsys %2, ours %3").arg(where, e[c], a[c]);
            }
        }
        QVERIFY(ok);
    }

    /// gpukernsum: nsys's (name, grid, block) groups summed per name against our row of that name.
    void compareKernelRows(QList<Row> expected, QList<Row> actual, QStringList& differences)
    {
        Row header = expected.takeFirst();
        header.removeAll(QStringLiteral("GridXYZ"));
        header.removeAll(QStringLiteral("BlockXYZ"));
        const Row ourHeader = actual.takeFirst();
        if (header != ourHeader) {
            differences << QStringLiteral("header: nsys %1, ours %2").arg(describe(header), describe(ourHeader));
            return;
        }
        // Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),[GridXYZ,BlockXYZ,]Name
        struct Summed
        {
            qint64 total = 0, instances = 0, min = 0, max = 0;
            QList<Row> groups;
        };
        bool ok = true;
        std::map<QString, Summed> byName;
        qint64 grandTotal = 0;
        for (const Row& g : expected) {
            Summed& s = byName[g.back()];
            const qint64 mn = integer(g[5], &ok), mx = integer(g[6], &ok);
            s.min = s.groups.isEmpty() ? mn : std::min(s.min, mn);
            s.max = s.groups.isEmpty() ? mx : std::max(s.max, mx);
            s.total += integer(g[1], &ok);
            s.instances += integer(g[2], &ok);
            grandTotal += integer(g[1], &ok);
            s.groups << g;
        }
        QVERIFY(ok);
        if (qsizetype(byName.size()) != actual.size())
            differences << QStringLiteral("%1 names from nsys, %2 rows ours").arg(byName.size()).arg(actual.size());
        qint64 previousTotal = std::numeric_limits<qint64>::max();
        for (const Row& a : actual) {
            const auto it = byName.find(a.back());
            if (it == byName.end()) {
                differences << QStringLiteral("ours only: %1").arg(describe(a));
                continue;
            }
            ++m_rowsCompared;
            const Summed& s = it->second;
            const QString where = QStringLiteral("%1 (%2 groups)").arg(a.back()).arg(s.groups.size());
            const qint64 total = integer(a[1], &ok);
            if (total > previousTotal)
                differences << QStringLiteral("%1: not in descending total order").arg(where);
            previousTotal = total;
            const Row summed { QString(), QString::number(s.total), QString::number(s.instances), QString(), QString(),
                QString::number(s.min), QString::number(s.max) };
            for (int c : { 1, 2, 5, 6 })
                if (a[c] != summed[c])
                    differences << QStringLiteral("%1 %2: nsys %3, ours %4").arg(where, header[c], summed[c], a[c]);
            if (s.groups.size() == 1) {
                // One group: every cell as nsys prints it.
                const Row& g = s.groups.front();
                compareReal(g[0], a[0], double(s.total) * 100.0 / double(grandTotal),
                    where + QStringLiteral(" Time (%)"), differences);
                compareReal(g[3], a[3], double(s.total) / double(s.instances), where + QStringLiteral(" Avg (ns)"),
                    differences);
                for (int c : { 4, 7 })
                    if (a[c] != g[c])
                        differences << QStringLiteral("%1 %2: nsys %3, ours %4").arg(where, header[c], g[c], a[c]);
                continue;
            }
            // Several groups: medians and deviations do not add up; shares and averages of the sums do.
            if (a[0] != test::roundedText(double(s.total) * 100.0 / double(grandTotal)))
                differences << QStringLiteral("%1 Time (%): ours %2 of total %3").arg(where, a[0]).arg(grandTotal);
            if (a[3] != test::roundedText(double(s.total) / double(s.instances)))
                differences << QStringLiteral("%1 Avg (ns): ours %2").arg(where, a[3]);
        }
        QVERIFY(ok);
    }

private slots:
    void initTestCase()
    {
        NSW_FIND_NSYS_OR_SKIP(m_nsys,
            "nsys is not installed (Debian non-free package nsight-systems, 2022.4): the comparison with "
            "the real nsys stats cannot run; the SQL oracles still check every report");
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
        QTest::addColumn<int>("report");
        for (const test::OracleExport& e : test::oracleExports())
            for (int r = 0; r < kReports.size(); ++r)
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(e.label, kReports[r].old))) << e.path << r;
    }

    void sameAsNsys()
    {
        QFETCH(QString, path);
        QFETCH(int, report);
        prepare(path);
        if (QTest::currentTestFailed())
            return;
        const test::NsysBlock& expected = m_run.nsys[report];
        const ReportTable& ours = m_run.ours[size_t(report)];
        const QString old = kReports[report].old.section(QLatin1Char(':'), 0, 0);
        if (!expected.skipped.isEmpty()) {
            QCOMPARE(ours.skipped, expected.skipped);
            return;
        }
        if (old == QLatin1String("gputrace") && expected.lines.isEmpty()
            && m_run.nsysErrors.contains(QLatin1String("gputrace.py' encountered an internal error: no such table: "
                                                       "TARGET_INFO_GPU"))) {
            // A known difference, checked rather than skipped: nsys 2022.4's gputrace fails without TARGET_INFO_GPU
            // (the error above); the workbench makes the report, naming devices " (N)".
            QVERIFY2(ours.skipped.isEmpty(), qPrintable(ours.skipped));
            ++m_knownDifferences;
            return;
        }
        if (expected.lines.isEmpty()) {
            // nsys 2022.4 prints nothing for an empty table (the current nsys: "No data available.").
            QVERIFY2(!ours.skipped.isEmpty() || ours.rowCount() == 0, qPrintable(reportToCsv(ours)));
            return;
        }
        if (!ours.skipped.isEmpty() && !m_run.hasMemcpyEnum && namesCopies(old)) {
            // A known difference, checked rather than skipped: without ENUM_CUDA_MEMCPY_OPER nsys 2022.4 names the
            // copy kinds from its own list, the current nsys (and the workbench) skip the report with this message.
            QCOMPARE(ours.skipped, QStringLiteral("%1 does not contain ENUM_CUDA_MEMCPY_OPER table.").arg(m_run.copy));
            ++m_knownDifferences;
            return;
        }
        QVERIFY2(ours.skipped.isEmpty(), qPrintable(ours.skipped));
        QStringList differences;
        if (old == QLatin1String("gpukernsum"))
            compareKernelRows(parsedLines(expected), ourLines(ours), differences);
        else
            compareRows(old, parsedLines(expected), ourLines(ours), differences);
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
    }

    void cleanupTestCase()
    {
        qInfo("%lld report rows compared with nsys stats 2022.4; %lld SQLite 3.40 rounding ties accepted; %lld "
              "reports nsys 2022.4 cannot make checked as known differences",
            qint64(m_rowsCompared), qint64(m_roundingTies), qint64(m_knownDifferences));
    }
};

QTEST_GUILESS_MAIN(TestStatsNsys)
#include "tst_stats_nsys.moc"

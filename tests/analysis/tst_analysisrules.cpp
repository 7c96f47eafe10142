// SPDX-License-Identifier: GPL-3.0-or-later
// The analyze rules on hand-made exports (tests/analysis/analysisfixtures.cpp); every expected row is worked out
// by hand in the comments, from the rules' documented semantics (nsys 2022.4's rule scripts).
#include "analysisfixtures.h"
#include "core/analysis/analysisformat.h"
#include "core/analysis/analysisrun.h"
#include "core/analysis/gpuops.h"
#include "oracleexports.h"
#include "sqlitefixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

namespace {

/// Each rule's CSV (nsys analyze --format csv) or "SKIPPED: message", one after the other.
QString analyze(const QString& path, const QString& rules)
{
    const auto plan = planRules(rules.split(QLatin1Char(','), Qt::SkipEmptyParts));
    if (!plan)
        return QStringLiteral("USAGE: ") + plan.errorMessage();
    const auto result = computeAnalysis({ path, plan.value(), {}, {} });
    if (!result)
        return QStringLiteral("ERROR: ") + result.errorMessage();
    QString out;
    for (const RuleTable& t : result->rules)
        out += t.skipped.isEmpty() ? ruleToCsv(t) : QStringLiteral("SKIPPED: %1\n").arg(t.skipped);
    return out;
}

QString lines(const QStringList& l)
{
    return l.isEmpty() ? QString() : l.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

const QString kMemcpyHeader = QStringLiteral(
    "Duration (ns),Start (ns),Src Kind,Dst Kind,Bytes (MB),PID,Device ID,Context ID,Stream ID,API Name");
const QString kSyncHeader = QStringLiteral("Duration (ns),Start (ns),PID,TID,API Name");
const QString kGapHeader = QStringLiteral("Row#,Duration (ns),Start (ns),PID,Device ID,Context ID");
const QString kUtilHeader = QStringLiteral("Row#,In-Use (%),Duration (ns),Start (ns),PID,Device ID,Context ID");

} // namespace

class TestAnalysisRules : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_cuda;
    QString m_gpu;
    QString m_runtimeOnly;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_cuda = m_dir.filePath(QStringLiteral("cuda.sqlite"));
        m_gpu = m_dir.filePath(QStringLiteral("gpu.sqlite"));
        m_runtimeOnly = m_dir.filePath(QStringLiteral("runtime.sqlite"));
        test::writeCudaFixture(m_cuda);
        test::writeGpuFixture(m_gpu);
        test::writeRuntimeOnlyFixture(m_runtimeOnly);
    }

    void cudaRules_data()
    {
        QTest::addColumn<QString>("rules");
        QTest::addColumn<QString>("expected");
        // M2 (500 ns) joins R2 and, through the reused correlation id 2, R10 of pid 200: two rows, in runtime
        // rowid order; then M1 (300 ns, pageable source). M3..M6 are not async calls.
        const QStringList async { kMemcpyHeader,
            QStringLiteral("500,2400,Device,Pageable,2.500,100,0,1,7,cudaMemcpyAsync_v3020"),
            QStringLiteral("500,2400,Device,Pageable,2.500,100,0,1,7,cudaMemcpyAsync_v3020"),
            QStringLiteral("300,2000,Pageable,Device,1.000,100,0,1,7,cudaMemcpyAsync_v3020") };
        QTest::newRow("async memcpy: pageable either side, one row per matching call")
            << "cuda_memcpy_async" << lines(async);
        QTest::newRow("2022 name is an alias") << "cuda-async-memcpy" << lines(async);
        QTest::newRow("rows=1 keeps the first of the tie") << "cuda_memcpy_async:rows=1" << lines(async.mid(0, 2));
        QTest::newRow("rows=0 keeps nothing") << "cuda_memcpy_async:rows=0" << QString();
        // M3: HtoD of 64000 bytes is left out, M4 (64001) kept, M5 stays on device 0.
        QTest::newRow("sync memcpy: small HtoD and same-device copies left out")
            << "cuda_memcpy_sync"
            << lines({ kMemcpyHeader, QStringLiteral("300,3400,Pinned,Device,0.064,100,0,1,7,cudaMemcpy_v3020") });
        // S4 (managed, 300 ns) then S1 (pinned, 100 ns); S2 is an async call, S3 device memory.
        QTest::newRow("sync memset: pinned or managed, not async")
            << "cuda_memset_sync"
            << lines(
                   { QStringLiteral(
                         "Duration (ns),Start (ns),Memory Kind,Bytes (MB),PID,Device ID,Context ID,Stream ID,API Name"),
                       QStringLiteral("300,5900,Managed,1.500,100,0,1,7,cudaMemset_v3020"),
                       QStringLiteral("100,5000,Pinned,0.004,100,0,1,7,cudaMemset_v3020") });
        const QString r4 = QStringLiteral("500,400,100,101,cudaStreamSynchronize_v3020");
        const QString r5 = QStringLiteral("300,1000,200,201,cudaDeviceSynchronize_v3020");
        QTest::newRow("sync APIs of both processes") << "cuda_api_sync" << lines({ kSyncHeader, r4, r5 });
        // R5 starts at 1000: inside [1000, end); R4 ends before it.
        QTest::newRow("start keeps rows from it on") << "cuda_api_sync:start=1000" << lines({ kSyncHeader, r5 });
        QTest::newRow("end is exclusive") << "cuda_api_sync:end=1000" << lines({ kSyncHeader, r4 });
        QTest::newRow("a window spanned by a call keeps it")
            << "cuda_api_sync:start=500:end=600" << lines({ kSyncHeader, r4 });
        // "step" [350, 950] on thread 101 of pid 100: R4 only (R5 is pid 200 and later).
        QTest::newRow("nvtx range window") << "cuda_api_sync:nvtx=step" << lines({ kSyncHeader, r4 });
        QTest::newRow("nvtx range in a named domain") << "cuda_api_sync:nvtx=step@dom" << lines({ kSyncHeader, r4 });
        QTest::newRow("explicit end overrides the range's") << "cuda_api_sync:nvtx=step:end=360" << QString();
    }

    void cudaRules()
    {
        QFETCH(QString, rules);
        QFETCH(QString, expected);
        QCOMPARE(analyze(m_cuda, rules), expected);
    }

    void gpuRules_data()
    {
        QTest::addColumn<QString>("rules");
        QTest::addColumn<QString>("expected");
        // Device 0: kernels [1000,1100] [1050,1200] [1900,2000] and the overhead [1500,1600]: starts 1000 1050 1500
        // 1900, ends 1100 1200 1600 2000 -> gaps 1200..1500 and 1600..1900 (300 each). Device 1: [1000,1050],
        // overhead, [1950,2000] -> gaps 1050..1500 (450) and 1600..1950 (350).
        QTest::newRow("gaps longer than 0 ms, longest first")
            << "gpu_gaps:gap=0"
            << lines({ kGapHeader, QStringLiteral("1,450,1050,100,1,2"), QStringLiteral("2,350,1600,100,1,2"),
                   QStringLiteral("3,300,1200,100,0,1"), QStringLiteral("4,300,1600,100,0,1") });
        QTest::newRow("rows=1 keeps the longest gap")
            << "gpu_gaps:gap=0:rows=1" << lines({ kGapHeader, QStringLiteral("1,450,1050,100,1,2") });
        QTest::newRow("rows=3 cuts the tie at 300 by start")
            << "gpu_gaps:gap=0:rows=3"
            << lines({ kGapHeader, QStringLiteral("1,450,1050,100,1,2"), QStringLiteral("2,350,1600,100,1,2"),
                   QStringLiteral("3,300,1200,100,0,1") });
        QTest::newRow("default 500 ms finds none") << "gpu-starv" << QString();
        // Both devices span [1000, 2000]: 10 chunks of 100 ns. Device 0 busy: 150 % 100 % 0 0 0 100 % 0 0 0 100 %;
        // device 1: 50 % 0 0 0 0 100 % 0 0 0 50 %. Empty chunks of one index form one SQL group that takes the
        // first device's columns: 1 -> device 1 (device 0's is busy), 2-4 and 6-8 -> device 0.
        // Device 1: chunks 0,1 -> 25.0 % over [1000,1200]; chunk 9 -> 50.0 %. Device 0: [1200,1500], [1600,1900].
        QTest::newRow("low utilization chunks coalesced")
            << "gpu_time_util:chunks=10:threshold=60"
            << lines({ kUtilHeader, QStringLiteral("1,0.0,300,1200,100,0,1"), QStringLiteral("2,0.0,300,1600,100,0,1"),
                   QStringLiteral("3,25.0,200,1000,100,1,2"), QStringLiteral("4,50.0,100,1900,100,1,2") });
        QTest::newRow("chunks=0 makes no chunk") << "gpu_time_util:chunks=0" << QString();
        // One chunk per device: device 0 busy 150+100+100+100 = 450 of 1000 ns; device 1 50+100+50 = 200.
        QTest::newRow("one chunk per device") << "gpu-low-util:chunks=1"
                                              << lines({ kUtilHeader, QStringLiteral("1,20.0,1000,1000,100,1,2"),
                                                     QStringLiteral("2,45.0,1000,1000,100,0,1") });
    }

    void gpuRules()
    {
        QFETCH(QString, rules);
        QFETCH(QString, expected);
        QCOMPARE(analyze(m_gpu, rules), expected);
    }

    void missingData_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("rules");
        QTest::addColumn<QString>("expected"); // %1 = the export's path
        QTest::newRow("no runtime table") << "gpu"
                                          << "cuda_api_sync"
                                          << "%1 could not be analyzed because it does not contain the required CUDA "
                                             "data. Does the application use CUDA runtime APIs?";
        QTest::newRow("no memcpy table") << "runtime"
                                         << "cuda_memcpy_sync"
                                         << "%1 could not be analyzed because it does not contain the required CUDA "
                                            "data. Does the application use CUDA memcpy APIs?";
        QTest::newRow("no memset table") << "runtime"
                                         << "cuda-sync-memset"
                                         << "%1 could not be analyzed because it does not contain the required CUDA "
                                            "data. Does the application use CUDA memset APIs?";
        QTest::newRow("no GPU operation") << "runtime"
                                          << "gpu_time_util"
                                          << "%1 could not be analyzed because it does not contain the required data. "
                                             "Does the application launch GPU operations?";
        QTest::newRow("unknown NVTX range") << "cuda"
                                            << "cuda_api_sync:nvtx=nosuch"
                                            << "NVTX range 'nosuch' could not be found.";
        QTest::newRow("start after end") << "cuda"
                                         << "cuda_api_sync:start=10:end=5"
                                         << "The start time cannot be greater than the end time.";
    }

    void missingData()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, rules);
        QFETCH(QString, expected);
        const QString path = fixture == QLatin1String("gpu") ? m_gpu
            : fixture == QLatin1String("cuda")               ? m_cuda
                                                             : m_runtimeOnly;
        QCOMPARE(analyze(path, rules),
            QStringLiteral("SKIPPED: %1\n")
                .arg(expected.contains(QLatin1String("%1")) ? expected.arg(path) : expected));
    }

    void badOptions_data()
    {
        QTest::addColumn<QString>("rules");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown rule") << "nosuchrule"
                                      << "USAGE: Report 'nosuchrule' could not be found.";
        QTest::newRow("gap not an integer")
            << "gpu_gaps:gap=abc"
            << "USAGE: Invalid argument passed to rule 'gpu_gaps': argument --gap: invalid int value: 'abc'";
        QTest::newRow("option of another rule")
            << "cuda_api_sync:gap=1"
            << "USAGE: Invalid argument passed to rule 'cuda_api_sync': unrecognized arguments: gap=1";
        QTest::newRow("option without value")
            << "gpu_gaps:rows"
            << "USAGE: Invalid argument passed to rule 'gpu_gaps': argument --rows: expected one argument";
        QTest::newRow("chunks out of range") << "gpu_time_util:chunks=1001"
                                             << "USAGE: Invalid argument passed to rule 'gpu_time_util': argument "
                                                "--chunks: value must be between 1 and 1000";
    }

    void badOptions()
    {
        QFETCH(QString, rules);
        QFETCH(QString, expected);
        QCOMPARE(analyze(m_cuda, rules), expected);
    }

    void textFormat_data()
    {
        QTest::addColumn<QString>("rules");
        QTest::addColumn<QString>("expected");
        const QString advice
            = QStringLiteral("The following are synchronization APIs that block the host until all issued\n"
                             "CUDA calls are complete.\n\n"
                             "Suggestions:\n"
                             "   1. Avoid excessive use of synchronization.\n"
                             "   2. Use asynchronous CUDA event calls, such as cudaStreamWaitEvent() and\n"
                             "cudaEventSynchronize(), to prevent host synchronization.\n\n");
        // Widths: the header or the widest value; headers centred (odd padding on the right), numbers right-aligned,
        // text left-aligned, two blanks between columns, one before the first.
        QTest::newRow("table with the row-limit note")
            << "cuda_api_sync:rows=1"
            << QStringLiteral("\n ** CUDA Synchronization APIs (cuda_api_sync):\n\n") + advice
                + QStringLiteral(" Duration (ns)  Start (ns)  PID  TID           API Name          \n"
                                 " -------------  ----------  ---  ---  ---------------------------\n"
                                 "           500         400  100  101  cudaStreamSynchronize_v3020\n"
                                 "\nOnly the top result is displayed. More data may be available.\n\n\n");
        QTest::newRow("no result") << "cuda_memcpy_sync:start=5000"
                                   << QStringLiteral("\n ** CUDA Synchronous Memcpy (cuda_memcpy_sync):\n\n"
                                                     "There were no problems detected related to synchronous memcpy "
                                                     "operations.\n\n");
        QTest::newRow("skipped") << "cuda_api_sync:nvtx=nosuch"
                                 << "SKIPPED: NVTX range 'nosuch' could not be found.\n\n";
    }

    void textFormat()
    {
        QFETCH(QString, rules);
        QFETCH(QString, expected);
        const auto result = computeAnalysis({ m_cuda, planRules({ rules }).value(), {}, {} });
        QVERIFY(result.ok());
        QCOMPARE(ruleToText(result->rules.front()), expected);
    }

    void wrapText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString seventyFive(75, QLatin1Char('a'));
        QTest::newRow("a last word may end on column 80")
            << seventyFive + QStringLiteral(" bcde") << seventyFive + QStringLiteral(" bcde");
        QTest::newRow("a word followed by another may not")
            << seventyFive + QStringLiteral(" bcde f") << seventyFive + QStringLiteral("\nbcde f");
        QTest::newRow("indent kept, lines not re-indented") << "   1. x"
                                                            << "   1. x";
    }

    void wrapText()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(nsw::wrapText(text), expected);
    }

    void pythonInt_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << "42" << qint64(42) << true;
        QTest::newRow("blanks and sign") << " -7 " << qint64(-7) << true;
        QTest::newRow("underscores") << "1_000" << qint64(1000) << true;
        QTest::newRow("double underscore") << "1__0" << qint64(0) << false;
        QTest::newRow("float") << "1.5" << qint64(0) << false;
        QTest::newRow("empty") << "" << qint64(0) << false;
    }

    void pythonInt()
    {
        QFETCH(QString, text);
        QFETCH(qint64, value);
        QFETCH(bool, valid);
        const auto v = parsePythonInt(text);
        QCOMPARE(v.has_value(), valid);
        if (valid)
            QCOMPARE(*v, value);
    }

    void sqliteRound_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("expected");
        QTest::newRow("below the half") << 36.04 << 36.0;
        QTest::newRow("above the half") << 37.46 << 37.5;
        QTest::newRow("stored tie 0.15 rounds up in 3.40") << 0.15 << 0.2;
        QTest::newRow("stored tie 2.25") << 2.25 << 2.3;
        QTest::newRow("zero") << 0.0 << 0.0;
        QTest::newRow("hundred") << 99.96 << 100.0;
    }

    void sqliteRound()
    {
        QFETCH(double, value);
        QFETCH(double, expected);
        QCOMPARE(sqlite340Round(value, 1), expected);
    }

    void mixedRequestsReadTheGpuTablesAlongside_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("CUDA fixture") << m_cuda;
        QTest::newRow("GPU fixture (CUDA rules skipped)") << m_gpu;
    }

    /// CUDA and GPU rules in one request read on two connections at once: the same output as each rule alone, whose
    /// rows the rows above work out by hand.
    void mixedRequestsReadTheGpuTablesAlongside()
    {
        QFETCH(QString, fixture);
        const QStringList rules { QStringLiteral("cuda_memcpy_async"), QStringLiteral("gpu_gaps:gap=0"),
            QStringLiteral("cuda_api_sync"), QStringLiteral("gpu_time_util:chunks=10:threshold=60"),
            QStringLiteral("cuda_memset_sync") };
        QString alone;
        for (const QString& rule : rules)
            alone += analyze(fixture, rule);
        QCOMPARE(analyze(fixture, rules.join(QLatin1Char(','))), alone);
    }

    void damagedRowsAreSaid_data()
    {
        QTest::addColumn<QString>("damage"); // SQL on the GPU fixture's kernel table K (5 sound rows)
        QTest::addColumn<int>("rows"); // rows damaged, counted by hand
        QTest::newRow("sound export: no warning") << QString() << 0;
        QTest::newRow("a start that is text") << "UPDATE K SET start = 'soon' WHERE rowid = 1" << 1;
        QTest::newRow("an end that is a fraction and a start that is a blob")
            << "UPDATE K SET end = 1100.5 WHERE rowid = 1; UPDATE K SET start = x'01' WHERE rowid = 4" << 2;
        QTest::newRow("both times of one row count once")
            << "UPDATE K SET start = 'a', end = x'00' WHERE rowid = 2" << 1;
    }

    /// Rules read damaged rows as nsys analyze's SQL does, and say how many they met.
    void damagedRowsAreSaid()
    {
        QFETCH(QString, damage);
        QFETCH(int, rows);
        const QString path
            = m_dir.filePath(QStringLiteral("damaged-%1.sqlite").arg(QString::fromLatin1(QTest::currentDataTag())));
        QVERIFY(QFile::copy(m_gpu, path));
        if (!damage.isEmpty()) {
            const QString error = test::execOnFile(
                path, QString(damage).replace(QStringLiteral(" K "), QStringLiteral(" CUPTI_ACTIVITY_KIND_KERNEL ")));
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        const QList<QStringList> counted = test::queryRows(path,
            QStringLiteral("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                           "WHERE typeof(start) != 'integer' OR typeof(end) != 'integer'"));
        QCOMPARE(counted.value(0).value(0).toInt(), rows); // the hand count, by plain SQL
        const auto plan = planRules({ QStringLiteral("gpu_gaps:gap=0") });
        QVERIFY(plan);
        const Result<AnalysisResult> result = computeAnalysis({ path, plan.value(), {}, {} });
        QVERIFY2(result, qPrintable(result.errorMessage()));
        if (rows == 0) {
            QCOMPARE(result->warnings, QStringList());
            return;
        }
        QCOMPARE(result->warnings.size(), 1);
        QVERIFY2(result->warnings[0].startsWith(
                     QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL: %1 rows hold values nsys does not write").arg(rows)),
            qPrintable(result->warnings[0]));
    }

    void apiSyncMatchesPlainSql_data()
    {
        QTest::addColumn<QString>("path");
        for (const test::OracleExport& e : test::oracleExports())
            QTest::newRow(qPrintable(e.label)) << e.path;
    }

    /// cuda_api_sync against an independent SQL query (ties by rowid, as the rule keeps the scan order).
    void apiSyncMatchesPlainSql()
    {
        QFETCH(QString, path);
        const QList<QStringList> rows = test::queryRows(path,
            QStringLiteral("SELECT r.end - r.start, r.start, (r.globalTid >> 24) & 16777215, r.globalTid & 16777215, "
                           "s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                           "WHERE s.value LIKE 'cudaDeviceSynchronize%' OR s.value LIKE 'cudaStreamSynchronize%' "
                           "ORDER BY 1 DESC, r.rowid LIMIT 50"));
        QStringList expected;
        for (const QStringList& r : rows)
            expected << r.join(QLatin1Char(','));
        const QString got = analyze(path, QStringLiteral("cuda_api_sync"));
        if (got.startsWith(QLatin1String("SKIPPED")))
            QVERIFY(rows.isEmpty());
        else
            QCOMPARE(got, expected.isEmpty() ? QString() : lines(QStringList { kSyncHeader } + expected));
    }
};

QTEST_GUILESS_MAIN(TestAnalysisRules)
#include "tst_analysisrules.moc"

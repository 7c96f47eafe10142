// SPDX-License-Identifier: GPL-3.0-or-later
// The focused pipelines against plain SQL with nsys's overlap predicate, on every export of oracleExports()
// (generated ones for every schema version, the demo, ../shared/traces when present), through the core and the CLI.
#include "app/cli/cli.h"
#include "core/analysis/analysisrun.h"
#include "core/focus/focusresolve.h"
#include "core/profile/profileloader.h"
#include "core/reports/statsrun.h"
#include "oracleexports.h"
#include "sqlitefixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

/// nsys's overlap predicate in SQL, on columns @p s and @p e, for [a, b).
QString overlapSql(const QString& s, const QString& e, TimeNs a, TimeNs b)
{
    return u"((%1 >= %3 AND %1 < %4) OR (%2 >= %3 AND %2 < %4) OR (%1 < %3 AND %2 >= %4))"_s.arg(s, e).arg(a).arg(b);
}

struct CountTotal
{
    qint64 count = 0;
    qint64 total = 0;
    bool operator==(const CountTotal&) const = default;
};

/// [start of the kernel one third in by start, start of the kernel two thirds in): never empty, and kernels start
/// exactly on both boundaries (in at the start, out at the end).
std::pair<TimeNs, TimeNs> middleOfKernels(const QString& file)
{
    const auto startAt = [&](const QString& fraction) -> TimeNs {
        return test::queryRows(file,
            u"SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 1 OFFSET "
            "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) * %1"_s.arg(fraction))
            .value(0)
            .value(0)
            .toLongLong();
    };
    const TimeNs a = startAt(u"1 / 3"_s);
    return { a, std::max(startAt(u"2 / 3"_s), a + 1) };
}

/// Kernel count and total per demangled name text, from SQL with the overlap predicate.
std::map<QString, CountTotal> kernelsBySql(const QString& file, TimeNs a, TimeNs b)
{
    std::map<QString, CountTotal> out;
    for (const QStringList& r : test::queryRows(file,
             u"SELECT coalesce(s.value, ''), count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
             "LEFT JOIN StringIds s ON s.id = k.demangledName WHERE %1 GROUP BY k.demangledName"_s.arg(
                 overlapSql(u"k.start"_s, u"k.end"_s, a, b)))) {
        CountTotal& c = out[r[0]];
        c.count += r[1].toLongLong();
        c.total += r[2].toLongLong();
    }
    return out;
}

std::map<QString, CountTotal> kernelsOfReport(const ReportTable& t)
{
    std::map<QString, CountTotal> out;
    for (const auto& row : t.rows) {
        CountTotal& c = out[std::get<QString>(row.back())];
        c.total += std::get<qint64>(row[1]);
        c.count += std::get<qint64>(row[2]);
    }
    return out;
}

bool hasKernels(const QString& file)
{
    return !test::queryRows(file,
        u"SELECT 1 FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL' AND "
        "EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_KERNEL)"_s)
                .isEmpty();
}

bool hasNvtxRanges(const QString& file)
{
    return !test::queryRows(file,
        u"SELECT 1 FROM sqlite_master WHERE name = 'NVTX_EVENTS' AND "
        "EXISTS (SELECT 1 FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71) AND end IS NOT NULL)"_s)
                .isEmpty();
}

ReportTable focusedReport(const QString& name, const Profile& profile, const FocusRange& focus)
{
    Result<StatsPlan> plan = planReports({ name });
    setFocus(*plan, focus);
    return computeReports(*plan, profile).value().front();
}

QList<QStringList> csvRows(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QStringList> rows;
    const QStringList lines = QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
    for (qsizetype i = 1; i < lines.size(); ++i) // naive split: only numeric columns are read
        rows.append(lines[i].split(u','));
    return rows;
}

} // namespace

class TestFocusOracle : public QObject
{
    Q_OBJECT

private slots:
    void kernelSummaryMatchesSql_data();
    void kernelSummaryMatchesSql();
    void nvtxSumMatchesSql_data();
    void nvtxSumMatchesSql();
    void cliRangeMatchesSql_data();
    void cliRangeMatchesSql();
    void analyzeFocusEqualsRuleWindow_data();
    void analyzeFocusEqualsRuleWindow();
    void commandsSayWhatTheyFocusedOn_data();
    void commandsSayWhatTheyFocusedOn();
    void badFocusIsAnError_data();
    void badFocusIsAnError();

private:
    QTemporaryDir m_dir;
};

void TestFocusOracle::kernelSummaryMatchesSql_data()
{
    QTest::addColumn<QString>("file");
    for (const test::OracleExport& e : test::oracleExports())
        if (hasKernels(e.path))
            QTest::newRow(qPrintable(e.label)) << e.path;
}

void TestFocusOracle::kernelSummaryMatchesSql()
{
    QFETCH(QString, file);
    LoadOptions load;
    load.parts = LoadKernels;
    const LoadResult loaded = ProfileLoader::load(file, load);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
    const auto [a, b] = middleOfKernels(file);
    const ReportTable t = focusedReport(u"cuda_gpu_kern_sum"_s, *loaded->profile, FocusRange { a, b, u"mid"_s });
    const auto expected = kernelsBySql(file, a, b);
    QVERIFY(!expected.empty());
    QCOMPARE(kernelsOfReport(t), expected);
}

void TestFocusOracle::nvtxSumMatchesSql_data()
{
    QTest::addColumn<QString>("file");
    // As tst_nvtxreports: the real exports whose NVTX the label SQL reads (textId, domains), and every generated one.
    for (const test::OracleExport& e : test::oracleExports())
        if ((!e.label.startsWith(QLatin1String("nsys")) || e.label.contains(QLatin1String("nvtx"))
                || e.label.contains(QLatin1String("nsys2026.2_h100x2")))
            && hasNvtxRanges(e.path))
            QTest::newRow(qPrintable(e.label)) << e.path;
}

void TestFocusOracle::nvtxSumMatchesSql()
{
    QFETCH(QString, file);
    LoadOptions load;
    load.parts = LoadNvtx;
    const LoadResult loaded = ProfileLoader::load(file, load);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
    // Focus on the middle of the NVTX ranges' span.
    const QList<QStringList> span = test::queryRows(file,
        u"SELECT min(start), max(end) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71) AND end IS NOT NULL"_s);
    const TimeNs lo = span[0][0].toLongLong(), hi = span[0][1].toLongLong();
    const TimeNs a = lo + (hi - lo) * 4 / 10, b = lo + (hi - lo) * 5 / 10;
    const ReportTable t = focusedReport(u"nvtx_sum"_s, *loaded->profile, FocusRange { a, b, u"mid"_s });
    std::map<QString, CountTotal> actual;
    for (const auto& row : t.rows) {
        CountTotal& c = actual[std::get<QString>(row[9]) + u'|' + std::get<QString>(row[8])];
        c.total += std::get<qint64>(row[1]);
        c.count += std::get<qint64>(row[2]);
    }
    const QString sql
        = u"WITH maxts AS (SELECT max(max(start), max(end)) AS m FROM NVTX_EVENTS), "
          "domains AS (SELECT domainId AS id, globalTid AS gt, coalesce(s.value, n.text) AS name FROM NVTX_EVENTS n "
          "LEFT JOIN StringIds s ON s.id = n.textId WHERE eventType = 75 GROUP BY 1, 2), "
          "r AS (SELECT coalesce(d.name, '') || ':' || coalesce(st.value, n.text, '') AS label, "
          "CASE WHEN n.eventType IN (59, 70) THEN 'PushPop' ELSE 'StartEnd' END AS style, n.start AS s, "
          "coalesce(n.end, (SELECT m FROM maxts)) AS e FROM NVTX_EVENTS n "
          "LEFT JOIN domains d ON n.domainId = d.id AND (n.globalTid & 0x0000FFFFFF000000) = (d.gt & "
          "0x0000FFFFFF000000) LEFT JOIN StringIds st ON n.textId = st.id WHERE n.eventType IN (59, 60, 70, 71)) "
          "SELECT label, style, count(*), sum(e - s) FROM r WHERE %1 GROUP BY label, style"_s.arg(
              overlapSql(u"s"_s, u"e"_s, a, b));
    std::map<QString, CountTotal> expected;
    for (const QStringList& r : test::queryRows(file, sql))
        expected[r[0] + u'|' + r[1]] = { r[2].toLongLong(), r[3].toLongLong() };
    QVERIFY(!expected.empty());
    QCOMPARE(actual, expected);
}

void TestFocusOracle::cliRangeMatchesSql_data()
{
    kernelSummaryMatchesSql_data();
}

void TestFocusOracle::cliRangeMatchesSql()
{
    // `stats --range` (the export's own timestamps, as SQL reads them) and `stats --nvtx` (the first range by start)
    // through the command line: the totals of the CSV against SQL. On exports without analysis metadata (2021,
    // 2022.x) the range was taken from the first event, so the typed timestamps missed their kernels (issue 33).
    QFETCH(QString, file);
    const auto [a, b] = middleOfKernels(file);
    const QString out = m_dir.filePath(u"kern.csv"_s);
    QCOMPARE(cli::run({ u"stats"_s, file, u"-r"_s, u"cuda_gpu_kern_sum"_s, u"--format"_s, u"csv"_s, u"--range"_s,
                 u"%1:%2"_s.arg(a).arg(b), u"-o"_s, out }),
        int(cli::ExitOk));
    CountTotal all;
    for (const QStringList& r : csvRows(out)) {
        all.total += r.value(1).toLongLong();
        all.count += r.value(2).toLongLong();
    }
    CountTotal sql;
    for (const auto& [name, c] : kernelsBySql(file, a, b)) {
        sql.count += c.count;
        sql.total += c.total;
    }
    QCOMPARE(all, sql);

    if (!hasNvtxRanges(file))
        return;
    // The first terminated push/pop range of the default domain named by StringIds (a name nsys can look up).
    const QList<QStringList> first = test::queryRows(file,
        u"SELECT s.value, n.start, n.end FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId "
        "WHERE n.eventType = 59 AND n.end IS NOT NULL AND n.domainId = 0 AND n.text IS NULL "
        "ORDER BY n.start LIMIT 1"_s);
    if (first.isEmpty())
        return;
    const QString name = first[0][0];
    if (name.contains(u'@') || name.contains(u'/'))
        return;
    const QList<QStringList> earlier = test::queryRows(file,
        u"SELECT count(*) FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE n.eventType IN (59, 60, "
        "70, 71) AND coalesce(n.text, s.value) = '%1' AND n.start < %2"_s.arg(QString(name).replace(u"'"_s, u"''"_s))
            .arg(first[0][1]));
    if (earlier.value(0).value(0) != u"0"_s)
        return; // an instance in another domain starts earlier: not this check's business
    QCOMPARE(cli::run({ u"stats"_s, file, u"-r"_s, u"cuda_gpu_kern_sum"_s, u"--format"_s, u"csv"_s, u"--nvtx"_s, name,
                 u"-o"_s, out }),
        int(cli::ExitOk) /* or no kernel in it */);
    CountTotal viaNvtx;
    for (const QStringList& r : csvRows(out)) {
        viaNvtx.total += r.value(1).toLongLong();
        viaNvtx.count += r.value(2).toLongLong();
    }
    CountTotal expected;
    for (const auto& [n, c] : kernelsBySql(file, first[0][1].toLongLong(), first[0][2].toLongLong())) {
        expected.count += c.count;
        expected.total += c.total;
    }
    QCOMPARE(viaNvtx, expected);
}

void TestFocusOracle::analyzeFocusEqualsRuleWindow_data()
{
    kernelSummaryMatchesSql_data();
}

void TestFocusOracle::analyzeFocusEqualsRuleWindow()
{
    // The request's focus gives every rule the window its own start/end options give (nsys's filter).
    QFETCH(QString, file);
    const auto [a, b] = middleOfKernels(file);
    const QStringList names = { u"cuda_api_sync"_s, u"cuda_memcpy_sync"_s, u"gpu_gaps"_s, u"gpu_time_util"_s };
    QStringList windowed;
    for (const QString& n : names)
        windowed.append(u"%1:start=%2:end=%3"_s.arg(n).arg(a).arg(b));
    const auto byOptions = computeAnalysis({ file, planRules(windowed).value(), {}, {} });
    AnalysisRequest focused { file, planRules(names).value(), FocusRange { a, b, u"mid"_s }, {} };
    const auto byFocus = computeAnalysis(focused);
    QVERIFY2(byOptions.ok(), qPrintable(byOptions.errorMessage()));
    QVERIFY2(byFocus.ok(), qPrintable(byFocus.errorMessage()));
    QCOMPARE(byFocus->rules.size(), byOptions->rules.size());
    for (std::size_t i = 0; i < byFocus->rules.size(); ++i) {
        QCOMPARE(byFocus->rules[i].skipped, byOptions->rules[i].skipped);
        QCOMPARE(byFocus->rules[i].rows, byOptions->rules[i].rows);
    }
}

void TestFocusOracle::commandsSayWhatTheyFocusedOn_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("firstLine"); ///< how the output starts; empty: pure CSV (the line goes to stderr)
    QTest::addColumn<bool>("json");
    const QString demo = test::demoExport();
    const QString focus = u"focus: 100 ms\u2013200 ms, 100 ms ("_s;
    QTest::newRow("stats table") << QStringList { u"stats"_s, demo, u"-r"_s, u"cuda_gpu_kern_sum"_s } << focus << false;
    QTest::newRow("stats csv") << QStringList { u"stats"_s, demo, u"-r"_s, u"cuda_gpu_kern_sum"_s, u"-f"_s, u"csv"_s }
                               << QString() << false;
    QTest::newRow("stats json") << QStringList { u"stats"_s, demo, u"-r"_s, u"cuda_gpu_kern_sum"_s, u"-f"_s, u"json"_s }
                                << QString() << true;
    QTest::newRow("nvtx markdown") << QStringList { u"nvtx"_s, demo } << focus << false;
    QTest::newRow("nvtx json") << QStringList { u"nvtx"_s, demo, u"-f"_s, u"json"_s } << QString() << true;
    QTest::newRow("nvtx csv") << QStringList { u"nvtx"_s, demo, u"-f"_s, u"csv"_s } << QString() << false;
    QTest::newRow("categories table") << QStringList { u"categories"_s, demo, u"--rule-set"_s, u"vllm"_s, u"--model"_s,
        u"llama"_s } << focus << false;
    QTest::newRow("categories json") << QStringList { u"categories"_s, demo, u"--rule-set"_s, u"vllm"_s, u"--model"_s,
        u"llama"_s, u"-f"_s, u"json"_s }
                                     << QString() << true;
    QTest::newRow("compare table") << QStringList { u"compare"_s, demo, demo } << demo + u": "_s + focus << false;
    QTest::newRow("compare json") << QStringList { u"compare"_s, demo, demo, u"-f"_s, u"json"_s } << QString() << true;
    QTest::newRow("analyze text") << QStringList { u"analyze"_s, demo, u"-r"_s, u"gpu_time_util"_s } << focus << false;
}

void TestFocusOracle::commandsSayWhatTheyFocusedOn()
{
    QFETCH(QStringList, args);
    QFETCH(QString, firstLine);
    QFETCH(bool, json);
    const QString out = m_dir.filePath(u"focused.out"_s);
    QFile::remove(out);
    QCOMPARE(cli::run(args + QStringList { u"--range"_s, u"100ms:200ms"_s, u"-o"_s, out }), int(cli::ExitOk));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    if (json) {
        QVERIFY2(text.contains(u"\"focus\""_s), qPrintable(text.left(300)));
        QVERIFY(text.contains(u"\"start_ns\": 100000000"_s));
        QVERIFY(text.contains(u"\"end_ns\": 200000000"_s));
    } else if (firstLine.isEmpty()) {
        QVERIFY2(!text.startsWith(u"focus: "_s) && !text.contains(u"\nfocus: "_s), qPrintable(text.left(300)));
    } else {
        QVERIFY2(text.startsWith(firstLine), qPrintable(text.left(300)));
    }
    // Without the options: no trace of a focus.
    QCOMPARE(cli::run(args + QStringList { u"-o"_s, out }), int(cli::ExitOk));
    QFile g(out);
    QVERIFY(g.open(QIODevice::ReadOnly));
    const QString unfocused = QString::fromUtf8(g.readAll());
    QVERIFY(!unfocused.startsWith(u"focus: "_s));
    QVERIFY(!unfocused.contains(u"\"focus\":"_s));
}

void TestFocusOracle::badFocusIsAnError_data()
{
    QTest::addColumn<QStringList>("focus");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("malformed range") << QStringList { u"--range"_s, u"1h:2h"_s } << int(cli::ExitUsage);
    QTest::newRow("end before start") << QStringList { u"--range"_s, u"2s:1s"_s } << int(cli::ExitUsage);
    QTest::newRow("both") << QStringList { u"--range"_s, u"1:2"_s, u"--nvtx"_s, u"x"_s } << int(cli::ExitUsage);
    QTest::newRow("unknown NVTX range") << QStringList { u"--nvtx"_s, u"no such range"_s } << int(cli::ExitNoData);
    QTest::newRow("index 0") << QStringList { u"--nvtx"_s, u"x/0"_s } << int(cli::ExitUsage);
}

void TestFocusOracle::badFocusIsAnError()
{
    QFETCH(QStringList, focus);
    QFETCH(int, exitCode);
    const QString demo = test::demoExport();
    const QString out = m_dir.filePath(u"bad.out"_s);
    for (const QStringList& command :
        { QStringList { u"stats"_s, demo, u"-r"_s, u"cuda_gpu_kern_sum"_s }, QStringList { u"nvtx"_s, demo },
            QStringList { u"categories"_s, demo, u"--rule-set"_s, u"vllm"_s, u"--model"_s, u"llama"_s },
            QStringList { u"analyze"_s, demo }, QStringList { u"compare"_s, demo, demo },
            QStringList { u"export"_s, demo } })
        QCOMPARE(cli::run(command + focus + QStringList { u"-o"_s, out }), exitCode);
}

QTEST_GUILESS_MAIN(TestFocusOracle)
#include "tst_focusoracle.moc"

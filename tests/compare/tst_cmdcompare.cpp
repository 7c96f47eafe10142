// SPDX-License-Identifier: GPL-3.0-or-later
// `nsys-workbench compare` end to end: the real executable, its JSON, exit codes and messages.
#include "loaderfixtures.h"
#include "oracleexports.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sqlite3.h>

using namespace nsw;

namespace {
struct CliRun
{
    int exitCode = -1;
    QString out;
    QString err;
};

CliRun run(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(NSW_WORKBENCH_EXE), QStringList { QStringLiteral("compare") } + args);
    if (!p.waitForFinished(120000))
        return {};
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
}

QString s(const char* text)
{
    return QString::fromUtf8(text);
}

const QString kPerKernel = s("SELECT s.value, sum(k.end - k.start), count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                             "JOIN StringIds s ON s.id = k.demangledName GROUP BY s.value");

std::map<std::string, std::pair<qint64, qint64>> perKernel(const QString& path)
{
    std::map<std::string, std::pair<qint64, qint64>> out;
    for (const QStringList& row : test::queryRows(path, kPerKernel))
        out[row[0].toStdString()] = { row[1].toLongLong(), row[2].toLongLong() };
    return out;
}

/// The JSON of a two-profile comparison against SQL on both files: every key, its values, deltas and percents.
void checkJson(const nlohmann::ordered_json& j, const QString& a, const QString& b)
{
    const auto sqlA = perKernel(a);
    const auto sqlB = perKernel(b);
    std::set<std::string> keys;
    for (const auto& [k, v] : sqlA)
        keys.insert(k);
    for (const auto& [k, v] : sqlB)
        keys.insert(k);
    QCOMPARE(j["rows"].size(), keys.size());
    for (const auto& row : j["rows"]) {
        const std::string key = row["key"].get<std::string>();
        const auto va = sqlA.count(key) ? sqlA.at(key) : std::pair<qint64, qint64> {};
        const auto vb = sqlB.count(key) ? sqlB.at(key) : std::pair<qint64, qint64> {};
        QCOMPARE(row["values"][0]["total_ns"].get<qint64>(), va.first);
        QCOMPARE(row["values"][0]["instances"].get<qint64>(), va.second);
        QCOMPARE(row["values"][1]["total_ns"].get<qint64>(), vb.first);
        QCOMPARE(row["values"][1]["instances"].get<qint64>(), vb.second);
        QCOMPARE(row["delta_ns"][0].get<qint64>(), qint64(0));
        QCOMPARE(row["delta_ns"][1].get<qint64>(), vb.first - va.first);
        QCOMPARE(row["delta_pct"][0].get<double>(), 0.0);
        if (va.second == 0)
            QVERIFY(row["delta_pct"][1].is_null());
        else
            QVERIFY(
                std::fabs(row["delta_pct"][1].get<double>() - 100.0 * double(vb.first - va.first) / double(va.first))
                < 1e-9);
    }
}
} // namespace

class TestCmdCompare : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_before;
    QString m_after;

private Q_SLOTS:
    /// before: the loader's modern fixture (gemm 500 + 600 ns, nccl 1000 + 150 ns). after: gemm 1000 ns longer
    /// (+90.9 %), the 150 ns nccl kernel gone (-13.0 %).
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        m_before = m_dir.filePath(s("before.sqlite"));
        m_after = m_dir.filePath(s("after.sqlite"));
        QVERIFY2(test::writeModernExport(m_before, &error), qPrintable(error));
        QVERIFY2(test::writeModernExport(m_after, &error), qPrintable(error));
        // SqliteFixture starts a new file: edit this one with SQLite directly.
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(m_after.toUtf8().constData(), &db), SQLITE_OK);
        const int rc = sqlite3_exec(db,
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = end + 500 WHERE demangledName = 1; "
            "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE demangledName = 4 AND start = -50;",
            nullptr, nullptr, nullptr);
        sqlite3_close(db);
        QCOMPARE(rc, SQLITE_OK);
    }

    void jsonShape()
    {
        const CliRun r = run({ m_before, m_after, s("--format"), s("json"), s("--noise-floor"), s("0") });
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        std::vector<std::string> top;
        for (const auto& [k, v] : j.items())
            top.push_back(k);
        QCOMPARE(top, (std::vector<std::string> { "by", "profiles", "headline", "gpu_idle", "rows" }));
        QVERIFY(j["by"] == "kernel");
        QCOMPARE(j["profiles"].size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(j["profiles"][0].get<std::string>()), m_before);
        QCOMPARE(QString::fromStdString(j["profiles"][1].get<std::string>()), m_after);
        for (const auto& row : j["rows"]) {
            std::vector<std::string> keys;
            for (const auto& [k, v] : row.items())
                keys.push_back(k);
            QCOMPARE(keys,
                (std::vector<std::string> {
                    "key", "values", "delta_ns", "delta_pct", "delta_instances", "status", "per_call_pct", "change" }));
            QCOMPARE(row["values"].size(), std::size_t(2));
            QCOMPARE(row["values"][0].size(), std::size_t(2));
            QVERIFY(row["values"][0].contains("total_ns") && row["values"][0].contains("instances"));
        }
        checkJson(j, m_before, m_after);
        // Largest |delta| first: gemm (+1000 ns, +90.9 %), then nccl (-150 ns, -13.0 %).
        QVERIFY(j["rows"][0]["key"] == "void gemm<float>(float *, int)");
        QVERIFY(j["rows"][0]["status"] == "regression");
        // nccl lost its 150 ns call: its total fell, but per call it went from (1000 + 150) / 2 = 575 ns to 1000 ns
        // (+73.9 %): a regression, the fewer calls said beside it.
        QVERIFY(j["rows"][1]["status"] == "regression");
        QCOMPARE(j["rows"][1]["delta_instances"].dump(), std::string("[0,-1]"));
        QCOMPARE(j["rows"][1]["change"][1].get<std::string>(), std::string("slower, fewer calls"));
        QCOMPARE(j["rows"][0]["change"][1].get<std::string>(), std::string("slower"));
    }

    /// --per instance on a generated before/after pair (and the real one when present): every kernel's average and
    /// median per execution, instances, Δ, Δ % and Δ instances against plain SQL over the kernel rows.
    void perInstanceAgainstSql()
    {
        const QString a = test::pairBefore();
        const QString b = test::pairAfter();
        const CliRun r = run({ a, b, s("--per"), s("instance"), s("--format"), s("json") });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        const QString sql = s("SELECT s.value, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                              "JOIN StringIds s ON s.id = k.demangledName");
        struct Stats
        {
            qint64 count = 0;
            double avg = 0;
            double median = 0;
        };
        const auto perKernel = [&](const QString& path) {
            std::map<std::string, std::vector<qint64>> durations;
            for (const QStringList& row : test::queryRows(path, sql))
                durations[row[0].toStdString()].push_back(row[1].toLongLong());
            std::map<std::string, Stats> out;
            for (auto& [name, d] : durations) {
                std::sort(d.begin(), d.end());
                const std::size_t n = d.size();
                qint64 sum = 0;
                for (const qint64 v : d)
                    sum += v;
                out[name] = { qint64(n), double(sum) / double(n),
                    n % 2 ? double(d[n / 2]) : (double(d[n / 2 - 1]) + double(d[n / 2])) / 2 };
            }
            return out;
        };
        const auto sqlA = perKernel(a);
        const auto sqlB = perKernel(b);
        std::set<std::string> keys;
        for (const auto& m : { sqlA, sqlB })
            for (const auto& [k, v] : m)
                keys.insert(k);
        QCOMPARE(j["rows"].size(), keys.size());
        for (const auto& row : j["rows"]) {
            const std::string key = row["key"].get<std::string>();
            const Stats va = sqlA.count(key) ? sqlA.at(key) : Stats {};
            const Stats vb = sqlB.count(key) ? sqlB.at(key) : Stats {};
            for (const auto& [side, v] : { std::pair { 0, va }, std::pair { 1, vb } }) {
                const auto& cell = row["values"][std::size_t(side)];
                QCOMPARE(cell["instances"].get<qint64>(), v.count);
                if (v.count == 0)
                    continue;
                QVERIFY2(std::fabs(cell["average_ns"].get<double>() - v.avg) <= 1e-9 * v.avg, key.c_str());
                QCOMPARE(cell["median_ns"].get<double>(), v.median);
            }
            QCOMPARE(row["delta_instances"][1].get<qint64>(), vb.count - va.count);
            if (va.count == 0 || vb.count == 0)
                continue;
            const double delta = vb.avg - va.avg;
            QVERIFY(std::fabs(row["delta_ns"][1].get<double>() - delta) <= 1e-6 * std::max(1.0, std::fabs(delta)));
            const double percent = 100.0 * delta / va.avg;
            QVERIFY(std::fabs(row["delta_pct"][1].get<double>() - percent) < 1e-9 * std::max(1.0, std::fabs(percent)));
            // Default threshold 5 % and noise floor 1000 ns, on the average per execution.
            const bool regression = delta > 1000 && percent > 5;
            QCOMPARE(row["status"] == "regression", regression);
            if (regression)
                QVERIFY(row["change"][1].get<std::string>().find("slower") != std::string::npos);
        }
        // The text table shows the median and instance counts beside the average, and Δ instances.
        const CliRun text = run({ a, b, s("--per"), s("instance") });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(s("unit ns/instance")), qPrintable(text.out.left(300)));
        QString header;
        for (const QString& line : text.out.split(QLatin1Char('\n')))
            if (line.startsWith(s("Status")))
                header = line;
        QVERIFY2(
            header.contains(s("Median")) && header.contains(s("Instances")) && header.contains(s("Delta instances")),
            qPrintable(header));
        const CliRun csv = run({ a, b, s("--per"), s("instance"), s("--format"), s("csv") });
        QVERIFY(csv.out.startsWith(s("Key,Status,") + a + s(" Total (ns),") + a + s(" Instances,") + a
            + s(" Average (ns),") + a + s(" Median (ns),")));
    }

    void profilesInCommandLineOrder()
    {
        const CliRun r = run({ m_after, m_before, m_after, s("--format"), s("json"), s("--noise-floor"), s("0") });
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        QCOMPARE(j["profiles"].size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(j["profiles"][1].get<std::string>()), m_before);
        const auto& gemm = j["rows"][0];
        QVERIFY(gemm["key"] == "void gemm<float>(float *, int)");
        QCOMPARE(gemm["delta_ns"].dump(), std::string("[0,-1000,0]"));
        QVERIFY(gemm["status"] == "improvement");
    }

    void failAbove_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<bool>("self");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("gemm +90.9 % above 50 %")
            << QStringList { s("--fail-above"), s("50"), s("--noise-floor"), s("0") } << false << 3;
        QTest::newRow("nothing above 95 %")
            << QStringList { s("--fail-above"), s("95"), s("--noise-floor"), s("0") } << false << 0;
        QTest::newRow("within the noise floor")
            << QStringList { s("--fail-above"), s("50"), s("--noise-floor"), s("1000") } << false << 0;
        QTest::newRow("self at 0 %") << QStringList { s("--fail-above"), s("0"), s("--noise-floor"), s("0") } << true
                                     << 0;
        QTest::newRow("no gate") << QStringList { s("--noise-floor"), s("0") } << false << 0;
    }

    void failAbove()
    {
        QFETCH(QStringList, extra);
        QFETCH(bool, self);
        QFETCH(int, exitCode);
        const CliRun r = run(QStringList { m_before, self ? m_before : m_after } + extra);
        QCOMPARE(r.exitCode, exitCode);
        if (exitCode == 3)
            QVERIFY2(r.err.contains(s("regression above 50 %: void gemm<float>(float *, int) (+90.9 %)")),
                qPrintable(r.err));
        else
            QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QVERIFY(r.out.startsWith(s("Compared by kernel")));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("one trace") << QStringList { s("x.sqlite") } << 1
                                   << s("compare needs a BASE and at least one OTHER");
        QTest::newRow("bad key") << QStringList { s("a"), s("b"), s("--by"), s("name") } << 1
                                 << s("--by must be category, kernel or nvtx, not 'name'");
        QTest::newRow("bad normalize") << QStringList { s("a"), s("b"), s("--normalize"), s("all") } << 1
                                       << s("--normalize must be none or names");
        QTest::newRow("bad per") << QStringList { s("a"), s("b"), s("--per"), s("call") } << 1
                                 << s("--per must be none, second, iteration or instance, not 'call'");
        QTest::newRow("iteration without marker") << QStringList { s("a"), s("b"), s("--per"), s("iteration") } << 1
                                                  << s("--per iteration needs --marker NAME");
        QTest::newRow("rules without category")
            << QStringList { s("a"), s("b"), s("--rule-set"), s("vllm") } << 1 << s("need --by category");
        QTest::newRow("category without rules") << QStringList { s("a"), s("b"), s("--by"), s("category") } << 1
                                                << s("give either --rules FILE or --rule-set NAME");
        QTest::newRow("bad threshold") << QStringList { s("a"), s("b"), s("--threshold"), s("-3") } << 1
                                       << s("--threshold must be a percentage >= 0");
        QTest::newRow("bad fail-above") << QStringList { s("a"), s("b"), s("--fail-above"), s("lots") } << 1
                                        << s("--fail-above must be a percentage >= 0, not 'lots'");
        QTest::newRow("missing rules file") << QStringList { s("a"), s("b"), s("--by"), s("category"), s("--rules"),
            s("/nonexistent/r.json") } << 2 << s("/nonexistent/r.json");
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CliRun r = run(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.err.startsWith(s("nsys-workbench: ")));
        QVERIFY(r.out.isEmpty());
    }

    void unreadableTraces()
    {
        CliRun r = run({ m_before, s("/nonexistent/other.sqlite") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(s("/nonexistent/other.sqlite")), qPrintable(r.err));
        const QString text = m_dir.filePath(s("notes.sqlite"));
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a database\n");
        f.close();
        r = run({ text, m_after });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(text), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one line
    }

    void missingData()
    {
        QString error;
        const QString old = m_dir.filePath(s("old.sqlite"));
        QVERIFY2(test::writeOldExport(old, &error), qPrintable(error));
        CliRun r = run({ old, old, s("--by"), s("nvtx") });
        QVERIFY2(r.exitCode == 4, qPrintable(r.err));
        QVERIFY2(r.err.contains(s("no NVTX ranges in")), qPrintable(r.err));
        r = run({ m_before, m_after, s("--marker"), s("no such range") });
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains(m_before + s(": no NVTX range named 'no such range' (the iteration marker)")),
            qPrintable(r.err));
    }

    /// "step" exists once in each fixture: per iteration equals the totals.
    void perIterationAndCsv()
    {
        const CliRun r = run({ m_before, m_after, s("--marker"), s("step"), s("--format"), s("csv") });
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split(s("\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 1 + 2);
        QVERIFY(lines[0].startsWith(s("Key,Status,") + m_before + s(" Total (ns/iteration),")));
        QVERIFY2(
            lines[2].startsWith(s("\"void gemm<float>(float *, int)\",unchanged,1100,2,550,")), qPrintable(lines[2]));
    }

    void png()
    {
        const QString file = m_dir.filePath(s("c.png"));
        const CliRun r = run({ m_before, m_after, s("--png"), file, s("--png-size"), s("900x500") });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QImage(file).size(), QSize(900, 500));
    }

    /// The headline (issue 33): on a before/after pair whose call counts differ it led with "1 regression, 26
    /// improvements (fewer calls)". It now leads with the largest regression per call, counts call changes as
    /// neither, and gives each GPU's idle share; every number against SQL on the files (per-kernel averages; the
    /// union of kernels and memory operations per device inside the capture span `info` reports).
    void headlineLeadsWithTheChangesPerCall()
    {
        const QString a = test::pairBefore(), b = test::pairAfter();
        const CliRun r = run({ a, b, s("--format"), s("json") });
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        const auto sqlA = perKernel(a), sqlB = perKernel(b);
        int regressions = 0, improvements = 0, unchanged = 0;
        double worst = 0, worstPercent = 0;
        for (const auto& [key, va] : sqlA) {
            if (!sqlB.count(key))
                continue;
            const auto vb = sqlB.at(key);
            const double avgA = double(va.first) / double(va.second), avgB = double(vb.first) / double(vb.second);
            const double percent = 100.0 * (avgB - avgA) / avgA, effect = (avgB - avgA) * double(vb.second);
            const bool counts = std::fabs(effect) > 1000; // the default noise floor
            regressions += counts && percent > 5;
            improvements += counts && percent < -5;
            unchanged += !(counts && std::fabs(percent) > 5);
            if (counts && percent > 5 && effect > worst) {
                worst = effect;
                worstPercent = percent;
            }
        }
        const auto& headline = j["headline"];
        QVERIFY(headline.size() >= 3);
        const QString first = QString::fromStdString(headline[0].get<std::string>());
        if (regressions == 0) {
            QVERIFY2(first.startsWith(s("No key is slower per call")), qPrintable(first));
        } else {
            QVERIFY2(first.startsWith(s("Slower per call: ")), qPrintable(first));
            const QString percent = s("+%1 %").arg(worstPercent, 0, 'f', 1);
            QVERIFY2(first.section(s("; "), 0, 0).contains(percent), qPrintable(first + s(" / ") + percent));
        }
        const QString counts = QString::fromStdString(headline[headline.size() - 1].get<std::string>());
        QVERIFY2(counts.contains(s("%1 regressions, %2 improvements").arg(regressions).arg(improvements)),
            qPrintable(counts));
        QVERIFY2(counts.contains(s("%1 unchanged per call").arg(unchanged)), qPrintable(counts));
        // Fewer or more calls alone are neither: no improvement or regression says only that.
        for (const auto& row : j["rows"]) {
            const std::string change = row["change"][1].get<std::string>();
            if (row["status"] == "regression" || row["status"] == "improvement")
                QVERIFY2(change.find("slower") != std::string::npos || change.find("faster") != std::string::npos,
                    change.c_str());
        }

        // GPU idle per device, baseline and after, against SQL.
        for (std::size_t p = 0; p < 2; ++p) {
            const QString file = p == 0 ? a : b;
            QProcess info;
            info.start(QStringLiteral(NSW_WORKBENCH_EXE), { s("info"), file, s("--format"), s("json") });
            QVERIFY(info.waitForFinished(60000));
            const auto span = nlohmann::json::parse(info.readAllStandardOutput().toStdString())["capture_span"];
            const qint64 from = span["start_ns"].get<qint64>(), to = span["end_ns"].get<qint64>();
            QVERIFY(!j["gpu_idle"][p].empty());
            for (const auto& gpu : j["gpu_idle"][p]) {
                const int device = gpu["gpu"].get<int>();
                std::vector<std::pair<qint64, qint64>> busy;
                for (const char* table :
                    { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET" })
                    for (const QStringList& row : test::queryRows(file,
                             s("SELECT max(start, %1), min(end, %2) FROM %3 WHERE deviceId = %4 AND end > %1 AND "
                               "start < %2")
                                 .arg(from)
                                 .arg(to)
                                 .arg(QLatin1String(table))
                                 .arg(device)))
                        busy.emplace_back(row[0].toLongLong(), row[1].toLongLong());
                std::sort(busy.begin(), busy.end());
                qint64 covered = 0, reach = from;
                for (const auto& [start, end] : busy) {
                    covered += std::max<qint64>(0, end - std::max(start, reach));
                    reach = std::max(reach, end);
                }
                const double idle = 100.0 * double((to - from) - covered) / double(to - from);
                QVERIFY2(std::fabs(gpu["idle_pct"].get<double>() - idle) < 1e-6,
                    qPrintable(s("GPU %1 of %2: %3 % against SQL %4 %")
                                   .arg(device)
                                   .arg(file)
                                   .arg(gpu["idle_pct"].get<double>())
                                   .arg(idle)));
            }
        }
    }

    void realPairAgainstSql()
    {
        const QString a = test::pairBefore();
        const QString b = test::pairAfter();
        const CliRun r = run({ a, b, s("--format"), s("json") });
        QCOMPARE(r.exitCode, 0);
        checkJson(nlohmann::ordered_json::parse(r.out.toStdString()), a, b);
    }
};

QTEST_GUILESS_MAIN(TestCmdCompare)
#include "tst_cmdcompare.moc"

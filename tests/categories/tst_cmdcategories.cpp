// SPDX-License-Identifier: GPL-3.0-or-later
// `nsys-workbench categories` end to end: the real executable, its exit codes, messages and outputs.
#include "core/sqlite/sqlitedb.h"
#include "oracleexports.h"
#include "testutils.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

namespace {
struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

Result run(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(NSW_WORKBENCH_EXE), QStringList { QStringLiteral("categories") } + args);
    if (!p.waitForFinished(120000))
        return {};
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
}

QString trace()
{
    return nsw::test::pairBefore();
}
} // namespace

class TestCmdCategories : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(bytes);
        return path;
    }

private Q_SLOTS:
    void invalidRules_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QByteArray good = "{\"e\": {\"m\": {\"gemm\": \"gemm\", \".*\": \"misc\"}, \"m2\": {\".*\": \"x\"}}}";
        QTest::newRow("bad JSON") << QByteArray("{\"e\": ") << QStringList() << 2
                                  << QStringLiteral(": not valid JSON: ");
        QTest::newRow("wrong shape") << QByteArray("{\"e\": {\"m\": [\"gemm\"]}}") << QStringList() << 2
                                     << QStringLiteral(": e/m: expected an object of {regex: category}, found array");
        QTest::newRow("bad regex") << QByteArray("{\"e\": {\"m\": {\"ok\": \"a\", \"gemm(\": \"b\"}}}") << QStringList()
                                   << 2
                                   << QStringLiteral(": e/m rule 2 \"gemm(\": invalid regular expression at offset 5: "
                                                     "missing closing parenthesis");
        QTest::newRow("unknown engine") << good << QStringList { QStringLiteral("--engine"), QStringLiteral("vllm") }
                                        << 2 << QStringLiteral(": no engine \"vllm\" (engines: e)");
        QTest::newRow("unknown model") << good << QStringList { QStringLiteral("--model"), QStringLiteral("llama") }
                                       << 2 << QStringLiteral(": engine \"e\" has no model \"llama\" (models: m, m2)");
        QTest::newRow("ambiguous model") << good << QStringList() << 2
                                         << QStringLiteral(
                                                ": engine \"e\" has several models, choose one with --model");
        QTest::newRow("bad time mode") << good << QStringList { QStringLiteral("--time-mode"), QStringLiteral("wall") }
                                       << 1 << QStringLiteral("--time-mode must be sum, busy, exclusive or g2g");
        QTest::newRow("elapsed count") << good << QStringList { QStringLiteral("--elapsed"), QStringLiteral("1,2") }
                                       << 1 << QStringLiteral("--elapsed needs one value per trace (1)");
    }

    void invalidRules()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, extra);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QString rules = write(QStringLiteral("r.json"), json);
        // The rules are checked before the trace is read, so the trace need not exist.
        const Result r
            = run(QStringList { QStringLiteral("/nonexistent.sqlite"), QStringLiteral("--rules"), rules } + extra);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        if (exitCode == 2 && !message.startsWith(QLatin1String("--")))
            QVERIFY2(r.err.contains(rules), qPrintable(r.err)); // names the file
        QVERIFY(r.out.isEmpty());
    }

    void unreadableInputs()
    {
        Result r = run({ QStringLiteral("/nonexistent.sqlite"), QStringLiteral("--rules"),
            QStringLiteral("/nonexistent/r.json") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.startsWith(QStringLiteral("nsys-workbench: /nonexistent/r.json: ")));
        r = run({ QStringLiteral("/nonexistent.sqlite"), QStringLiteral("--rule-set"), QStringLiteral("pytorch") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("/nonexistent.sqlite")));
        r = run({ QStringLiteral("x.sqlite"), QStringLiteral("--rule-set"), QStringLiteral("nope") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(
            QStringLiteral("no shipped rule set 'nope' (rule sets: vllm, sglang, trtllm, pytorch, tensorcores)")));
        r = run({ QStringLiteral("x.sqlite") });
        QCOMPARE(r.exitCode, 1);
    }

    /// CSV against an independent SQL computation on the real export (sum mode, substring rules SQL can apply).
    void csvMatchesSql()
    {
        const QString rules = write(QStringLiteral("sub.json"),
            "{\"t\": {\"m\": {\"nvjet\": \"gemm\", \"flash\": \"attn\", \"nccl\": \"comm\", \"CUDA memcpy\": \"copy\", "
            "\"CUDA memset\": \"set\", \".*\": \"other\"}}}");
        const Result r = run({ trace(), QStringLiteral("--rules"), rules, QStringLiteral("--time-mode"),
            QStringLiteral("sum"), QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(r.exitCode, 0);
        QString error;
        const auto db = nsw::SqliteDb::open(trace(), &error);
        QVERIFY2(db, qPrintable(error));
        // Rows in rule order; share = time / total, two decimals.
        const QString sql = QStringLiteral(
            "WITH rows AS (SELECT CASE WHEN instr(n.value,'nvjet') THEN 1 WHEN instr(n.value,'flash') THEN 2 "
            "WHEN instr(n.value,'nccl') THEN 3 ELSE 6 END AS o, k.end - k.start AS d FROM CUPTI_ACTIVITY_KIND_KERNEL k "
            "JOIN StringIds n ON n.id = k.demangledName UNION ALL SELECT 4, end - start FROM "
            "CUPTI_ACTIVITY_KIND_MEMCPY "
            "UNION ALL SELECT 5, end - start FROM CUPTI_ACTIVITY_KIND_MEMSET), "
            "total AS (SELECT sum(d) AS t FROM rows) "
            "SELECT group_concat(line, '|') FROM (SELECT o, '%1,' || CASE o WHEN 1 THEN 'gemm' WHEN 2 THEN 'attn' "
            "WHEN 3 THEN 'comm' WHEN 4 THEN 'copy' WHEN 5 THEN 'set' ELSE 'other' END || ',' || count(*) || ',' || "
            "sum(d) || ',' || printf('%.2f', 100.0 * sum(d) / (SELECT t FROM total)) AS line FROM rows GROUP BY o "
            "ORDER BY o)")
                                .arg(QFileInfo(trace()).fileName());
        const QString expected = QStringLiteral("Profile,Category,Instances,Time (ns),Share (%)\n")
            + db->scalarText(sql).replace(QLatin1Char('|'), QLatin1Char('\n')) + QLatin1Char('\n');
        QCOMPARE(r.out, expected);
    }

    void outputs()
    {
        const QString png = m_dir.filePath(QStringLiteral("c.png"));
        const QString mapping = m_dir.filePath(QStringLiteral("result.csv"));
        Result r = run({ trace(), trace(), QStringLiteral("--rule-set"), QStringLiteral("pytorch"),
            QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--elapsed"),
            QStringLiteral("0.01,capture"), QStringLiteral("--png"), png, QStringLiteral("--png-size"),
            QStringLiteral("900x500"), QStringLiteral("--mapping"), mapping });
        QCOMPARE(r.exitCode, 0);
        // 10 ms of wall time is less than the GPU time: a warning, not a silent clamp.
        QVERIFY2(r.err.contains(QStringLiteral("warning: %1: wall time 10.0 ms is shorter than the GPU time")
                                    .arg(QFileInfo(trace()).fileName())),
            qPrintable(r.err));
        const auto json = nlohmann::ordered_json::parse(r.out.toStdString());
        QCOMPARE(json["timeMode"].get<std::string>(), std::string("g2g"));
        QCOMPARE(json["engine"].get<std::string>(), std::string("pytorch"));
        QCOMPARE(json["bars"].size(), std::size_t(2));
        QVERIFY(json["bars"][0].contains("warning"));
        QCOMPARE(json["bars"][0]["cpuTimeNs"].get<qint64>(), qint64(0));
        QVERIFY(!json["bars"][1].contains("warning"));
        QCOMPARE(json["bars"][1]["wallTimeNs"].get<qint64>() - json["bars"][1]["gpuTimeNs"].get<qint64>(),
            json["bars"][1]["cpuTimeNs"].get<qint64>());
        QCOMPARE(QImage(png).size(), QSize(900, 500));
        QFile m(mapping);
        QVERIFY(m.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = m.readAll().split('\n');
        QCOMPARE(lines[0],
            QByteArray("Model_Engine,Category,Instances,Name,Elapsed Time (sec),Total Time (sec),Time "
                       "Mode,Rule"));
        // The trace twice: rows of its first copy ("_0") come first, the CPU segment first among them.
        const QByteArray firstRow
            = "training_pytorch_" + QFileInfo(trace()).completeBaseName().toUtf8() + "_0,CPU(non-GPU),1,CPU(non-GPU)";
        QVERIFY2(lines[1].startsWith(firstRow), lines[1].constData());
    }
};

QTEST_GUILESS_MAIN(TestCmdCategories)
#include "tst_cmdcategories.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the real executable headless, as scripts and CI do.
#include "loaderfixtures.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw::test;

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

class TestCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_modern;
    QString m_old;

    static Run run(const QStringList& args)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY")); // commands must not need a display
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(NSW_APP_PATH), args);
        if (!p.waitForFinished(60000))
            return {};
        return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError()) };
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_modern = m_dir.filePath(QStringLiteral("modern.sqlite"));
        m_old = m_dir.filePath(QStringLiteral("old.sqlite"));
        QString error;
        QVERIFY2(writeModernExport(m_modern, &error), qPrintable(error));
        QVERIFY2(writeOldExport(m_old, &error), qPrintable(error));
    }

    void helpForEveryCommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addRow("top level") << QStringList { QStringLiteral("--help") };
        QTest::addRow("stats") << QStringList { QStringLiteral("stats"), QStringLiteral("--help") };
        QTest::addRow("info") << QStringList { QStringLiteral("info"), QStringLiteral("--help") };
        QTest::addRow("nvtx") << QStringList { QStringLiteral("nvtx"), QStringLiteral("--help") };
        QTest::addRow("categories") << QStringList { QStringLiteral("categories"), QStringLiteral("--help") };
        QTest::addRow("nvlink") << QStringList { QStringLiteral("nvlink"), QStringLiteral("--help") };
        QTest::addRow("compare") << QStringList { QStringLiteral("compare"), QStringLiteral("--help") };
    }
    void helpForEveryCommand()
    {
        QFETCH(QStringList, args);
        const Run r = run(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Usage:")), qPrintable(r.out));
        // The usage line names the command as it is typed.
        if (args.first() != QLatin1String("--help"))
            QVERIFY2(r.out.startsWith(QStringLiteral("Usage: nsys-workbench ") + args.first() + QLatin1Char(' ')),
                qPrintable(r.out));
    }

    void kernelSummaryCsvIsExact()
    {
        // gemm: 500 and 600 ns; NCCL: 1000 and 150 ns (the second starts at -50). Grand total 2250 ns.
        // stddev 100/sqrt(2) = 70.71 and 850/sqrt(2) = 601.04.
        const Run r = run({ QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("cuda_gpu_kern_sum"),
            QStringLiteral("--format"), QStringLiteral("csv"), m_modern });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        const QString expected = QStringLiteral(
            "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
            "51.1,1150,2,575.0,575.0,150,1000,601.0,\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *, unsigned "
            "long, ncclWork *)\"\n"
            "48.9,1100,2,550.0,550.0,500,600,70.7,\"void gemm<float>(float *, int)\"\n\n");
        QCOMPARE(r.out, expected);
    }

    void outputFileAndJson()
    {
        const QString file = m_dir.filePath(QStringLiteral("api.json"));
        const Run r = run({ QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("cuda_api_sum"),
            QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), file, m_modern });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.isEmpty());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(j.value(QStringLiteral("report")).toString(), QStringLiteral("cuda_api_sum"));
        // cudaLaunchKernel: 50 + 50 + 60 + 100 (driver-class call, same name id) = 260 ns in 4 calls.
        const QJsonObject first = j.value(QStringLiteral("rows")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("Name")).toString(), QStringLiteral("cudaLaunchKernel"));
        QCOMPARE(first.value(QStringLiteral("Total Time (ns)")).toInteger(), qint64(260));
        QCOMPARE(first.value(QStringLiteral("Num Calls")).toInteger(), qint64(4));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrContains");
        const QString missing = QStringLiteral("/nonexistent/trace.sqlite");
        QTest::addRow("missing file") << QStringList { QStringLiteral("stats"), QStringLiteral("-r"),
            QStringLiteral("cuda_api_sum"), missing }
                                      << 2 << missing + QStringLiteral(": no such file");
        QTest::addRow("unknown report") << QStringList { QStringLiteral("stats"), QStringLiteral("-r"),
            QStringLiteral("gpu_magic"), QStringLiteral("x.sqlite") }
                                        << 1 << QStringLiteral("unknown report 'gpu_magic'");
        QTest::addRow("no report") << QStringList { QStringLiteral("stats"), QStringLiteral("x.sqlite") } << 1
                                   << QStringLiteral("no report given");
        QTest::addRow("bad format") << QStringList { QStringLiteral("stats"), QStringLiteral("-r"),
            QStringLiteral("cuda_api_sum"), QStringLiteral("-f"), QStringLiteral("xml"), QStringLiteral("x.sqlite") }
                                    << 1 << QStringLiteral("--format must be");
        QTest::addRow("info on a directory") << QStringList { QStringLiteral("info"), QStringLiteral("/tmp") } << 2
                                             << QStringLiteral("/tmp: is a directory");
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrContains);
        const Run r = run(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(stderrContains), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one line
    }

    void skippedReportsSayWhy()
    {
        // The old export has no memory copies: nsys prints SKIPPED on stderr.
        const Run r
            = run({ QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("cuda_gpu_mem_time_sum"), m_old });
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains(QStringLiteral("SKIPPED: "))
                && r.err.contains(QStringLiteral("does not contain GPU memory data.")),
            qPrintable(r.err));
        const Run both = run(
            { QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("cuda_gpu_mem_time_sum,cuda_gpu_kern_sum"),
                QStringLiteral("-f"), QStringLiteral("csv"), m_old });
        QCOMPARE(both.exitCode, 0);
        QVERIFY(both.out.contains(QStringLiteral("build_GPU2(int *, int)")));
    }

    void info()
    {
        const Run r = run({ QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("json"), m_modern });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j.value(QStringLiteral("nsys_version")).toString(), QStringLiteral("2026.2.1.210"));
        QCOMPARE(
            j.value(QStringLiteral("rows")).toObject().value(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL")).toInteger(),
            qint64(4));
        QCOMPARE(j.value(QStringLiteral("gpus_listed")).toArray().size(), 2);
        QCOMPARE(j.value(QStringLiteral("gpus_used")).toArray().size(), 2); // device 0 of pid 100 and of pid 200
        const Run load = run({ QStringLiteral("info"), QStringLiteral("--load"), m_modern });
        QCOMPARE(load.exitCode, 0);
        QVERIFY2(load.out.contains(QStringLiteral("Reading kernels"))
                && load.out.contains(QStringLiteral("Profile in memory")),
            qPrintable(load.out));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"

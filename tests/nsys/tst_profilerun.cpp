// SPDX-License-Identifier: GPL-3.0-or-later
// `nsys profile` from the workbench, against a scripted stand-in for nsys: the arguments it gets, the .qdstrm that
// Debian's nsys leaves (imported here), and requests refused before nsys runs.
#include "core/nsys/profilerun.h"
#include "fakensys.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;
using namespace nsw::test;

class TestProfileRun : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    ProfileRequest request(const QString& name) const
    {
        ProfileRequest r;
        r.program = QStringLiteral("true"); // on every PATH
        r.outputFolder = m_dir.path();
        r.outputName = name;
        return r;
    }

private Q_SLOTS:
    void argumentsGivenToNsys()
    {
        ProfileRequest r = request(QStringLiteral("args"));
        r.program = QStringLiteral("./app");
        r.arguments = { QStringLiteral("--size"), QStringLiteral("big input") };
        r.trace = { QStringLiteral("cuda"), QStringLiteral("nvtx") };
        r.delaySeconds = 2;
        r.durationSeconds = 10.5;
        QCOMPARE(nsysProfileArguments(r),
            (QStringList { QStringLiteral("profile"), QStringLiteral("--trace=cuda,nvtx"),
                QStringLiteral("--sample=none"), QStringLiteral("--cpuctxsw=none"), QStringLiteral("--delay=2"),
                QStringLiteral("--duration=10.5"), QStringLiteral("--output=") + m_dir.filePath(QStringLiteral("args")),
                QStringLiteral("./app"), QStringLiteral("--size"), QStringLiteral("big input") }));
        r.sampleCpu = true;
        QVERIFY(!nsysProfileArguments(r).contains(QStringLiteral("--sample=none")));
    }

    void refusedBeforeNsysRuns_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("expected");
        QTest::newRow("program not on PATH")
            << QStringLiteral("no-such-program-xyz") << QStringLiteral("") << QStringLiteral("r")
            << QStringLiteral("cuda") << QStringLiteral("no-such-program-xyz: no such program on PATH");
        QTest::newRow("program path missing")
            << QStringLiteral("/nonexistent/app") << QStringLiteral("") << QStringLiteral("r") << QStringLiteral("cuda")
            << QStringLiteral("/nonexistent/app: no such executable file");
        QTest::newRow("output folder missing")
            << QStringLiteral("true") << QStringLiteral("/nonexistent/folder") << QStringLiteral("r")
            << QStringLiteral("cuda") << QStringLiteral("/nonexistent/folder: the output folder does not exist");
        QTest::newRow("name with a folder") << QStringLiteral("true") << QStringLiteral("") << QStringLiteral("a/b")
                                            << QStringLiteral("cuda") << QStringLiteral("'a/b' is not a report name");
        QTest::newRow("unknown trace") << QStringLiteral("true") << QStringLiteral("") << QStringLiteral("r")
                                       << QStringLiteral("cuda,gpu-magic")
                                       << QStringLiteral("unknown trace 'gpu-magic'");
        QTest::newRow("nothing traced") << QStringLiteral("true") << QStringLiteral("") << QStringLiteral("r")
                                        << QStringLiteral("") << QStringLiteral("nothing to trace");
        QTest::newRow("report exists") << QStringLiteral("true") << QStringLiteral("") << QStringLiteral("existing")
                                       << QStringLiteral("cuda") << QStringLiteral("existing.nsys-rep exists already");
    }
    void refusedBeforeNsysRuns()
    {
        QFETCH(QString, program);
        QFETCH(QString, folder);
        QFETCH(QString, name);
        QFETCH(QString, trace);
        QFETCH(QString, expected);
        FakeNsys nsys;
        QVERIFY(writeReportLookalike(m_dir.filePath(QStringLiteral("existing.nsys-rep"))));
        ProfileRequest r = request(name);
        r.program = program;
        if (!folder.isEmpty())
            r.outputFolder = folder;
        r.trace = trace.split(QLatin1Char(','), Qt::SkipEmptyParts);
        const Result<ProfileOutcome> outcome = profileApplication(r, JobContext(), {}, CancelToken());
        QVERIFY(!outcome.ok());
        QCOMPARE(int(outcome.error().kind), int(ErrorKind::Usage));
        QVERIFY2(outcome.errorMessage().contains(expected), qPrintable(outcome.errorMessage()));
        QVERIFY(nsys.calls(QStringLiteral("profile")).isEmpty());
    }

    void writesTheReport_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<int>("imports");
        QTest::newRow("nsys imports itself") << QStringLiteral("report") << 0 << 0;
        QTest::newRow("Debian's nsys leaves a qdstrm: imported here") << QStringLiteral("stream") << 0 << 1;
        QTest::newRow("the application fails: the report is kept, the code passed on")
            << QStringLiteral("report") << 3 << 0;
    }
    void writesTheReport()
    {
        QFETCH(QString, mode);
        QFETCH(int, exitCode);
        QFETCH(int, imports);
        FakeNsys nsys;
        nsys.setProfileMode(mode);
        nsys.setProfileExitCode(exitCode);
        const QString name = QStringLiteral("run-") + QString::number(QTest::currentDataTag()[0]);
        QString log;
        const Result<ProfileOutcome> outcome = profileApplication(
            request(name), JobContext(), [&](const QString& text) { log += text; }, CancelToken());
        QVERIFY2(outcome.ok(), qPrintable(outcome.errorMessage()));
        QCOMPARE(outcome->reportPath, m_dir.filePath(name + QStringLiteral(".nsys-rep")));
        QVERIFY(QFileInfo(outcome->reportPath).isFile());
        QCOMPARE(outcome->applicationExitCode, exitCode);
        QCOMPARE(nsys.calls(QStringLiteral("import")).size(), imports);
        QVERIFY(!QFileInfo::exists(m_dir.filePath(name + QStringLiteral(".qdstrm"))));
        QVERIFY2(log.contains(QStringLiteral("Collecting data...")), qPrintable(log));
        QVERIFY2(log.startsWith(QStringLiteral("$ ") + nsys.nsysPath() + QStringLiteral(" profile")), qPrintable(log));
    }

    void noReportIsAnError()
    {
        FakeNsys nsys;
        nsys.setProfileMode(QStringLiteral("none"));
        nsys.setProfileExitCode(1);
        const Result<ProfileOutcome> outcome
            = profileApplication(request(QStringLiteral("none")), JobContext(), {}, CancelToken());
        QVERIFY(!outcome.ok());
        QVERIFY2(outcome.errorMessage().contains(QStringLiteral("wrote no report (exit code 1)")),
            qPrintable(outcome.errorMessage()));
    }
};

QTEST_GUILESS_MAIN(TestProfileRun)
#include "tst_profilerun.moc"

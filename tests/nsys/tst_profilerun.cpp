// SPDX-License-Identifier: GPL-3.0-or-later
// `nsys profile` from the workbench, against a scripted stand-in for nsys: the arguments it gets, the .qdstrm that
// Debian's nsys leaves (imported here), and requests refused before nsys runs.
#include "core/nsys/profilerun.h"
#include "core/nvlink/tracefolder.h"
#include "fakensys.h"

#include <QDir>
#include <QFile>
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

    /// A stand-in for the CCL-Bench NVLink recorder: --mode ok writes an NVF1 header to --out and records until
    /// Ctrl+C (leaving OUT.interrupted); garbage writes text instead; die prints NVML's complaint and exits 3.
    QString recorderScript() const
    {
        const QString path = m_dir.filePath(QStringLiteral("fake-recorder"));
        if (QFileInfo::exists(path))
            return path;
        QFile script(path);
        if (!script.open(QIODevice::WriteOnly))
            return {};
        script.write("#!/bin/sh\n"
                     "out=''; gpu=''; mode=ok\n"
                     "while [ $# -gt 0 ]; do\n"
                     "  case \"$1\" in --out) out=\"$2\"; shift ;; --gpu) gpu=\"$2\"; shift ;; --mode) mode=\"$2\"; "
                     "shift ;; esac\n"
                     "  shift\n"
                     "done\n"
                     "if [ \"$mode\" = die ]; then\n"
                     "  if [ \"$gpu\" = 7 ]; then echo \"NVML: GPU 7 not found\" >&2; exit 3; fi\n"
                     "fi\n"
                     "trap 'touch \"$out.interrupted\"; exit 0' INT\n"
                     "if [ \"$mode\" = garbage ]; then echo hello > \"$out\"; else printf "
                     "'NVF1\\001\\000\\050\\000\\010\\000\\000\\000' > \"$out\"; fi\n"
                     "while :; do sleep 0.02; done\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
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

    void parsesGpuLists_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("gpus");
        QTest::newRow("one") << QStringLiteral("0") << QList<int> { 0 };
        QTest::newRow("list") << QStringLiteral("0,2, 3") << QList<int> { 0, 2, 3 };
        QTest::newRow("range") << QStringLiteral("0-3") << QList<int> { 0, 1, 2, 3 };
        QTest::newRow("reversed range") << QStringLiteral("3-0") << QList<int> {};
        QTest::newRow("not a number") << QStringLiteral("0,x") << QList<int> {};
        QTest::newRow("negative") << QStringLiteral("-1") << QList<int> {};
        QTest::newRow("a typo, not a thousand recorders") << QStringLiteral("0-999") << QList<int> {};
    }
    void parsesGpuLists()
    {
        QFETCH(QString, text);
        QFETCH(QList<int>, gpus);
        QCOMPARE(parseGpuList(text), gpus);
    }

    void recordsNvlinkAlongside_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QList<int>>("gpus");
        QTest::addColumn<QList<int>>("recorded");
        QTest::addColumn<QString>("warning");
        QTest::newRow("one GPU") << QStringLiteral("ok") << QList<int> { 0 } << QList<int> { 0 } << QString();
        QTest::newRow("a recorder per GPU")
            << QStringLiteral("ok") << QList<int> { 1, 3 } << QList<int> { 1, 3 } << QString();
        QTest::newRow("a recorder that writes no NVF1: the report all the same") << QStringLiteral(
            "garbage") << QList<int> { 0 } << QList<int> {} << QStringLiteral("no NVLink recording of GPU 0:");
    }
    void recordsNvlinkAlongside()
    {
        QFETCH(QString, mode);
        QFETCH(QList<int>, gpus);
        QFETCH(QList<int>, recorded);
        QFETCH(QString, warning);
        FakeNsys nsys;
        const QString name = QStringLiteral("nvlink-")
            + QString::fromLatin1(QTest::currentDataTag()).left(14).replace(QLatin1Char(' '), QLatin1Char('-'));
        ProfileRequest r = request(name);
        r.nvlink.command = recorderScript() + QStringLiteral(" --gpu {gpu} --interval-ms 1 --out {out} --mode ") + mode;
        r.nvlink.gpus = gpus;
        QString log;
        const Result<ProfileOutcome> outcome = profileApplication(
            r, JobContext(), [&](const QString& text) { log += text; }, CancelToken());
        QVERIFY2(outcome.ok(), qPrintable(outcome.errorMessage()));
        QVERIFY(QFileInfo(outcome->reportPath).isFile());
        QStringList warnings;
        const std::vector<RecordingChoice> recordings = usableRecordings(outcome->nvlink, &warnings);
        QCOMPARE(qsizetype(recordings.size()), recorded.size());
        for (qsizetype i = 0; i < recorded.size(); ++i) {
            const RecordingChoice& c = recordings[std::size_t(i)];
            QCOMPARE(c.gpu, recorded[i]);
            QCOMPARE(c.path, m_dir.filePath(QStringLiteral("%1.nvlink-gpu%2.bin").arg(name).arg(recorded[i])));
            QCOMPARE(suggestGpuFromFileName(QFileInfo(c.path).fileName()), recorded[i]); // a folder scan agrees
            // Stopped as Ctrl+C stops it (the recorder then flushes its queue), not killed.
            QVERIFY(QFileInfo::exists(c.path + QStringLiteral(".interrupted")));
        }
        for (const int gpu : gpus)
            QVERIFY2(log.contains(QStringLiteral("--gpu %1 --interval-ms 1 --out %2")
                                      .arg(gpu)
                                      .arg(m_dir.filePath(QStringLiteral("%1.nvlink-gpu%2.bin").arg(name).arg(gpu)))),
                qPrintable(log));
        if (warning.isEmpty())
            QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));
        else
            QVERIFY2(warnings.join(QLatin1Char('\n')).contains(warning), qPrintable(warnings.join(QLatin1Char('\n'))));
    }

    void nvlinkRecorderProblemsStopTheRunBeforeNsys_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QList<int>>("gpus");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no {out}") << QStringLiteral("%REC% --gpu {gpu}") << QList<int> { 0 } << int(ErrorKind::Usage)
                                  << QStringLiteral("NVLink recorder: the command names no {out}");
        QTest::newRow("several GPUs without {gpu}")
            << QStringLiteral("%REC% --out {out}") << QList<int> { 0, 1 } << int(ErrorKind::Usage)
            << QStringLiteral("2 GPUs are recorded, but the command names no {gpu}");
        QTest::newRow("a GPU twice") << QStringLiteral("%REC% --gpu {gpu} --out {out}") << QList<int> { 1, 1 }
                                     << int(ErrorKind::Usage) << QStringLiteral("each once");
        QTest::newRow("no such recorder")
            << QStringLiteral("/nonexistent/utilization --out {out}") << QList<int> { 0 } << int(ErrorKind::Usage)
            << QStringLiteral("/nonexistent/utilization: no such program");
        QTest::newRow("the recorder fails at once: its words")
            << QStringLiteral("%REC% --gpu {gpu} --out {out} --mode die") << QList<int> { 0, 7 }
            << int(ErrorKind::Input)
            << QStringLiteral("NVLink recorder for GPU 7 ended before it wrote %DIR%/fails.nvlink-gpu7.bin (exit code "
                              "3): NVML: GPU 7 not found");
    }
    void nvlinkRecorderProblemsStopTheRunBeforeNsys()
    {
        QFETCH(QString, command);
        QFETCH(QList<int>, gpus);
        QFETCH(int, kind);
        QFETCH(QString, expected);
        FakeNsys nsys;
        ProfileRequest r = request(QStringLiteral("fails"));
        r.nvlink.command = command.replace(QStringLiteral("%REC%"), recorderScript());
        r.nvlink.gpus = gpus;
        const Result<ProfileOutcome> outcome = profileApplication(r, JobContext(), {}, CancelToken());
        QVERIFY(!outcome.ok());
        QCOMPARE(int(outcome.error().kind), kind);
        expected.replace(QStringLiteral("%DIR%"), m_dir.path());
        QVERIFY2(outcome.errorMessage().contains(expected), qPrintable(outcome.errorMessage()));
        QVERIFY(nsys.calls(QStringLiteral("profile")).isEmpty());
        // What the recorders that did start wrote is gone with the run.
        QVERIFY(QDir(m_dir.path()).entryList({ QStringLiteral("fails.nvlink-*") }, QDir::Files).isEmpty());
    }

    void noReportIsAnError()
    {
        FakeNsys nsys;
        nsys.setProfileMode(QStringLiteral("none"));
        nsys.setProfileExitCode(1);
        ProfileRequest r = request(QStringLiteral("none"));
        r.nvlink.command = recorderScript() + QStringLiteral(" --gpu {gpu} --interval-ms 1 --out {out} --mode ok");
        r.nvlink.gpus = { 0 };
        const Result<ProfileOutcome> outcome = profileApplication(r, JobContext(), {}, CancelToken());
        QVERIFY(!outcome.ok());
        QVERIFY2(outcome.errorMessage().contains(QStringLiteral("wrote no report (exit code 1)")),
            qPrintable(outcome.errorMessage()));
        // A recording with no report is gone, so the same command can run again.
        QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("none.*") }, QDir::Files), QStringList());
        nsys.setProfileMode(QStringLiteral("report"));
        nsys.setProfileExitCode(0);
        const Result<ProfileOutcome> again = profileApplication(r, JobContext(), {}, CancelToken());
        QVERIFY2(again.ok(), qPrintable(again.errorMessage()));
        QCOMPARE(again->nvlink.files.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestProfileRun)
#include "tst_profilerun.moc"

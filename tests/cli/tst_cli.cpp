// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the real executable headless, as scripts and CI do.
#include "loaderfixtures.h"
#include "statsfixtures.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace nsw::test;

QStringList qsl(std::initializer_list<const char*> items)
{
    QStringList out;
    for (const char* item : items)
        out << QString::fromUtf8(item);
    return out;
}

/// The commands that read one export (parseTraceArguments).
constexpr const char* kOneExportCommands[]
    = { "stats", "analyze", "nvtx", "export", "iterations", "report", "findings", "samples", "summarize" };

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

    static QByteArray hashOf(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                                           : QByteArray();
    }

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

    /// The modern export with one kernel whose end lies before its start (the loader skips it with a warning).
    void writeReversedKernelCopy(const QString& path)
    {
        QVERIFY(QFile::copy(m_modern, path));
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 5 WHERE rowid = 1;", nullptr,
                     nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(db);
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
        // Every command the top-level help lists, each described (its text is resources/cli/COMMAND.txt).
        const Run top = run({ QStringLiteral("--help") });
        const QString commands
            = top.out.section(QStringLiteral("Commands:\n"), 1).section(QStringLiteral("\n\n"), 0, 0);
        QStringList names;
        for (const QString& line : commands.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            names << line.simplified().section(QLatin1Char(' '), 0, 0);
        QCOMPARE(names.size(), 17);
        for (const QString& name : names)
            QTest::addRow("%s", qPrintable(name)) << QStringList { name, QStringLiteral("--help") };
    }
    void helpForEveryCommand()
    {
        QFETCH(QStringList, args);
        const Run r = run(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Usage:")), qPrintable(r.out));
        if (args.first() == QLatin1String("--help"))
            return;
        // The usage line names the command as it is typed; a description follows it, then the options.
        QVERIFY2(r.out.startsWith(QStringLiteral("Usage: nsys-workbench ") + args.first() + QLatin1Char(' ')),
            qPrintable(r.out));
        const QString description = r.out.section(QLatin1Char('\n'), 1, 1);
        QVERIFY2(description.size() > 40 && !description.startsWith(QStringLiteral("Options:")), qPrintable(r.out));
        QVERIFY2(!description.contains(QStringLiteral("%1")), qPrintable(description));
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
        QTest::addRow("bad report argument")
            << QStringList { QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("unifiedmemory:rows=abc"),
                   QStringLiteral("x.sqlite") }
            << 1 << QStringLiteral("report um_sum: argument rows: invalid int value: 'abc'");
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

    // parseTraceArguments: the commands that read one export refuse none or two, naming themselves.
    void oneExportCommandsTakeExactlyOneTrace_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<int>("traces");
        for (const char* command : kOneExportCommands) {
            QTest::addRow("%s without a trace", command) << QString::fromLatin1(command) << 0;
            QTest::addRow("%s with two traces", command) << QString::fromLatin1(command) << 2;
        }
    }
    void oneExportCommandsTakeExactlyOneTrace()
    {
        QFETCH(QString, command);
        QFETCH(int, traces);
        QStringList args { command };
        for (int i = 0; i < traces; ++i)
            args << m_modern;
        const Run r = run(args);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.out, QString());
        // The last line (report starts a GUI application, which may warn about its environment first).
        QCOMPARE(r.err.trimmed().split(QLatin1Char('\n')).last(),
            QStringLiteral("nsys-workbench: %1 takes exactly one TRACE (see %1 --help)").arg(command));
    }

    void skippedReportsSayWhy()
    {
        // The old export has no memory copies: nsys 2022.4 prints SKIPPED on stdout and exits 0.
        const Run r
            = run({ QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("cuda_gpu_mem_time_sum"), m_old });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out,
            QStringLiteral("SKIPPED: %1 does not contain GPU memory data.\n\n")
                .arg(QFileInfo(m_old).absoluteFilePath()));
        // JSON on stdout stays one document: the message goes to stderr.
        const Run json = run({ QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("cuda_gpu_mem_time_sum"),
            QStringLiteral("-f"), QStringLiteral("json"), m_old });
        QCOMPARE(json.exitCode, 0);
        QVERIFY2(json.out.isEmpty() && json.err.contains(QStringLiteral("does not contain GPU memory data.")),
            qPrintable(json.out + json.err));
        const Run both = run(
            { QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("cuda_gpu_mem_time_sum,cuda_gpu_kern_sum"),
                QStringLiteral("-f"), QStringLiteral("csv"), m_old });
        QCOMPARE(both.exitCode, 0);
        QVERIFY(both.out.contains(QStringLiteral("build_GPU2(int *, int)")));
    }

    /// Addresses print as nsys prints them (upper-case hex) in the table; JSON keeps the numbers. Worked out from the
    /// unified memory fixture: 2 MiB in 700 ns at 0x7F544A48C000, 2097152 * (10^9 / 700) B/s = 2995930.529792 MB/s.
    void unifiedMemoryTableAndJson()
    {
        const QString fixture = writeUnifiedMemoryFixture(m_dir.path());
        const Run table = run({ QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("um_sum"), fixture });
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(
            table.out.contains(QStringLiteral(" ** Unified Memory Analysis Summary (um_sum):")), qPrintable(table.out));
        QVERIFY2(table.out.contains(QStringLiteral(" 0x7F544A48C000 ")), qPrintable(table.out));
        const Run json = run({ QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("unifiedmemory:rows=1"),
            QStringLiteral("--format"), QStringLiteral("json"), fixture });
        QCOMPARE(json.exitCode, 0);
        const QJsonArray rows
            = QJsonDocument::fromJson(json.out.toUtf8()).object().value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 1);
        const QJsonObject first = rows.first().toObject();
        QCOMPARE(first.value(QStringLiteral("Virtual Address")).toInteger(), qint64(0x7F544A48C000));
        QCOMPARE(first.value(QStringLiteral("Migration Throughput (MBps)")).toDouble(), 2995930.53);
        QVERIFY(first.value(QStringLiteral("HtoD Migration size (MB)")).isNull());
        // Without memory copies: nsys's message on stdout, and exit 0 as nsys 2022.4.
        const Run old = run({ QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("um_sum"), m_old });
        QCOMPARE(old.exitCode, 0);
        QVERIFY2(old.out.contains(QStringLiteral("SKIPPED: ") + QFileInfo(m_old).absoluteFilePath()
                     + QStringLiteral(" does not contain CUDA memory transfers data.")),
            qPrintable(old.out));
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

    void specialFilesAsTraceAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addRow("FIFO") << QStringLiteral("fifo");
        QTest::addRow("symlink to a FIFO") << QStringLiteral("link");
        QTest::addRow("character device") << QStringLiteral("/dev/zero");
        QTest::addRow("directory") << QStringLiteral("dir");
    }
    void specialFilesAsTraceAreRefused()
    {
        // A FIFO nobody writes to would block open() forever: refused from its stat, never opened.
        QFETCH(QString, kind);
        QTemporaryDir dir;
        QString path = kind.startsWith(QLatin1Char('/')) ? kind : dir.filePath(kind + QStringLiteral(".sqlite"));
        const QString fifo = dir.filePath(QStringLiteral("fifo.sqlite"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        if (kind == QLatin1String("link"))
            QVERIFY(QFile::link(fifo, path));
        if (kind == QLatin1String("dir"))
            QVERIFY(QDir().mkpath(path));
        for (const QString& command : { QStringLiteral("info"), QStringLiteral("nvtx"), QStringLiteral("compare") }) {
            QStringList args { command, path };
            if (command == QLatin1String("compare"))
                args.append(m_modern);
            const Run r = run(args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(path + QStringLiteral(": ")), qPrintable(r.err));
        }
    }

    void outputsThatMustNotBeWritten_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("message");
        QTest::addRow("the input") << QStringLiteral("input") << QStringLiteral("is one of the inputs");
        QTest::addRow("a symlink to the input") << QStringLiteral("link") << QStringLiteral("is one of the inputs");
        QTest::addRow("a FIFO") << QStringLiteral("fifo") << QStringLiteral("not a regular file");
        QTest::addRow("a directory") << QStringLiteral("dir") << QStringLiteral("not a regular file");
    }
    void outputsThatMustNotBeWritten()
    {
        QFETCH(QString, target);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("input.sqlite"));
        QVERIFY(QFile::copy(m_modern, input));
        QString out = input;
        if (target == QLatin1String("link")) {
            out = dir.filePath(QStringLiteral("link.csv"));
            QVERIFY(QFile::link(input, out));
        } else if (target == QLatin1String("fifo")) {
            out = dir.filePath(QStringLiteral("out.fifo"));
            QCOMPARE(::mkfifo(QFile::encodeName(out).constData(), 0600), 0);
        } else if (target == QLatin1String("dir")) {
            out = dir.path();
        }
        const QByteArray before = hashOf(input);
        for (const QStringList& args :
            { QStringList { QStringLiteral("info"), input, QStringLiteral("-o"), out },
                QStringList { QStringLiteral("stats"), QStringLiteral("-r"), QStringLiteral("cuda_gpu_kern_sum"), input,
                    QStringLiteral("--output=") + out },
                QStringList { QStringLiteral("categories"), input, QStringLiteral("--rule-set"), QStringLiteral("vllm"),
                    QStringLiteral("--model"), QStringLiteral("llama"), QStringLiteral("--mapping"), out } }) {
            const Run r = run(args);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains(out + QStringLiteral(": ") + message), qPrintable(r.err));
        }
        QCOMPARE(hashOf(input), before);
        if (target == QLatin1String("fifo")) {
            struct stat st;
            QCOMPARE(::lstat(QFile::encodeName(out).constData(), &st), 0);
            QVERIFY(S_ISFIFO(st.st_mode));
        }
    }

    void loadWarningsGoToStderr()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.sqlite"));
        writeReversedKernelCopy(path);
        if (QTest::currentTestFailed())
            return;
        for (const QString& command : { QStringLiteral("nvtx"), QStringLiteral("compare") }) {
            QStringList args { command, path };
            if (command == QLatin1String("compare"))
                args.append(path);
            const Run r = run(args);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.err.contains(QStringLiteral("nsys-workbench: warning: %1: CUPTI_ACTIVITY_KIND_KERNEL: 1 rows "
                                                   "skipped")
                                        .arg(path)),
                qPrintable(r.err));
        }
        const Run load = run({ QStringLiteral("info"), QStringLiteral("--load"), path });
        QCOMPARE(load.exitCode, 0);
        QVERIFY2(load.out.contains(QStringLiteral("SQLite access:       native handle")), qPrintable(load.out));
    }

    void jsonOutputsCarryTheLoadWarnings_data()
    {
        QTest::addColumn<QStringList>("args"); // TRACE stands for the export
        QTest::addColumn<QString>("member"); // where "warnings" sits: "" top level, "0" in the first array element
        QTest::newRow("stats") << qsl({ "stats", "-r", "cuda_gpu_kern_sum", "--format", "json", "TRACE" }) << QString();
        QTest::newRow("stats, two reports")
            << qsl({ "stats", "-r", "cuda_gpu_kern_sum,cuda_api_sum", "--format", "json", "TRACE" })
            << QStringLiteral("0");
        QTest::newRow("nvtx") << qsl({ "nvtx", "--format", "json", "TRACE" }) << QString();
        QTest::newRow("categories") << qsl({ "categories", "--rule-set", "vllm", "--model", "llama", "--format", "json",
            "TRACE" }) << QString();
        QTest::newRow("compare") << qsl({ "compare", "--format", "json", "TRACE", "TRACE" }) << QString();
        QTest::newRow("findings") << qsl({ "findings", "--format", "json", "TRACE" }) << QString();
    }
    void jsonOutputsCarryTheLoadWarnings()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, member);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.sqlite"));
        writeReversedKernelCopy(path);
        if (QTest::currentTestFailed())
            return;
        const auto warningsOf = [&member](const QString& json) {
            const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8());
            const QJsonObject o = member.isEmpty() ? doc.object() : doc.array().at(member.toInt()).toObject();
            return o.value(QStringLiteral("warnings"));
        };
        for (const QString& trace : { m_modern, path }) {
            QStringList withTrace = args;
            withTrace.replaceInStrings(QStringLiteral("TRACE"), trace);
            const Run r = run(withTrace);
            QCOMPARE(r.exitCode, 0);
            const QJsonValue warnings = warningsOf(r.out);
            if (trace == m_modern) {
                QVERIFY2(warnings.isUndefined(), qPrintable(r.out.left(400)));
                continue;
            }
            const QString expected = QStringLiteral("%1: CUPTI_ACTIVITY_KIND_KERNEL: 1 rows skipped").arg(path);
            QVERIFY2(warnings.isArray() && !warnings.toArray().isEmpty(), qPrintable(r.out.left(400)));
            QVERIFY2(warnings.toArray().at(0).toString().startsWith(expected),
                qPrintable(warnings.toArray().at(0).toString()));
            // The same words as on stderr.
            QVERIFY(r.err.contains(QStringLiteral("nsys-workbench: warning: ") + expected));
        }
    }

    void nonUtf8FileNamesWork()
    {
        QTemporaryDir dir;
        const QByteArray raw = QFile::encodeName(dir.path()) + "/caf\xe9-latin1.sqlite";
        QFile source(m_modern);
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray bytes = source.readAll();
        FILE* f = std::fopen(raw.constData(), "wb");
        QVERIFY(f);
        QCOMPARE(std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), f), std::size_t(bytes.size()));
        std::fclose(f);
        // QProcess takes QStrings: run through the shell with the name as raw bytes in a variable.
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("NSW_APP"), QStringLiteral(NSW_APP_PATH));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("/bin/sh"),
            { QStringLiteral("-c"),
                QStringLiteral(
                    "\"$NSW_APP\" stats -r cuda_gpu_kern_sum --format csv \"$(printf '%1/caf\\351-latin1.sqlite')\"")
                    .arg(dir.path()) });
        QVERIFY(p.waitForFinished(60000));
        ::unlink(raw.constData()); // QTemporaryDir cannot name it to remove it
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QVERIFY2(out.contains(QStringLiteral("void gemm<float>(float *, int)")), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"

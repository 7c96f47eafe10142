// SPDX-License-Identifier: GPL-3.0-or-later
// Opening .nsys-rep reports: nsys export into the cache (against a scripted stand-in for nsys), reuse, eviction,
// errors that name the report and carry nsys's words, cancel mid-way, and nothing written next to the report.
#include "core/nsys/exportcache.h"
#include "core/nsys/nsystool.h"
#include "core/nsys/reportexport.h"
#include "core/profile/profileloader.h"
#include "fakensys.h"
#include "tests/support/loaderfixtures.h"
#include "tests/support/sqlitefixture.h"
#include "tests/support/testutils.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;
using namespace nsw::test;

class TestReportExport : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_export; ///< what the fake nsys "exports"

    QString report(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_export = m_dir.filePath(QStringLiteral("source.sqlite"));
        QString error;
        QVERIFY2(writeModernExport(m_export, &error), qPrintable(error));
    }

    void reportKind_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("kind");
        QTest::newRow("nsys-rep by its magic")
            << QStringLiteral("a.bin") << QByteArray("NVIDIA Tegra Profiler Report 1.\nxx") << int(ReportKind::Report);
        QTest::newRow("qdrep by its extension")
            << QStringLiteral("b.qdrep") << QByteArray("garbage") << int(ReportKind::Report);
        QTest::newRow("truncated nsys-rep by its extension")
            << QStringLiteral("c.nsys-rep") << QByteArray("NVI") << int(ReportKind::Report);
        QTest::newRow("qdstrm by its magic")
            << QStringLiteral("d.x") << QByteArray("U3w[END]NVIDIA Nsight Systems St") << int(ReportKind::Stream);
        QTest::newRow("an SQLite file named .nsys-rep is an export")
            << QStringLiteral("e.nsys-rep") << QByteArray("SQLite format 3\0", 16) << int(ReportKind::NotAReport);
        QTest::newRow("sqlite export") << QStringLiteral("f.sqlite") << QByteArray("SQLite format 3\0", 16)
                                       << int(ReportKind::NotAReport);
    }
    void reportKind()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(int, kind);
        QFile file(report(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        QCOMPARE(int(reportKindOf(file.fileName())), kind);
    }

    void loadsThroughTheExportAndWritesNothingBesideTheReport()
    {
        FakeNsys nsys;
        QVERIFY(nsys.isValid());
        nsys.setExport(m_export);
        QTemporaryDir userFolder;
        const QString rep = userFolder.filePath(QStringLiteral("run1.nsys-rep"));
        QVERIFY(writeReportLookalike(rep));
        const QStringList before = folderListing(userFolder.path());

        QStringList stages;
        const LoadResult loaded = ProfileLoader::load(rep, LoadOptions {},
            JobContext(CancelToken(), [&](const Progress& p) { stages << p.stage + QLatin1Char(' ') + p.detail; }));
        QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
        const QList<QStringList> kernels
            = queryRows(m_export, QStringLiteral("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        QCOMPARE(qint64(loaded->profile->kernels.size()), kernels.value(0).value(0).toLongLong());
        QCOMPARE(loaded->profile->meta.reportPath, rep);
        QCOMPARE(loaded->profile->displayName(), QStringLiteral("run1.nsys-rep"));
        QVERIFY(loaded->profile->meta.filePath.startsWith(nsys.cacheFolder()));
        QVERIFY2(stages.join(QLatin1Char('|')).contains(QStringLiteral("Exporting with nsys 100 %")),
            qPrintable(stages.join(QLatin1Char('|'))));
        QCOMPARE(folderListing(userFolder.path()), before);
        QCOMPARE(nsys.calls(QStringLiteral("export")).size(), 1);
        // nsys was asked for SQLite of this report, written into the cache.
        const QString call = nsys.calls(QStringLiteral("export")).first();
        QVERIFY2(call.contains(QStringLiteral("--type sqlite")) && call.endsWith(rep), qPrintable(call));
    }

    void secondOpenReusesTheExportUntilTheReportChanges()
    {
        FakeNsys nsys;
        nsys.setExport(m_export);
        const QString rep = report(QStringLiteral("reuse.nsys-rep"));
        QVERIFY(writeReportLookalike(rep));
        const Result<ExportedReport> first = exportReportToSqlite(rep, JobContext());
        QVERIFY2(first.ok(), qPrintable(first.errorMessage()));
        QVERIFY(!first->reused);
        const Result<ExportedReport> second = exportReportToSqlite(rep, JobContext());
        QVERIFY(second.ok() && second->reused);
        QCOMPARE(second->sqlitePath, first->sqlitePath);
        QCOMPARE(nsys.calls(QStringLiteral("export")).size(), 1);

        QFile touched(rep);
        QVERIFY(touched.open(QIODevice::ReadWrite));
        QVERIFY(touched.setFileTime(QDateTime::currentDateTime().addSecs(-3600), QFileDevice::FileModificationTime));
        touched.close();
        const Result<ExportedReport> third = exportReportToSqlite(rep, JobContext());
        QVERIFY(third.ok() && !third->reused);
        QVERIFY(third->sqlitePath != first->sqlitePath);
        QCOMPARE(nsys.calls(QStringLiteral("export")).size(), 2);
    }

    void errorsNameTheReport_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("nsysMissing");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nsys cannot read the report: its own words")
            << QStringLiteral("fail") << false << QByteArray("NVIDIA Tegra Profiler Report 1.\nbad")
            << QStringLiteral(
                   "nsys 2099.1.2.3 (%NSYS%) export failed (exit code 1): Exportation error: Section Table Reference "
                   "magic number mismatch. The report is damaged, or was recorded by an Nsight Systems newer");
        QTest::newRow("nsys crashes") << QStringLiteral("crash") << false
                                      << QByteArray("NVIDIA Tegra Profiler Report 1.\n")
                                      << QStringLiteral("export failed (crashed)");
        QTest::newRow("no nsys anywhere: what was tried and what to install")
            << QStringLiteral("ok") << true << QByteArray("NVIDIA Tegra Profiler Report 1.\n")
            << QStringLiteral("is an nsys report; opening it needs nsys to export it to SQLite, but no usable Nsight "
                              "Systems `nsys` "
                              "found (tried /nonexistent/nsys (not an executable file)");
        QTest::newRow("empty report") << QStringLiteral("ok") << false << QByteArray()
                                      << QStringLiteral("the file is empty (0 bytes)");
    }
    void errorsNameTheReport()
    {
        QFETCH(QString, mode);
        QFETCH(bool, nsysMissing);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        FakeNsys nsys;
        nsys.setExport(m_export);
        nsys.setExportMode(mode);
        const QByteArray path = qgetenv("PATH");
        if (nsysMissing) {
            qputenv("NSYS_WORKBENCH_NSYS", "/nonexistent/nsys");
            qputenv("PATH", "/nonexistent");
        }
        const QString rep = report(QStringLiteral("broken-%1.nsys-rep")
                                       .arg(QString::fromLatin1(QTest::currentDataTag()))
                                       .replace(QLatin1Char(' '), QLatin1Char('_'))
                                       .replace(QLatin1Char(':'), QLatin1Char('_')));
        QFile file(rep);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        const LoadResult loaded = ProfileLoader::load(rep);
        qputenv("PATH", path);
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.errorMessage().startsWith(rep + QStringLiteral(": ")), qPrintable(loaded.errorMessage()));
        expected.replace(QStringLiteral("%NSYS%"), nsys.nsysPath());
        QVERIFY2(loaded.errorMessage().contains(expected), qPrintable(loaded.errorMessage()));
        QVERIFY(nsys.calls(QStringLiteral("export")).size() <= 1);
        QVERIFY(QDir(nsys.cacheFolder() + QStringLiteral("/exports"))
                    .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                    .isEmpty());
    }

    void reportsOfANewerNsysAreRefused_data()
    {
        QTest::addColumn<QString>("nsysVersion");
        QTest::addColumn<QByteArray>("metadata"); ///< what nsys writes near the report's end
        QTest::addColumn<QString>("exportMode");
        QTest::addColumn<QString>("expected"); ///< in the error; empty: the report opens
        QTest::newRow("recorded by a newer release: refused before nsys runs")
            << QStringLiteral("2022.4.2.1-df9881f")
            << QByteArray("\x12\x1a"
                          "2025.3.1.90-253135822126v0:\x12")
            << QStringLiteral("ok")
            << QStringLiteral("was recorded by Nsight Systems 2025.3.1.90, which nsys 2022.4.2.1 (%NSYS%) is too old "
                              "to read. Install Nsight Systems 2025.3 or newer");
        QTest::newRow("same release, newer patch: exported") << QStringLiteral("2022.4.1.21-0c1a7b2")
                                                             << QByteArray("2\x12"
                                                                           "2022.4.2.1-df9881f:\x12")
                                                             << QStringLiteral("ok") << QString();
        QTest::newRow("older release: exported") << QStringLiteral("2022.4.2.1-df9881f")
                                                 << QByteArray("2\x12"
                                                               "2021.5.1.117-d6c3c4f")
                                                 << QStringLiteral("ok") << QString();
        QTest::newRow("no version in the report: exported")
            << QStringLiteral("2022.4.2.1-df9881f") << QByteArray("no metadata") << QStringLiteral("ok") << QString();
        QTest::newRow("damaged report of a release nsys reads: says damaged, not too new")
            << QStringLiteral("2022.4.2.1-df9881f")
            << QByteArray("2\x12"
                          "2022.4.2.1-df9881f:")
            << QStringLiteral("fail")
            << QStringLiteral("The report (recorded by Nsight Systems 2022.4.2.1) is damaged");
    }
    void reportsOfANewerNsysAreRefused()
    {
        QFETCH(QString, nsysVersion);
        QFETCH(QByteArray, metadata);
        QFETCH(QString, exportMode);
        QFETCH(QString, expected);
        FakeNsys nsys;
        nsys.setVersion(nsysVersion);
        nsys.setExport(m_export);
        nsys.setExportMode(exportMode);
        const QString rep = report(QStringLiteral("versioned-%1.nsys-rep").arg(QTest::currentDataTag()[0]));
        QVERIFY(writeReportLookalike(rep, QByteArray(4096, 'x') + metadata + QByteArray("\x0a\x1c[END]")));
        const LoadResult loaded = ProfileLoader::load(rep);
        if (expected.isEmpty()) {
            QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
            QCOMPARE(nsys.calls(QStringLiteral("export")).size(), 1);
            return;
        }
        QVERIFY(!loaded.ok());
        expected.replace(QStringLiteral("%NSYS%"), nsys.nsysPath());
        QVERIFY2(
            loaded.errorMessage().startsWith(rep + QStringLiteral(": ")) && loaded.errorMessage().contains(expected),
            qPrintable(loaded.errorMessage()));
        QCOMPARE(nsys.calls(QStringLiteral("export")).size(), exportMode == QStringLiteral("fail") ? 1 : 0);
    }

    void hungExportStopsWhenCancelledMidway()
    {
        FakeNsys nsys;
        nsys.setExportMode(QStringLiteral("hang"));
        const QString rep = report(QStringLiteral("hang.nsys-rep"));
        QVERIFY(writeReportLookalike(rep));
        CancelToken cancel;
        QElapsedTimer clock;
        bool sawNsysProgress = false;
        qint64 cancelledAt = -1;
        const LoadResult loaded = ProfileLoader::load(rep, LoadOptions {}, JobContext(cancel, [&](const Progress& p) {
            // Cancel once nsys is running and has said how far it is.
            if (p.detail.contains(QStringLiteral("20 %")) && !cancel.isCancelled()) {
                sawNsysProgress = true;
                clock.start();
                cancel.cancel();
            }
        }));
        cancelledAt = clock.elapsed();
        QVERIFY(sawNsysProgress);
        QVERIFY(loaded.isCancelled());
        QVERIFY(!loaded.ok());
        QVERIFY2(cancelledAt < 1000, qPrintable(QString::number(cancelledAt)));
    }

    void hungExportTimesOut()
    {
        FakeNsys nsys;
        nsys.setExportMode(QStringLiteral("hang"));
        qputenv("NSYS_WORKBENCH_NSYS_TIMEOUT", "1");
        const QString rep = report(QStringLiteral("timeout.nsys-rep"));
        QVERIFY(writeReportLookalike(rep));
        const LoadResult loaded = ProfileLoader::load(rep);
        qunsetenv("NSYS_WORKBENCH_NSYS_TIMEOUT");
        QVERIFY(!loaded.ok() && !loaded.isCancelled());
        QVERIFY2(loaded.errorMessage().contains(QStringLiteral("export failed (timed out after 1 s)")),
            qPrintable(loaded.errorMessage()));
    }

    void rawCaptureIsImportedThenExported()
    {
        FakeNsys nsys;
        nsys.setExport(m_export);
        QTemporaryDir userFolder;
        const QString stream = userFolder.filePath(QStringLiteral("run.qdstrm"));
        QVERIFY(writeStreamLookalike(stream));
        const QStringList before = folderListing(userFolder.path());
        const LoadResult loaded = ProfileLoader::load(stream);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
        QCOMPARE(nsys.calls(QStringLiteral("import")).size(), 1);
        QCOMPARE(nsys.calls(QStringLiteral("export")).size(), 1);
        QCOMPARE(folderListing(userFolder.path()), before);
    }

    void evictsLeastRecentlyUsedFirst()
    {
        FakeNsys nsys;
        const QDir cache(nsys.cacheFolder() + QStringLiteral("/exports"));
        const QDateTime now = QDateTime::currentDateTime();
        // Three 1000-byte entries used 3, 2 and 1 hours ago.
        for (int i = 0; i < 3; ++i) {
            QVERIFY(cache.mkpath(QStringLiteral("entry%1").arg(i)));
            QFile f(cache.filePath(QStringLiteral("entry%1/x.sqlite").arg(i)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(1000, 'x'));
            QVERIFY(f.setFileTime(now.addSecs(-3600 * (3 - i)), QFileDevice::FileModificationTime));
        }
        ExportCache::evict(2000, QString());
        QCOMPARE(cache.entryList(QDir::Dirs | QDir::NoDotAndDotDot),
            (QStringList { QStringLiteral("entry1"), QStringLiteral("entry2") }));
        // The entry being opened stays even when it alone is over the limit.
        ExportCache::evict(0, cache.filePath(QStringLiteral("entry1/x.sqlite")));
        QCOMPARE(cache.entryList(QDir::Dirs | QDir::NoDotAndDotDot), QStringList { QStringLiteral("entry1") });
    }

    void profilesInAFolder()
    {
        QTemporaryDir folder;
        for (const char* name :
            { "a.sqlite", "a.nsys-rep", "b.nsys-rep", "c.qdrep", "d.qdstrm", "b.qdstrm", "e.txt" }) {
            QFile f(folder.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        QStringList names;
        for (const QString& p : profilesInFolder(folder.path()))
            names << QFileInfo(p).fileName();
        // a.nsys-rep has its export beside it; b.qdstrm was imported into b.nsys-rep.
        QCOMPARE(names,
            (QStringList { QStringLiteral("a.sqlite"), QStringLiteral("b.nsys-rep"), QStringLiteral("c.qdrep"),
                QStringLiteral("d.qdstrm") }));
    }

    void parsesNsysVersions_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("version");
        QTest::newRow("2022.4") << QStringLiteral("NVIDIA Nsight Systems version 2022.4.2.1-df9881f\n")
                                << QStringLiteral("2022.4.2.1");
        QTest::newRow("2025 build") << QStringLiteral("NVIDIA Nsight Systems version 2025.3.1.90-253135822126v0")
                                    << QStringLiteral("2025.3.1.90");
        QTest::newRow("garbage") << QStringLiteral("command not found") << QStringLiteral("");
    }
    void parsesNsysVersions()
    {
        QFETCH(QString, output);
        QFETCH(QString, version);
        QCOMPARE(parseNsysVersion(output), version);
    }
};

QTEST_GUILESS_MAIN(TestReportExport)
#include "tst_reportexport.moc"

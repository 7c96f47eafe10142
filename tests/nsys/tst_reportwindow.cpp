// SPDX-License-Identifier: GPL-3.0-or-later
// What a person sees when the window opens a .nsys-rep (against a scripted stand-in for nsys): the load row says
// nsys is exporting and can cancel it, the profile is named by its report, a failing export leaves a banner with
// nsys's words; and the Profile Application and Nsight Systems Settings dialogs.
#include "app/mainwindow.h"
#include "core/nvlink/nvlinkattachment.h"
#include "core/session/loadjob.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "fakensys.h"
#include "tests/nvlink/nvf1bytes.h"
#include "tests/support/loaderfixtures.h"
#include "widgets/shell/loadprogressstrip.h"
#include "widgets/shell/nsyssettingsdialog.h"
#include "widgets/shell/profiledialog.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;
using namespace nsw::test;

class TestReportWindow : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_export;

    QWidget* rowFor(const MainWindow& w, const QString& path) const
    {
        for (QWidget* row : w.progressStrip()->findChildren<QWidget*>(QStringLiteral("loadRow")))
            if (row->toolTip() == QFileInfo(path).absoluteFilePath())
                return row;
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_export = m_dir.filePath(QStringLiteral("source.sqlite"));
        QString error;
        QVERIFY2(writeModernExport(m_export, &error), qPrintable(error));
    }

    void cleanup() { QVERIFY(LoadJob::waitForDetachedLoads(20000)); }

    void opensAReportNamedByItself()
    {
        FakeNsys nsys;
        nsys.setExport(m_export);
        const QString rep = m_dir.filePath(QStringLiteral("window.nsys-rep"));
        QVERIFY(writeReportLookalike(rep));
        MainWindow w(true);
        w.show();
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ rep });
        QVERIFY(ended.wait(20000));
        QVERIFY2(ended.first().at(1).toBool(), qPrintable(ended.first().at(2).toString()));
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1));
        auto* selector = w.findChild<QComboBox*>(QStringLiteral("profileSelector"));
        QVERIFY(selector && selector->isVisible());
        QVERIFY2(
            selector->currentText().contains(QStringLiteral("window.nsys-rep")), qPrintable(selector->currentText()));
    }

    void exportRowShowsNsysAndCancels()
    {
        FakeNsys nsys;
        nsys.setExportMode(QStringLiteral("hang"));
        const QString rep = m_dir.filePath(QStringLiteral("stuck.nsys-rep"));
        QVERIFY(writeReportLookalike(rep));
        MainWindow w(true);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ rep });
        QWidget* row = rowFor(w, rep);
        QVERIFY(row);
        QTRY_VERIFY(row->isVisible() && row->height() > 0);
        auto* stage = row->findChild<QLabel*>(QStringLiteral("loadStage"));
        QTRY_VERIFY2(stage->text().contains(QStringLiteral("Exporting with nsys")), qPrintable(stage->text()));
        auto* cancel = row->findChild<QPushButton*>(QStringLiteral("loadCancel"));
        QVERIFY(cancel && cancel->isVisible());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 5000);
        QVERIFY(!ended.first().at(1).toBool());
        QVERIFY(w.workbench()->sessions().empty());
    }

    void failedExportLeavesABannerWithNsysWords()
    {
        FakeNsys nsys;
        nsys.setExportMode(QStringLiteral("fail"));
        const QString rep = m_dir.filePath(QStringLiteral("damaged.nsys-rep"));
        QVERIFY(writeReportLookalike(rep));
        MainWindow w(true);
        w.show();
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ rep });
        QVERIFY(ended.wait(20000));
        QVERIFY(!ended.first().at(1).toBool());
        bool shown = false;
        for (QLabel* label : w.findChildren<QLabel*>())
            shown = shown
                || (label->isVisible() && label->text().contains(QStringLiteral("damaged.nsys-rep"))
                    && label->text().contains(QStringLiteral("magic number mismatch")));
        QVERIFY(shown);
    }

    void profileDialogRunsNsysAndOpensTheReport()
    {
        FakeNsys nsys;
        nsys.setExport(m_export);
        QTemporaryDir out;
        MainWindow w(true);
        w.show();
        QAction* action = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("Profile &Application…"))
                action = a;
        QVERIFY(action);
        action->trigger();
        auto* dialog = w.findChild<ProfileDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        ProfileRequest r;
        r.program = QStringLiteral("true");
        r.outputFolder = out.path();
        r.outputName = QStringLiteral("fromdialog");
        dialog->setRequest(r);
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("start")), Qt::LeftButton);
        QVERIFY(ended.wait(20000));
        QVERIFY2(ended.first().at(1).toBool(), qPrintable(ended.first().at(2).toString()));
        QCOMPARE(ended.first().at(0).toString(), out.filePath(QStringLiteral("fromdialog.nsys-rep")));
        // The log shows nsys's command line and output; the status line says where the report is.
        auto* log = dialog->findChild<QPlainTextEdit*>(QStringLiteral("log"));
        QVERIFY(log->isVisible());
        QVERIFY2(log->toPlainText().contains(QStringLiteral("Collecting data...")), qPrintable(log->toPlainText()));
        QVERIFY(log->toPlainText().contains(QStringLiteral(" profile --trace=cuda,nvtx,osrt")));
        auto* status = dialog->findChild<QLabel*>(QStringLiteral("status"));
        QVERIFY(status->isVisible());
        QVERIFY2(status->text().contains(QStringLiteral("fromdialog.nsys-rep")), qPrintable(status->text()));
    }

    void profileDialogRecordsNvlinkAndAttachesIt()
    {
        FakeNsys nsys;
        nsys.setExport(m_export);
        QTemporaryDir out;
        // A recorder that writes 100 ms of link-0 traffic inside the export's capture and records until Ctrl+C.
        Nvf1Builder recording;
        for (int p = 0; p <= 10; ++p)
            recording.poll(1'700'000'000'000'000 + 1000 + p * 10'000, { { 1000u * p, 500u * p } });
        const QString sample = out.filePath(QStringLiteral("sample.bin"));
        QVERIFY(recording.write(sample));
        const QString recorder = out.filePath(QStringLiteral("recorder.sh"));
        QFile script(recorder);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(QStringLiteral("#!/bin/sh\n"
                                    "trap 'exit 0' INT\n"
                                    "cp '%1' \"$2\"\n"
                                    "while :; do sleep 0.02; done\n")
                         .arg(sample)
                         .toUtf8());
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        MainWindow w(true);
        w.show();
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("Profile &Application…"))
                a->trigger();
        auto* dialog = w.findChild<ProfileDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        ProfileRequest r;
        r.program = QStringLiteral("true");
        r.outputFolder = out.path();
        r.outputName = QStringLiteral("withlinks");
        r.nvlink.command = recorder + QStringLiteral(" --out {out}");
        dialog->setRequest(r);
        auto* field = dialog->findChild<QLineEdit*>(QStringLiteral("nvlinkRecorder"));
        QVERIFY(field && field->isVisible());
        QCOMPARE(field->text(), r.nvlink.command);
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("start")), Qt::LeftButton);
        QVERIFY(ended.wait(20000));
        QVERIFY2(ended.first().at(1).toBool(), qPrintable(ended.first().at(2).toString()));
        auto* status = dialog->findChild<QLabel*>(QStringLiteral("status"));
        QVERIFY2(status->text().contains(QStringLiteral("With 1 NVLink recording")), qPrintable(status->text()));

        // The recording lies beside the report and is attached to its profile, as GPU 0.
        const QString path = out.filePath(QStringLiteral("withlinks.nvlink-gpu0.bin"));
        QVERIFY(QFileInfo(path).isFile());
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1));
        ProfileSession* session = w.workbench()->sessions().front();
        QTRY_VERIFY(session->attachment<NvlinkAttachment>(nvlinkAttachmentKey()));
        const auto attached = session->attachment<NvlinkAttachment>(nvlinkAttachmentKey());
        QCOMPARE(attached->recordings.size(), std::size_t(1));
        QCOMPARE(attached->recordings.front().recording->path, path);
        QCOMPARE(attached->recordings.front().gpu, 0);
    }

    void profileDialogSaysWhatIsWrong()
    {
        FakeNsys nsys;
        ProfileDialog dialog;
        dialog.show();
        ProfileRequest r;
        r.program = QStringLiteral("no-such-program-xyz");
        r.outputFolder = m_dir.path();
        r.outputName = QStringLiteral("never");
        dialog.setRequest(r);
        dialog.start();
        QVERIFY(!dialog.isRunning());
        auto* status = dialog.findChild<QLabel*>(QStringLiteral("status"));
        QVERIFY(status->isVisible());
        QVERIFY2(status->text().contains(QStringLiteral("no-such-program-xyz: no such program on PATH")),
            qPrintable(status->text()));
        QVERIFY(nsys.calls(QStringLiteral("profile")).isEmpty());
    }

    void reportNameFollowsTheApplicationUntilTyped()
    {
        ProfileDialog dialog;
        dialog.show();
        auto* program = dialog.findChild<QLineEdit*>(QStringLiteral("program"));
        auto* name = dialog.findChild<QLineEdit*>(QStringLiteral("outputName"));
        QVERIFY(program && name && name->isVisible());
        program->clear();
        QTest::keyClicks(program, QStringLiteral("/opt/bin/train"));
        QVERIFY2(name->text().startsWith(QStringLiteral("train-")), qPrintable(name->text()));
        name->clear();
        QTest::keyClicks(name, QStringLiteral("mine"));
        QTest::keyClicks(program, QStringLiteral("2"));
        QCOMPARE(name->text(), QStringLiteral("mine"));
        dialog.hide();
    }

    void settingsDialogShowsTheNsysInUse()
    {
        FakeNsys nsys;
        NsysSettingsDialog dialog;
        dialog.show();
        QSignalSpy detected(&dialog, &NsysSettingsDialog::detected);
        QVERIFY(detected.wait(10000));
        auto* found = dialog.findChild<QLabel*>(QStringLiteral("found"));
        QVERIFY(found->isVisible());
        QVERIFY2(found->text().contains(QStringLiteral("nsys 2099.1.2.3 (%1)").arg(nsys.nsysPath())),
            qPrintable(found->text()));
        QVERIFY(found->text().contains(nsys.importerPath()));
        dialog.hide();
    }
};

QTEST_MAIN(TestReportWindow)
#include "tst_reportwindow.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// One pipeline per feature (issue 38 §2): the command and the window's pipeline on the same export give the same
// result, byte for byte where both write a file. Categories (focus, wall time source, per-GPU mapping), NVLink peaks
// (GPU metrics and an NVF1 recording), the report folder with thresholds changed in the Findings pane, compare's
// "per iteration" against the Iterations pane's iterations, and the MFU tab's dialog against `mfu`'s options.
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "core/categories/categoryexport.h"
#include "core/compare/compareexport.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/diagnostics/mfuexport.h"
#include "core/iterations/iterations.h"
#include "core/nvlink/nvlinkattachment.h"
#include "core/profile/capturespan.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/session/workbenchload.h"
#include "generator.h"
#include "widgets/diagnostics/findingspane.h"
#include "widgets/diagnostics/mfudialog.h"
#include "widgets/diagnostics/mfuview.h"
#include "widgets/nvlink/nvlinkattach.h"
#include "widgets/nvlink/nvlinkpane.h"

#include <QComboBox>
#include <QDirIterator>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {
QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// A profile open in a workbench, as the window holds it.
struct Window
{
    Workbench workbench;
    ProfileSession* session = nullptr;
    explicit Window(const QString& path)
    {
        const Result<LoadedProfile> loaded = loadForWorkbench(path);
        if (!loaded)
            qFatal("%s", qPrintable(loaded.errorMessage()));
        session = new ProfileSession(*loaded);
        workbench.addSession(session);
    }
};

/// "--range START:END" of the command for the focus [start, end) on the events' clock.
QString rangeArgument(const ProfilePtr& profile, TimeNs start, TimeNs end)
{
    const TimeNs captureStart = captureSpanOf(*profile).start;
    return u"%1:%2"_s.arg(start - captureStart).arg(end - captureStart);
}
} // namespace

class TestWindowParity : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_export; ///< 2 GPUs (one process each), training steps ("train_step"), GPU metrics
    QString m_other; ///< the same workload, another seed and length: the other side of a comparison
    QString m_recording; ///< an NVF1 recording of GPU 0, aligned to m_export's session

    int cli(const QStringList& args)
    {
        cli::clearWarnings();
        return cli::run(args);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // no user rule files or preferences
        QVERIFY(m_dir.isValid());
        tracegen::GeneratorConfig c;
        c.outPath = m_export = m_dir.filePath(u"run.sqlite"_s);
        c.gpus = 2;
        c.kernels = 6000;
        c.workload = tracegen::Workload::Training;
        c.layers = 2;
        c.gpuMetrics = true;
        c.gpuMetricsHz = 2000;
        c.nvlinkPath = m_recording = m_dir.filePath(u"run-gpu0.nvlink.bin"_s);
        tracegen::generateExport(c);
        c.outPath = m_other = m_dir.filePath(u"other.sqlite"_s);
        c.nvlinkPath.clear();
        c.seed = 7;
        c.kernels = 5000;
        tracegen::generateExport(c);
    }

    void categories_data()
    {
        QTest::addColumn<TimeMode>("mode");
        QTest::addColumn<bool>("perGpu");
        QTest::addColumn<bool>("focused");
        QTest::addColumn<int>("wall"); // CategoryController::WallSource
        QTest::addColumn<double>("wallSeconds");
        using W = CategoryController::WallSource;
        QTest::newRow("g2g, whole capture, CPU = capture span")
            << TimeMode::Global << false << false << int(W::Capture) << 0.0;
        QTest::newRow("busy per GPU, focused, CPU = the focus range")
            << TimeMode::Busy << true << true << int(W::Capture) << 0.0;
        QTest::newRow("exclusive, entered wall time")
            << TimeMode::Exclusive << false << false << int(W::Entered) << 3.0;
        QTest::newRow("sum, focused, entered wall time left out")
            << TimeMode::Sum << false << true << int(W::Entered) << 3.0;
    }

    void categories()
    {
        QFETCH(TimeMode, mode);
        QFETCH(bool, perGpu);
        QFETCH(bool, focused);
        QFETCH(int, wall);
        QFETCH(double, wallSeconds);
        Window w(m_export);
        const ProfilePtr profile = w.session->profile();
        const TimeNs span = profile->activityEnd - profile->activityStart;
        const FocusRange focus { profile->activityStart + span / 5, profile->activityStart + span / 2, u"part"_s };

        QStringList args { u"categories"_s, m_export, u"--rule-set"_s, u"vllm"_s, u"--model"_s, u"llama"_s,
            u"--time-mode"_s, timeModeName(mode), u"--format"_s, u"csv"_s, u"-o"_s, m_dir.filePath(u"cat.csv"_s),
            u"--mapping"_s, m_dir.filePath(u"map.csv"_s) };
        if (perGpu)
            args << u"--per-gpu"_s;
        if (focused)
            args << u"--range"_s << rangeArgument(profile, focus.start, focus.end);
        if (wall == int(CategoryController::WallSource::Capture))
            args << u"--elapsed"_s << u"capture"_s;
        else if (wall == int(CategoryController::WallSource::Entered))
            args << u"--elapsed"_s << QString::number(wallSeconds);
        QCOMPARE(cli(args), int(cli::ExitOk));

        CategoryController controller(&w.workbench);
        QVERIFY(controller.select(u"vllm"_s, u"llama"_s));
        controller.setTimeMode(mode);
        controller.setPerDevice(perGpu);
        controller.setWallSource(CategoryController::WallSource(wall));
        w.session->setWallTimeNs(TimeNs(wallSeconds * 1e9 + 0.5));
        if (focused)
            w.session->setFocus(focus);
        QSignalSpy changed(&controller, &CategoryController::resultsChanged);
        controller.activate();
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy() && controller.results().size() == 1, 30000);
        QVERIFY2(controller.errors().isEmpty(), qPrintable(controller.errors().join(u'\n')));
        QCOMPARE(categoriesCsv(controller.profileCategories()).toUtf8(), readAll(m_dir.filePath(u"cat.csv"_s)));
        const Result<std::vector<ProfileCategories>> mapping = controller.mappingProfiles();
        QVERIFY(mapping.ok());
        QCOMPARE(mappingCsv(*mapping, controller.engine(), controller.model()).toUtf8(),
            readAll(m_dir.filePath(u"map.csv"_s)));
    }

    void nvlinkPeaks_data()
    {
        QTest::addColumn<bool>("recording");
        QTest::newRow("nsys GPU metrics of GPU 0") << false;
        QTest::newRow("NVF1 recording of GPU 0") << true;
    }

    void nvlinkPeaks()
    {
        QFETCH(bool, recording);
        const QString out = m_dir.filePath(u"peaks.json"_s);
        QStringList args { u"nvlink"_s, recording ? m_recording : m_export, u"--metric"_s, u"peak_kernels"_s,
            u"--json"_s, u"--top"_s, u"3"_s, u"-o"_s, out };
        if (recording)
            args << u"--sqlite"_s << m_export;
        QCOMPARE(cli(args), int(cli::ExitOk));

        Window w(m_export);
        if (recording) {
            attachNvlinkRecordings(w.session, { { m_recording, 0 } }, nullptr);
            QTRY_VERIFY_WITH_TIMEOUT(w.session->attachment<NvlinkAttachment>(nvlinkAttachmentKey())
                    && !w.session->attachment<NvlinkAttachment>(nvlinkAttachmentKey())->recordings.empty(),
                30000);
        }
        NvlinkPane pane(&w.workbench);
        pane.resize(1200, 800);
        pane.show();
        pane.setTopPeaks(3);
        const QString wanted = recording ? u"NVML"_s : u"GPU 0"_s;
        QTRY_VERIFY_WITH_TIMEOUT(pane.sourceSelector()->count() > 0, 30000);
        const int index = [&]() {
            for (int i = 0; i < pane.sourceSelector()->count(); ++i)
                if (pane.sourceSelector()->itemText(i).contains(wanted))
                    return i;
            return -1;
        }();
        QVERIFY(index >= 0);
        QSignalSpy shown(&pane, &NvlinkPane::peaksShown);
        if (pane.sourceSelector()->currentIndex() != index) {
            pane.sourceSelector()->setCurrentIndex(index);
            QVERIFY(shown.wait(30000));
        }
        QTRY_VERIFY_WITH_TIMEOUT(!pane.peakKernelsJson().isEmpty(), 30000);
        QCOMPARE(pane.peakKernelsJson(), readAll(out));
    }

    void reportAndFindings_data()
    {
        QTest::addColumn<QStringList>("thresholds");
        QTest::newRow("default thresholds") << QStringList {};
        QTest::newRow("analysis thresholds changed in the pane")
            << QStringList { u"long_gap_ms=0.05"_s, u"listed_gap_us=2"_s, u"short_kernel_us=40"_s };
        QTest::newRow("finding thresholds changed in the pane") << QStringList { u"gpu_idle_pct=1"_s };
    }

    void reportAndFindings()
    {
        QFETCH(QStringList, thresholds);
        const QString cliDir = m_dir.filePath(u"report-cli"_s);
        const QString paneDir = m_dir.filePath(u"report-pane"_s);
        QDir(cliDir).removeRecursively();
        QDir(paneDir).removeRecursively();
        QStringList args { u"report"_s, m_export, u"--out"_s, cliDir };
        Thresholds chosen;
        for (const QString& t : thresholds) {
            args << u"--threshold"_s << t;
            QVERIFY(chosen.parseAssignment(t).ok());
        }
        QCOMPARE(cli(args), int(cli::ExitOk));

        Window w(m_export);
        FindingsPane pane(&w.workbench);
        pane.resize(1200, 800);
        QSignalSpy shown(&pane, &FindingsPane::resultShown);
        pane.show();
        QTRY_VERIFY_WITH_TIMEOUT(pane.result() && !pane.isComputing(), 60000);
        if (!thresholds.isEmpty()) { // changed in the pane after its first result, as a user does
            shown.clear();
            pane.setThresholds(chosen);
            QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && pane.result() && !pane.isComputing(), 60000);
        }
        QVERIFY(pane.writeReport(paneDir).ok());

        QStringList files;
        for (QDirIterator it(cliDir, QDir::Files, QDirIterator::Subdirectories); it.hasNext();)
            files << QDir(cliDir).relativeFilePath(it.next());
        files.sort();
        QStringList paneFiles;
        for (QDirIterator it(paneDir, QDir::Files, QDirIterator::Subdirectories); it.hasNext();)
            paneFiles << QDir(paneDir).relativeFilePath(it.next());
        paneFiles.sort();
        QCOMPARE(paneFiles, files);
        QVERIFY(files.contains(u"report.json"_s));
        for (const QString& f : files)
            QVERIFY2(readAll(QDir(paneDir).filePath(f)) == readAll(QDir(cliDir).filePath(f)), qPrintable(f));
    }

    void perIteration()
    {
        const QString out = m_dir.filePath(u"compare.json"_s);
        QCOMPARE(cli({ u"compare"_s, m_export, m_other, u"--per"_s, u"iteration"_s, u"--marker"_s, u"train_step"_s,
                     u"--format"_s, u"json"_s, u"-o"_s, out }),
            int(cli::ExitOk));
        const nlohmann::json fromCli = nlohmann::json::parse(readAll(out).toStdString());

        Workbench workbench;
        std::vector<ProfileSession*> sessions;
        for (const QString& path : { m_export, m_other }) {
            const Result<LoadedProfile> loaded = loadForWorkbench(path);
            QVERIFY(loaded.ok());
            sessions.push_back(new ProfileSession(*loaded));
            workbench.addSession(sessions.back());
        }
        CompareController controller(&workbench, nullptr);
        CompareController::Settings settings = controller.settings();
        settings.normalization = CompareNormalization::PerIteration;
        settings.marker = u"train_step"_s;
        controller.setSettings(settings);
        controller.activate();
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy() && controller.comparison().profileCount() == 2, 60000);
        nlohmann::json fromPane = nlohmann::json::parse(compareJson(controller.comparison()).dump());
        // The profiles are named as typed on the command line and by file name in the window; the rows hold the
        // values per profile in the same order.
        QCOMPARE(QString::fromStdString(fromPane["rows"].dump()), QString::fromStdString(fromCli["rows"].dump()));

        // One definition in one window: what "per iteration" divides by is what the Iterations pane lists.
        for (std::size_t i = 0; i < sessions.size(); ++i) {
            const Result<IterationTable> table
                = computeIterations({ sessions[i]->profile(), u"train_step"_s, nullptr });
            QVERIFY(table.ok());
            QVERIFY(!table->iterations.empty());
            QCOMPARE(controller.comparison().divisor[i], double(table->iterations.size()));
        }
    }

    void mfu()
    {
        // The transformer calculator's fields filled as the command's options: the same result, field for field.
        const QString out = m_dir.filePath(u"mfu.json"_s);
        Window w(m_export);
        FindingsPane pane(&w.workbench);
        MfuView* view = pane.mfuView();
        MfuDialog* dialog = view->dialog();
        dialog->setProfile(w.session->profile());
        dialog->modelChoice()->setChecked(true);
        const std::pair<QString, QString> fields[] = { { u"--params"_s, u"1.3e9"_s }, { u"--tokens"_s, u"8192"_s },
            { u"--layers"_s, u"24"_s }, { u"--hidden"_s, u"2048"_s }, { u"--seq"_s, u"2048"_s },
            { u"--marker"_s, u"train_step"_s }, { u"--peak-tflops"_s, u"312"_s } };
        QStringList args { u"mfu"_s, m_export, u"--format"_s, u"json"_s, u"-o"_s, out };
        for (const auto& [option, value] : fields) {
            dialog->field(option)->setText(value);
            args << option << value;
        }
        QCOMPARE(cli(args), int(cli::ExitOk));
        QString error;
        MfuRequest request = dialog->request(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSignalSpy shown(view, &MfuView::resultShown);
        view->run(std::move(request));
        QVERIFY(shown.wait(60000));
        QVERIFY2(view->result(), qPrintable(view->headline()->text()));
        QCOMPARE(QString::fromStdString(mfuJson(*view->result()).dump(2)) + u'\n', QString::fromUtf8(readAll(out)));
    }
};

QTEST_MAIN(TestWindowParity)
#include "tst_windowparity.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Exports off the GUI thread (issue 33: a CSV of 1.29M executions froze the window 7-8 s): a row in the window's
// progress strip while one runs, the file under its name only once complete, nothing left by a cancel, the same
// bytes as the CLI's CSV.
#include "app/mainwindow.h"
#include "core/models/kernelinstancemodel.h"
#include "core/models/modelroles.h"
#include "profilebuilder.h"
#include "widgets/common/backgroundexport.h"
#include "widgets/shell/loadprogressstrip.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <condition_variable>
#include <mutex>

using namespace nsw;

namespace {
/// Holds a writer on its thread until opened (or its export cancelled).
struct Gate
{
    std::mutex mutex;
    std::condition_variable changed;
    bool open = false;
    void release()
    {
        std::lock_guard lock(mutex);
        open = true;
        changed.notify_all();
    }
    void wait(const JobContext& job)
    {
        std::unique_lock lock(mutex);
        while (!open && !job.isCancelled())
            changed.wait_for(lock, std::chrono::milliseconds(5));
    }
};

QStringList filesIn(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

class TestBackgroundExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// While the writer runs the window stays usable, a row says so with its Cancel, and the file is not there under
    /// its name (a temporary one is written); then it is, whole.
    void writesInTheBackgroundWithARow()
    {
        MainWindow w(true);
        w.show();
        QTemporaryDir dir;
        const QString file = QDir(dir.path()).filePath(QStringLiteral("table.csv"));
        auto gate = std::make_shared<Gate>();
        QString result = QStringLiteral("running");
        BackgroundExports* exports = BackgroundExports::of(&w);
        QCOMPARE(exports->parent(), static_cast<QObject*>(&w)); // the window's own, wired to its strip
        QSignalSpy started(exports, &BackgroundExports::taskStarted);
        exports->writeFile(
            QStringLiteral("CSV export"), file,
            [gate](QIODevice& out, const JobContext& job) {
                out.write("a,b\n");
                gate->wait(job);
                out.write("1,2\n");
                return QString();
            },
            [&](const QString& error) { result = error; });
        QCOMPARE(started.count(), 1);
        const int task = started.first().first().toInt();
        QWidget* row = w.progressStrip()->rowOfTask(task);
        QVERIFY(row);
        QTRY_VERIFY(row->isVisible());
        QVERIFY(row->findChild<QPushButton*>(QStringLiteral("loadCancel"))->isVisible());
        QVERIFY(!QFile::exists(file)); // not under its name while written
        gate->release();
        QTRY_COMPARE(result, QString());
        QCOMPARE(readAll(file), QByteArray("a,b\n1,2\n"));
        QCOMPARE(filesIn(dir.path()), QStringList { QStringLiteral("table.csv") }); // no temporary left
        QTRY_VERIFY(!w.progressStrip()->rowOfTask(task));
    }

    /// Cancel in the row: the export stops, and neither the file nor a temporary one is left.
    void cancelLeavesNothing()
    {
        MainWindow w(true);
        w.show();
        QTemporaryDir dir;
        const QString file = QDir(dir.path()).filePath(QStringLiteral("big.csv"));
        auto gate = std::make_shared<Gate>();
        QString result = QStringLiteral("running");
        QSignalSpy started(BackgroundExports::of(&w), &BackgroundExports::taskStarted);
        BackgroundExports::of(&w)->writeFile(
            QStringLiteral("CSV export"), file,
            [gate](QIODevice& out, const JobContext& job) {
                out.write("partial\n");
                gate->wait(job);
                return QString();
            },
            [&](const QString& error) { result = error; });
        QWidget* row = w.progressStrip()->rowOfTask(started.first().first().toInt());
        QVERIFY(row);
        QTRY_VERIFY(row->isVisible());
        QTest::mouseClick(row->findChild<QPushButton*>(QStringLiteral("loadCancel")), Qt::LeftButton);
        QTRY_COMPARE(result, QStringLiteral("cancelled"));
        QVERIFY(filesIn(dir.path()).isEmpty());
    }

    /// The writer writes what the CLI's CSV writer writes: from a snapshot for the executions model (off the GUI
    /// thread), from memory for any other model.
    void csvIsTheClisCsv()
    {
        test::ProfileBuilder b;
        const ProcessIndex p = b.process(7, QStringLiteral("app"));
        std::vector<std::uint32_t> rows;
        for (int i = 0; i < 5; ++i)
            rows.push_back(std::uint32_t(b.kernelWithoutApi(p, 100 * i, 100 * i + 10 + i, QStringLiteral("k, \"q\""))));
        KernelInstanceModel executions;
        executions.setInstances(b.build(), rows);
        executions.sort(KernelInstanceModel::DurationColumn, Qt::DescendingOrder);
        QStandardItemModel small(2, 2);
        small.setHorizontalHeaderLabels({ QStringLiteral("name"), QStringLiteral("value") });
        small.setItem(0, 0, new QStandardItem(QStringLiteral("a,b")));
        small.setItem(1, 1, new QStandardItem(QStringLiteral("2")));
        QTemporaryDir dir;
        BackgroundExports exports;
        for (const QAbstractItemModel* model :
            { static_cast<QAbstractItemModel*>(&executions), static_cast<QAbstractItemModel*>(&small) }) {
            const QString file = QDir(dir.path()).filePath(QStringLiteral("out.csv"));
            QString result = QStringLiteral("running");
            exports.writeFile(
                QStringLiteral("CSV export"), file, csvWriter(*model), [&](const QString& error) { result = error; });
            QTRY_COMPARE(result, QString());
            QCOMPARE(QString::fromUtf8(readAll(file)), modelCsv(*model, RawValueRole));
        }
    }
};

QTEST_MAIN(TestBackgroundExport)
#include "tst_backgroundexport.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The window's loads without a window: sessions open in the order the files were asked for, a failed load leaves
// the open sessions alone, a staged load's half profile goes when its load is cancelled, and closing that half
// profile cancels the rest of its load. Loads are held at a gate on their own thread, never slowed down by sleeps.
#include "core/session/loadcoordinator.h"
#include "core/session/loadjob.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "loaderfixtures.h"
#include "loadgate.h"
#include "oracleexports.h"
#include "sqlitefixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <memory>

using namespace nsw;
using namespace nsw::test;

namespace {

QString absolute(const QString& path)
{
    return QFileInfo(path).absoluteFilePath();
}

qint64 rowsOf(const QString& path, const QString& table)
{
    return queryRows(path, QStringLiteral("SELECT COUNT(*) FROM ") + table).value(0).value(0).toLongLong();
}

/// A workbench, its coordinator, and every signal of the coordinator as "signal path" lines in the order they came.
struct Loads
{
    Workbench workbench;
    LoadCoordinator coordinator { &workbench };
    QStringList events;
    QStringList errors;
    int started = 0;
    int ended = 0;

    Loads()
    {
        const auto add = [this](const char* what, const QString& path) {
            events.append(QLatin1String(what) + QLatin1Char(' ') + path);
        };
        QObject::connect(&coordinator, &LoadCoordinator::sessionOpened, &coordinator,
            [add](ProfileSession*, const QString& path) { add("opened", path); });
        QObject::connect(&coordinator, &LoadCoordinator::firstStageArriving, &coordinator,
            [add](const QString& path) { add("arriving", path); });
        QObject::connect(&coordinator, &LoadCoordinator::firstStageOpened, &coordinator,
            [add](const QString& path) { add("firstStage", path); });
        QObject::connect(
            &coordinator, &LoadCoordinator::loaded, &coordinator, [add](const QString& path) { add("loaded", path); });
        QObject::connect(&coordinator, &LoadCoordinator::failed, &coordinator,
            [this, add](const QString& path, const QString& error) {
                add("failed", path);
                errors.append(error);
            });
        QObject::connect(&coordinator, &LoadCoordinator::cancelled, &coordinator,
            [add](const QString& path) { add("cancelled", path); });
        QObject::connect(&coordinator, &LoadCoordinator::loadStarted, &coordinator, [this]() { ++started; });
        QObject::connect(&coordinator, &LoadCoordinator::jobEnded, &coordinator, [this]() { ++ended; });
    }
    /// Loads that ended (loaded, failed or cancelled).
    int finished() const
    {
        return int(std::count_if(events.begin(), events.end(), [](const QString& e) {
            return e.startsWith(QLatin1String("loaded ")) || e.startsWith(QLatin1String("failed "))
                || e.startsWith(QLatin1String("cancelled "));
        }));
    }
    /// Loads @p path and waits until it ended.
    bool loadWhole(const QString& path)
    {
        const int before = finished();
        coordinator.load(path);
        return QTest::qWaitFor([&]() { return finished() > before; }, 20000);
    }
};

} // namespace

class TestLoadCoordinator : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_modern;
    QString m_copy;
    LoadGate m_gate;

    /// The demo export under a path of its own, so that no profile cache entry brings it back whole (unstaged).
    QString copyOfDemo(const QString& name)
    {
        const QString copy = m_dir.filePath(name);
        QFile::remove(copy);
        return QFile::copy(demoExport(), copy) ? absolute(copy) : QString();
    }

    /// Loads @p demo in @p loads up to the second stage and holds it there: its half profile is open.
    bool holdInSecondStage(Loads& loads, const QString& demo)
    {
        const std::size_t before = loads.workbench.sessions().size();
        m_gate.close({ demo }, false, QStringLiteral("Joining"));
        loads.coordinator.load(demo);
        return QTest::qWaitFor([&]() { return loads.workbench.sessions().size() > before; }, 20000)
            && loads.events.contains(QStringLiteral("firstStage ") + demo);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("NSYS_WORKBENCH_CACHE_MAX_MB", "0"); // every load reads SQLite, staged
        m_modern = absolute(m_dir.filePath(QStringLiteral("modern.sqlite")));
        QString error;
        QVERIFY2(writeModernExport(m_modern, &error), qPrintable(error));
        m_copy = absolute(m_dir.filePath(QStringLiteral("copy.sqlite")));
        QVERIFY(QFile::copy(m_modern, m_copy));
        m_gate.install();
    }

    void cleanup() { QVERIFY(m_gate.openAndWaitForLoads()); }

    void cleanupTestCase() { m_gate.uninstall(); }

    void sessionsOpenInTheOrderAskedForWhicheverLoadEndsFirst()
    {
        Loads loads;
        m_gate.close({ m_modern }); // the first one asked for ends last
        loads.workbench.beginOpenBatch();
        loads.coordinator.load(m_modern);
        loads.coordinator.load(m_copy);
        QCOMPARE(int(loads.coordinator.jobs().size()), 2);
        QTRY_VERIFY_WITH_TIMEOUT(loads.events.contains(QStringLiteral("loaded ") + m_copy), 20000);
        QVERIFY(loads.events.filter(m_modern).isEmpty());
        QCOMPARE(loads.workbench.sessions().size(), std::size_t(1));
        m_gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(loads.finished(), 2, 20000);
        const auto& sessions = loads.workbench.sessions();
        QCOMPARE(sessions.size(), std::size_t(2));
        QCOMPARE(sessions[0]->path(), m_modern);
        QCOMPARE(sessions[1]->path(), m_copy);
        QCOMPARE(loads.workbench.current()->path(), m_modern);
        // The profile is the file's (counted by SQL on the file).
        const qint64 kernels = rowsOf(m_modern, QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"));
        QVERIFY(kernels > 0);
        QCOMPARE(qint64(sessions[0]->profile()->kernels.size()), kernels);
        QVERIFY(loads.coordinator.jobs().empty());
        QCOMPARE(loads.started, 2);
        QCOMPARE(loads.ended, 2);
    }

    void aFileAlreadyLoadingIsNotLoadedTwice()
    {
        Loads loads;
        m_gate.close();
        loads.coordinator.load(m_modern);
        loads.coordinator.load(m_modern);
        QCOMPARE(int(loads.coordinator.jobs().size()), 1);
        m_gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(loads.finished(), 1, 20000);
        QCOMPARE(loads.workbench.sessions().size(), std::size_t(1));
        QCOMPARE(loads.started, 1);
    }

    void sameFileNamesFromTwoFoldersAreToldApart()
    {
        QDir dir(m_dir.path());
        QVERIFY(dir.mkpath(QStringLiteral("run-a")) && dir.mkpath(QStringLiteral("run-b")));
        const QString a = absolute(dir.filePath(QStringLiteral("run-a/trace.sqlite")));
        const QString b = absolute(dir.filePath(QStringLiteral("run-b/trace.sqlite")));
        QVERIFY(QFile::copy(m_modern, a) && QFile::copy(m_modern, b));
        Loads loads;
        QVERIFY(loads.loadWhole(a));
        QVERIFY(loads.loadWhole(b));
        QCOMPARE(loads.workbench.sessions().size(), std::size_t(2));
        QCOMPARE(loads.workbench.sessions()[0]->displayName(), QStringLiteral("trace.sqlite"));
        QCOMPARE(loads.workbench.sessions()[1]->displayName(), QStringLiteral("run-b/trace.sqlite"));
    }

    void aFailedLoadLeavesTheOpenSessionsAlone_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addRow("text, not SQLite") << QByteArray("not a database, just text");
        QTest::addRow("empty file") << QByteArray();
    }
    void aFailedLoadLeavesTheOpenSessionsAlone()
    {
        QFETCH(QByteArray, bytes);
        const QString bad = absolute(m_dir.filePath(QStringLiteral("bad.sqlite")));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        Loads loads;
        QVERIFY(loads.loadWhole(m_modern));
        QVERIFY(loads.loadWhole(bad));
        QCOMPARE(loads.events.last(), QStringLiteral("failed ") + bad);
        QCOMPARE(loads.errors.size(), 1);
        QVERIFY2(loads.errors.first().contains(QStringLiteral("bad.sqlite")), qPrintable(loads.errors.first()));
        QCOMPARE(loads.workbench.sessions().size(), std::size_t(1));
        QCOMPARE(loads.workbench.sessions().front()->path(), m_modern);
        QVERIFY(loads.coordinator.jobs().empty());
    }

    void cancellingAStagedLoadClosesItsHalfProfile()
    {
        const QString demo = copyOfDemo(QStringLiteral("demo-cancel.sqlite"));
        Loads loads;
        QVERIFY(loads.loadWhole(m_modern));
        QVERIFY(holdInSecondStage(loads, demo));
        ProfileSession* half = loads.workbench.sessions()[1];
        QCOMPARE(half->path(), demo);
        QVERIFY(!half->isComplete());
        // The kernels are all there already.
        QCOMPARE(qint64(half->profile()->kernels.size()), rowsOf(demo, QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL")));
        QCOMPARE(int(loads.coordinator.jobs().size()), 1);
        loads.coordinator.jobs().front()->cancel();
        QTRY_COMPARE_WITH_TIMEOUT(loads.finished(), 2, 20000);
        QCOMPARE(loads.events.last(), QStringLiteral("cancelled ") + demo);
        QCOMPARE(loads.workbench.sessions().size(), std::size_t(1));
        QCOMPARE(loads.workbench.sessions().front()->path(), m_modern);
    }

    void closingAHalfProfileCancelsTheRestOfItsLoad()
    {
        const QString demo = copyOfDemo(QStringLiteral("demo-close.sqlite"));
        Loads loads;
        QVERIFY(holdInSecondStage(loads, demo));
        loads.workbench.removeSession(loads.workbench.sessions().front());
        QTRY_COMPARE_WITH_TIMEOUT(loads.finished(), 1, 20000);
        QCOMPARE(loads.events.last(), QStringLiteral("cancelled ") + demo);
        QVERIFY(loads.workbench.sessions().empty());
        QVERIFY(loads.coordinator.jobs().empty());
    }

    void aStagedLoadCompletesTheSessionItOpened()
    {
        const QString demo = copyOfDemo(QStringLiteral("demo-whole.sqlite"));
        Loads loads;
        // Held until the half profile is open: a load that ends before its first stage is shown opens whole (one
        // session, no firstStage), which a busy machine may bring about.
        QVERIFY(holdInSecondStage(loads, demo));
        m_gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(loads.finished(), 1, 20000);
        QCOMPARE(loads.events,
            QStringList({ QStringLiteral("arriving ") + demo, QStringLiteral("opened ") + demo,
                QStringLiteral("firstStage ") + demo, QStringLiteral("loaded ") + demo }));
        QCOMPARE(loads.workbench.sessions().size(), std::size_t(1)); // completed, not opened twice
        const ProfileSession* session = loads.workbench.sessions().front();
        QVERIFY(session->isComplete());
        const qint64 apiRows = rowsOf(demo, QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"));
        QVERIFY(apiRows > 0);
        QCOMPARE(qint64(session->profile()->cudaApi.size()), apiRows);
    }

    void destroyingTheCoordinatorCancelsItsLoads()
    {
        Workbench workbench;
        auto coordinator = std::make_unique<LoadCoordinator>(&workbench);
        m_gate.close();
        coordinator->load(m_modern);
        QPointer<LoadJob> job = coordinator->jobs().front();
        coordinator.reset();
        QVERIFY(!job);
        QVERIFY(m_gate.openAndWaitForLoads());
        QCoreApplication::processEvents(); // the dropped result finds no job
        QVERIFY(workbench.sessions().empty());
    }
};

QTEST_GUILESS_MAIN(TestLoadCoordinator)
#include "tst_loadcoordinator.moc"

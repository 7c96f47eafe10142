// SPDX-License-Identifier: GPL-3.0-or-later
// The Ranks pane in the window: ranks opened from the start page leave it, and a click on a heat map cell opens that
// rank's export (or switches to it when open) focused on the iteration (the truth.json range), the focus banner
// saying which.
#include "app/mainwindow.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "rankgen.h"
#include "widgets/ranks/rankheatmap.h"
#include "widgets/ranks/rankspane.h"
#include "widgets/shell/focusbanner.h"
#include "widgets/shell/startpage.h"

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace nsw;
using namespace Qt::StringLiterals;
using Json = nlohmann::ordered_json;

class TestRankOpener : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void clickOpensTheRankFocused();

private:
    QTemporaryDir m_dir;
    Json m_truth;
};

void TestRankOpener::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    tracegen::RankRunConfig c;
    c.outDir = m_dir.filePath(u"run"_s);
    c.ranks = 3;
    c.iterations = 4;
    c.mode = tracegen::StragglerMode::Persistent;
    c.straggler = 1;
    c.truthPath = m_dir.filePath(u"truth.json"_s);
    tracegen::generateRankRun(c);
    QFile truth(c.truthPath);
    QVERIFY(truth.open(QIODevice::ReadOnly));
    m_truth = Json::parse(truth.readAll().toStdString());
}

void TestRankOpener::clickOpensTheRankFocused()
{
    MainWindow w(true);
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.startPage()->isVisible());
    auto* pane = qobject_cast<RanksPane*>(w.pane(u"ranks"_s));
    QVERIFY(pane);
    QSignalSpy shown(pane, &RanksPane::ranksShown);
    w.openRanks({ m_dir.filePath(u"run"_s) });
    QVERIFY(shown.wait(60000) || pane->result());
    // The start page steps aside for the ranks, the pane is on screen.
    QTRY_VERIFY(!w.startPage()->isVisible());
    QTRY_VERIFY(pane->isVisible() && pane->heatmap()->isVisible());
    QVERIFY(pane->heatmap()->height() > 100);
    QCOMPARE(pane->result()->ranks.size(), std::size_t(3));

    for (const int pass : { 0, 1 }) { // opened, then already open: switched to
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        pane->activateCell(1, 2);
        if (pass == 0)
            QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
        ProfileSession* session = w.workbench()->current();
        QVERIFY(session);
        const Json& rank = m_truth["ranks"][1];
        QCOMPARE(
            QFileInfo(session->path()).absoluteFilePath(), QString::fromStdString(rank["file"].get<std::string>()));
        const Json& it = rank["iterations"][2];
        QTRY_COMPARE(session->focus().start, it["start_ns"].get<qint64>());
        QCOMPARE(session->focus().end, it["start_ns"].get<qint64>() + it["duration_ns"].get<qint64>());
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(pass + 1));
        QTRY_VERIFY(w.focusBanner()->isVisible());
        pane->activateCell(0, 0); // another rank, then back: the loop's second pass finds rank 1 open
        QTRY_COMPARE_WITH_TIMEOUT(w.workbench()->sessions().size(), std::size_t(2), 60000);
    }
}

QTEST_MAIN(TestRankOpener)
#include "tst_rankopener.moc"

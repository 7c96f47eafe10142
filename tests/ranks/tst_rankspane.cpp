// SPDX-License-Identifier: GPL-3.0-or-later
// The Ranks pane on a run nsys-tracegen made (4 rank exports, rank 2 late at every collective): what a person sees
// (the summary line, the heat map, the findings naming rank 2, the tables), the metric choice, and a click on a cell
// asking for that rank's export and that iteration's range as the generator's truth.json has them.
#include "core/ranks/summaryfile.h"
#include "rankgen.h"
#include "widgets/ranks/rankheatmap.h"
#include "widgets/ranks/rankspane.h"

#include <QComboBox>
#include <QFile>
#include <QFontMetrics>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace nsw;
using namespace Qt::StringLiterals;
using Json = nlohmann::ordered_json;

Q_DECLARE_METATYPE(nsw::FocusRange)

class TestRanksPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void showsTheRun();
    void metricRecolours();
    void shortPaneElidesTheScaleTitle();
    void clickAsksForTheRankFocused_data();
    void clickAsksForTheRankFocused();
    void summaryWithoutItsExportSaysSo();
    void markerOfNoRangeLeavesNoCellToClick();
    void badInputNamesTheFile();

private:
    /// A pane showing @p inputs, on screen at 1100x760.
    std::unique_ptr<RanksPane> showing(const QStringList& inputs);
    QTemporaryDir m_dir;
    Json m_truth;
};

void TestRanksPane::initTestCase()
{
    QVERIFY(m_dir.isValid());
    tracegen::RankRunConfig c;
    c.outDir = m_dir.filePath(u"run"_s);
    c.ranks = 4;
    c.iterations = 6;
    c.mode = tracegen::StragglerMode::Persistent;
    c.straggler = 2;
    c.clockOffsetUs = 700;
    tracegen::generateRankRun(c);
    QFile truth(c.outDir + u"/truth.json"_s);
    QVERIFY(truth.open(QIODevice::ReadOnly));
    m_truth = Json::parse(truth.readAll().toStdString());
    QFile::remove(truth.fileName()); // the folder holds the exports only
}

std::unique_ptr<RanksPane> TestRanksPane::showing(const QStringList& inputs)
{
    auto pane = std::make_unique<RanksPane>(nullptr);
    pane->resize(1100, 760);
    pane->show();
    if (!QTest::qWaitForWindowExposed(pane.get()))
        qFatal("the pane is not shown");
    QSignalSpy shown(pane.get(), &RanksPane::ranksShown);
    pane->setInputs(inputs);
    if (!shown.wait(60000))
        qFatal("the ranks are not shown");
    return pane;
}

void TestRanksPane::showsTheRun()
{
    auto pane = showing({ m_dir.filePath(u"run"_s) });
    QVERIFY(pane->message()->isVisible());
    QVERIFY2(pane->message()->text().startsWith(u"4 rank(s) from 4 file(s), 4 of them matched at "_s),
        qPrintable(pane->message()->text()));
    RankHeatmap* map = pane->heatmap();
    QVERIFY(map->isVisible());
    QVERIFY(map->height() >= 200 && map->width() >= 900);
    QCOMPARE(map->shownRows(), 4);
    QCOMPARE(map->shownColumns(), 6);
    // The heat map sits above the tabs, both inside the pane.
    QVERIFY(map->geometry().bottom() <= pane->tabs()->geometry().top());
    QVERIFY(pane->rect().contains(pane->tabs()->geometry()));
    QVERIFY(pane->findingsView()->isVisible());
    const QString findings = pane->findingsView()->toPlainText();
    QVERIFY2(findings.contains(u"rank 2 arrives last at "_s), qPrintable(findings));
    pane->tabs()->setCurrentWidget(pane->rankView());
    QVERIFY(pane->rankView()->isVisible());
    QCOMPARE(pane->rankView()->model()->rowCount(), 4);
    QCOMPARE(pane->exportableView(), pane->rankView());
    pane->tabs()->setCurrentWidget(pane->collectiveView());
    QCOMPARE(pane->collectiveView()->model()->rowCount(), int(m_truth["collectives"].size()));
    QCOMPARE(pane->exportableView(), pane->collectiveView());
}

void TestRanksPane::metricRecolours()
{
    auto pane = showing({ m_dir.filePath(u"run"_s) });
    pane->metricBox()->setCurrentIndex(pane->metricBox()->findData(u"wait"_s));
    QCOMPARE(pane->heatmap()->colorMap()->colorScale()->axis()->label(), u"wait for other ranks (ms)"_s);
    // Rank 0's wait in iteration 3, in ms, as the truth has it.
    const Json& rank0 = m_truth["ranks"][0]["iterations"][3];
    // The heat map keeps its cells as floats (1,024 ranks x 200 iterations): equal to a relative 1e-6.
    const double shown = pane->heatmap()->cellValue(0, 3), truth = double(rank0["wait_ns"].get<qint64>()) / 1e6;
    QVERIFY2(std::abs(shown - truth) < 1e-6 * std::max(1.0, truth), qPrintable(QString::number(shown - truth)));
}

void TestRanksPane::shortPaneElidesTheScaleTitle()
{
    // A pane docked low under the timeline: the colour scale is shorter than its title, which runs along it.
    auto pane = showing({ m_dir.filePath(u"run"_s) });
    pane->metricBox()->setCurrentIndex(pane->metricBox()->findData(u"wait"_s));
    pane->resize(900, 330);
    RankHeatmap* map = pane->heatmap();
    QCPColorScale* scale = map->colorMap()->colorScale();
    const auto elided = [&]() { return scale->axis()->label().endsWith(u"…"_s); };
    QTRY_VERIFY2(elided(), qPrintable(scale->axis()->label()));
    const QString shown = scale->axis()->label();
    QVERIFY(shown.startsWith(u"wait"_s));
    QVERIFY(QFontMetrics(scale->axis()->labelFont()).horizontalAdvance(shown) <= scale->rect().height());
    pane->resize(1100, 760); // tall again: the whole title
    QTRY_COMPARE(scale->axis()->label(), u"wait for other ranks (ms)"_s);
}

void TestRanksPane::clickAsksForTheRankFocused_data()
{
    QTest::addColumn<int>("rank");
    QTest::addColumn<int>("iteration");
    QTest::newRow("the straggler, iteration 1") << 2 << 1;
    QTest::newRow("rank 3, the last iteration") << 3 << 5;
}

void TestRanksPane::clickAsksForTheRankFocused()
{
    QFETCH(int, rank);
    QFETCH(int, iteration);
    auto pane = showing({ m_dir.filePath(u"run"_s) });
    RankHeatmap* map = pane->heatmap();
    QSignalSpy asked(pane.get(), &RanksPane::openRankRequested);
    const QPoint cell = QPointF(map->xAxis->coordToPixel(iteration), map->yAxis->coordToPixel(rank)).toPoint();
    QTest::mouseClick(map, Qt::LeftButton, {}, cell);
    QCOMPARE(asked.size(), 1);
    const Json& truthRank = m_truth["ranks"][std::size_t(rank)];
    QCOMPARE(asked.first().at(0).toString(), QString::fromStdString(truthRank["file"].get<std::string>()));
    const auto range = asked.first().at(1).value<FocusRange>();
    const Json& it = truthRank["iterations"][std::size_t(iteration)];
    QCOMPARE(range.start, it["start_ns"].get<qint64>());
    QCOMPARE(range.end, it["start_ns"].get<qint64>() + it["duration_ns"].get<qint64>());
    QCOMPARE(range.label, u"rank %1, iteration %2"_s.arg(rank).arg(iteration));
}

// A marker that names no range: the ranks are matched at their collectives, but there is no iteration, so no cell to
// click; the heat map says why (it asked to open rank exports over the open ranks).
void TestRanksPane::markerOfNoRangeLeavesNoCellToClick()
{
    auto pane = std::make_unique<RanksPane>(nullptr);
    pane->resize(1100, 760);
    pane->show();
    QVERIFY(QTest::qWaitForWindowExposed(pane.get()));
    pane->markerEdit()->setText(u"no_such_range"_s);
    QSignalSpy shown(pane.get(), &RanksPane::ranksShown);
    pane->setInputs({ m_dir.filePath(u"run"_s) });
    QVERIFY(shown.wait(60000));
    const QString message = pane->message()->text();
    QVERIFY2(message.startsWith(u"4 rank(s) from 4 file(s)"_s), qPrintable(message));
    QVERIFY2(!message.contains(u"Click a cell"_s), qPrintable(message));
    QCOMPARE(pane->heatmap()->shownColumns(), 0);
    bool says = false;
    for (int i = 0; i < pane->heatmap()->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(pane->heatmap()->item(i)))
            says = says || (text->visible() && text->text().startsWith(u"No iterations in these ranks"_s));
    QVERIFY(says);
    // With its iterations, the run's message says what a click does.
    QSignalSpy again(pane.get(), &RanksPane::ranksShown);
    pane->markerEdit()->clear();
    pane->setInputs({ m_dir.filePath(u"run"_s) });
    QVERIFY(again.wait(60000));
    QVERIFY2(pane->message()->text().contains(u"Click a cell"_s), qPrintable(pane->message()->text()));
}

void TestRanksPane::summaryWithoutItsExportSaysSo()
{
    // A summary whose export is elsewhere (made on the cluster): the pane shows it, a click says the export is not
    // here.
    QTemporaryDir elsewhere;
    auto file = std::make_shared<RankFile>();
    {
        auto pane = showing({ m_dir.filePath(u"run/rank_1.sqlite"_s) });
        *file = *pane->result()->files.front();
    }
    file->exportPath = elsewhere.filePath(u"gone/rank_1.sqlite"_s);
    const QString summary = elsewhere.filePath(u"rank_1.nswsum"_s);
    QFile out(summary);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(encodeRankSummary(*file));
    out.close();
    auto pane = showing({ summary });
    QSignalSpy asked(pane.get(), &RanksPane::openRankRequested);
    pane->activateCell(0, 0);
    QCOMPARE(asked.size(), 0);
    QVERIFY2(
        pane->message()->text().startsWith(u"Rank 1's export is not at hand ("_s), qPrintable(pane->message()->text()));
    QVERIFY(pane->message()->text().contains(u"gone/rank_1.sqlite"_s));
}

void TestRanksPane::badInputNamesTheFile()
{
    const QString bad = m_dir.filePath(u"not-a-trace.sqlite"_s);
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("hello");
    f.close();
    auto pane = showing({ bad });
    QVERIFY(pane->message()->isVisible());
    QVERIFY2(pane->message()->text().contains(u"not-a-trace.sqlite"_s), qPrintable(pane->message()->text()));
    QVERIFY(!pane->heatmap()->colorMap()->visible());
}

QTEST_MAIN(TestRanksPane)
#include "tst_rankspane.moc"

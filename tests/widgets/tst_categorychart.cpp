// SPDX-License-Identifier: GPL-3.0-or-later
// What a person sees of the category chart at pane and PNG sizes: bar labels that fit (upright when they fit side by
// side, else horizontal bars), a plot area of at least half the chart, and every legend entry complete.
#include "widgets/categories/categorychart.h"
#include "widgets/common/plotexport.h"

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

namespace {
/// Each bar's total: the sum of its categories' times (after a test changed them).
void sumBars(CategoryTable& t)
{
    for (std::size_t b = 0; b < t.barTotal.size(); ++b) {
        t.barTotal[b] = 0;
        for (const auto& row : t.time)
            t.barTotal[b] += row[b];
    }
}

/// @p bars bars named like real profile labels, 14 categories named like the vLLM rules' (underscores, descenders).
CategoryTable table(int bars)
{
    const QStringList names = { QStringLiteral("memops"), QStringLiteral("elementwise"), QStringLiteral("reduce"),
        QStringLiteral("embedding"), QStringLiteral("prepare_next"), QStringLiteral("sampling"), QStringLiteral("rope"),
        QStringLiteral("activation"), QStringLiteral("norm"), QStringLiteral("gemm"), QStringLiteral("moe"),
        QStringLiteral("moe_gemm"), QStringLiteral("attn"), QStringLiteral("nccl_and_custom_ar") };
    CategoryTable t;
    t.categories = names;
    for (int c = 0; c < names.size(); ++c)
        t.colors.push_back(0xFF000000u | std::uint32_t(0x1F77B4 + 0x0A1B2C * c));
    for (int b = 0; b < bars; ++b) {
        t.bars << QStringLiteral("nsys2026.2_h100x2_mfu_%1_nccl.sqlite · GPU %2")
                      .arg(b % 2 ? QStringLiteral("after") : QStringLiteral("before"))
                      .arg(b);
        t.barWarnings << QString();
    }
    t.time.assign(std::size_t(names.size()), std::vector<TimeNs>(std::size_t(bars), 0));
    t.instances.assign(std::size_t(names.size()), std::vector<std::int64_t>(std::size_t(bars), 1));
    t.barTotal.assign(std::size_t(bars), 0);
    for (int c = 0; c < names.size(); ++c)
        for (int b = 0; b < bars; ++b)
            t.time[std::size_t(c)][std::size_t(b)] = TimeNs(1'000'000) * (c + 1) * (b % 3 + 1);
    sumBars(t);
    return t;
}

/// @p chart at @p size showing @p t, on screen and replotted; false when the window never appeared.
bool showOnScreen(CategoryChart& chart, const CategoryTable& t, QSize size)
{
    chart.resize(size);
    chart.setTable(t, QStringLiteral("vllm / llama"));
    chart.show();
    if (!QTest::qWaitForWindowExposed(&chart))
        return false;
    chart.replot();
    return true;
}
} // namespace

class TestCategoryChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void layoutFits_data();
    void layoutFits();
    void shortLabelsStandUpright();
    void hitTestFindsTheSegmentInEitherOrientation();
    void shortDockLegendIsWholeOrLeftOut_data();
    void shortDockLegendIsWholeOrLeftOut();
    void timeAxisNumbersHaveRoom_data();
    void timeAxisNumbersHaveRoom();
    void exportedBarsCarryWholeNames();
};

void TestCategoryChart::layoutFits_data()
{
    QTest::addColumn<int>("bars");
    QTest::addColumn<QSize>("size");
    for (const int bars : { 2, 6, 16 })
        for (const QSize size : { QSize(800, 400), QSize(1920, 500), QSize(480, 340), QSize(360, 300), QSize(360, 220),
                 QSize(360, 235), QSize(360, 250), QSize(360, 180) }) // docked
            QTest::addRow("%d bars at %dx%d", bars, size.width(), size.height()) << bars << size;
}

void TestCategoryChart::layoutFits()
{
    QFETCH(int, bars);
    QFETCH(QSize, size);
    CategoryChart chart;
    chart.resize(size);
    chart.setTable(table(bars), QStringLiteral("vllm / llama"));
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.replot();

    const QRect plot = chart.axisRect()->rect();
    // Half the chart for the plot at the sizes; a 300 px high docked pane also holds 14 whole legend entries.
    if (size.width() >= 800)
        QVERIFY2(plot.height() * 2 >= size.height(), qPrintable(QStringLiteral("plot height %1").arg(plot.height())));
    QVERIFY(plot.height() >= 40);
    QVERIFY2(plot.width() * 2 >= size.width() - chart.legend->outerRect().width(),
        qPrintable(
            QStringLiteral("plot width %1, legend %2").arg(plot.width()).arg(chart.legend->outerRect().width())));

    // Bar labels: upright ones side by side without overlapping, horizontal ones one per row.
    const QFontMetrics metrics(chart.barAxis()->tickLabelFont());
    const double pitch = chart.isHorizontal()
        ? std::abs(chart.barAxis()->coordToPixel(2) - chart.barAxis()->coordToPixel(1))
        : chart.barAxis()->coordToPixel(2) - chart.barAxis()->coordToPixel(1);
    const auto ticker = chart.barAxis()->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), bars);
    for (const QString& label : ticker->ticks()) {
        if (size.width() < 800) // a narrow docked pane: only the legend is checked (rows may be tighter than a label)
            break;
        if (chart.isHorizontal()) {
            QVERIFY(metrics.height() <= pitch);
            QVERIFY(metrics.horizontalAdvance(label) <= size.width() / 3 + 1);
        } else {
            QVERIFY2(metrics.horizontalAdvance(label) < pitch, qPrintable(label));
            QVERIFY(table(bars).bars.contains(label)); // upright labels are never shortened
        }
    }
    QCOMPARE(chart.barAxis()->tickLabelRotation(), 0.0);

    // Value labels: the visible ones (centred on their segment) never overlap each other.
    std::vector<QRectF> labels;
    for (int i = 0; i < chart.itemCount(); ++i) {
        const auto* text = qobject_cast<QCPItemText*>(chart.item(i));
        if (!text || !text->visible() || text->positionAlignment() != Qt::AlignCenter)
            continue;
        const QFontMetrics m(text->font());
        QRectF r(QPointF(0, 0), QSizeF(m.horizontalAdvance(text->text()), m.height()));
        r.moveCenter(text->position->pixelPosition());
        for (const QRectF& other : labels)
            QVERIFY2(!r.adjusted(1, 1, -1, -1).intersects(other), qPrintable(text->text()));
        labels.push_back(r);
    }
    QVERIFY(!labels.empty() || size.width() < 800);

    // Each bar's total, written beyond its end, lies whole inside the plot ("287 ms" lost its "s" at the edge).
    int totals = 0;
    for (int i = 0; i < chart.itemCount(); ++i) {
        const auto* text = qobject_cast<QCPItemText*>(chart.item(i));
        if (!text || text->positionAlignment() == Qt::AlignCenter)
            continue;
        ++totals;
        const QFontMetrics m(text->font());
        const QPointF at = text->position->pixelPosition();
        if (chart.isHorizontal())
            QVERIFY2(at.x() + text->padding().left() + m.horizontalAdvance(text->text()) <= plot.right() + 1,
                qPrintable(text->text()));
        else
            QVERIFY2(at.y() - text->padding().bottom() - m.height() >= plot.top() - 1, qPrintable(text->text()));
    }
    QCOMPARE(totals, bars);

    // A short docked pane has no room for 14 whole entries: the legend is left out (the table under the chart shows
    // the colours), never squeezed, and the plot takes its place.
    if (size.height() < 300) {
        QVERIFY(!chart.legend->visible());
        // Titles and the time axis take the rest: 40 % of the chart, or 60 px at its minimum height.
        QVERIFY2(plot.height() * 5 >= size.height() * 2 || (size.height() < 200 && plot.height() >= 60),
            qPrintable(QStringLiteral("plot height %1").arg(plot.height())));
        return;
    }
    // Legend: every entry complete (not squeezed below its own height), inside the chart, off the plot.
    QVERIFY(chart.legend->visible());
    int entries = 0;
    for (int i = 0; i < chart.legend->itemCount(); ++i)
        entries += chart.legend->item(i) ? 1 : 0; // a wrapped legend has empty cells
    QCOMPARE(entries, 14);
    const QImage rendered = chart.toPixmap(size.width(), size.height()).toImage();
    const QRect legend = chart.legend->outerRect();
    QVERIFY(QRect(QPoint(0, 0), size).contains(legend));
    QVERIFY(!legend.intersects(plot));
    QVERIFY2(legend.right() < size.width() && legend.bottom() < size.height(),
        qPrintable(QStringLiteral("legend %1,%2 %3x%4")
                       .arg(legend.x())
                       .arg(legend.y())
                       .arg(legend.width())
                       .arg(legend.height())));
    for (int i = 0; i < chart.legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = chart.legend->item(i);
        if (!item)
            continue;
        QVERIFY2(item->outerRect().height() >= item->minimumOuterSizeHint().height(),
            qPrintable(QStringLiteral("entry %1 squeezed to %2 px").arg(i).arg(item->outerRect().height())));
        QVERIFY(legend.contains(item->outerRect()));
        auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
        QVERIFY(entry);
        const QString name = entry->plottable()->name();
        // Underscores sit lowest of all ink: rendered, the columns of the first one hold dark pixels in the entry.
        if (const qsizetype underscore = name.indexOf(QLatin1Char('_')); underscore > 0) {
            const QFontMetrics legendMetrics(chart.legend->font());
            const int x0 = item->rect().left() + chart.legend->iconSize().width() + chart.legend->iconTextPadding()
                + legendMetrics.horizontalAdvance(name.left(underscore));
            const int x1 = x0 + legendMetrics.horizontalAdvance(QLatin1Char('_')) - 1;
            bool inked = false;
            for (int y = item->outerRect().top(); y <= item->outerRect().bottom() && !inked; ++y)
                for (int x = x0 + 1; x < x1 && !inked; ++x)
                    inked = qGray(rendered.pixel(x, y)) < 128;
            QVERIFY2(inked, qPrintable(name + QStringLiteral(": the underscore is not drawn")));
        }
        QVERIFY2(item->outerRect().width() >= chart.legend->iconSize().width() + chart.legend->iconTextPadding()
                    + QFontMetrics(chart.legend->font()).horizontalAdvance(name),
            qPrintable(name));
    }
}

void TestCategoryChart::shortDockLegendIsWholeOrLeftOut_data()
{
    QTest::addColumn<QSize>("size");
    // The Categories dock at 1366x768 (358x215) showed 11 entries squeezed below the plot, underscores gone.
    for (const QSize size : { QSize(360, 180), QSize(358, 215), QSize(360, 250), QSize(360, 300), QSize(480, 340) })
        QTest::addRow("12 categories at %dx%d", size.width(), size.height()) << size;
}

void TestCategoryChart::shortDockLegendIsWholeOrLeftOut()
{
    QFETCH(QSize, size);
    // The vLLM rules' twelve without moe and moe_gemm: the widest entry, nccl_and_custom_ar, stays.
    CategoryTable t = table(2);
    for (const int drop : { 11, 10 }) {
        t.categories.removeAt(drop);
        t.colors.erase(t.colors.begin() + drop);
        t.time.erase(t.time.begin() + drop);
        t.instances.erase(t.instances.begin() + drop);
    }
    sumBars(t);
    CategoryChart chart;
    QVERIFY(showOnScreen(chart, t, size));
    QVERIFY2(chart.axisRect()->rect().height() >= 40, qPrintable(QString::number(chart.axisRect()->rect().height())));
    // The titles are elided to the width rather than cut at both ends.
    const QFont titleFont(chart.font().family(), chart.font().pointSize() + 1, QFont::Bold); // as the chart sets them
    const QFont subtitleFont(chart.font().family(), chart.font().pointSize() - 1);
    QVERIFY2(
        QFontMetrics(titleFont).horizontalAdvance(chart.shownTitle()) <= size.width(), qPrintable(chart.shownTitle()));
    QVERIFY2(QFontMetrics(subtitleFont).horizontalAdvance(chart.shownSubtitle()) <= size.width(),
        qPrintable(chart.shownSubtitle()));
    if (!chart.legend->visible())
        return; // the table under the chart shows the colours
    for (int i = 0; i < chart.legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = chart.legend->item(i))
            QVERIFY2(item->outerRect().height() >= item->minimumOuterSizeHint().height(),
                qPrintable(QStringLiteral("entry %1 squeezed to %2 px").arg(i).arg(item->outerRect().height())));
}

void TestCategoryChart::timeAxisNumbersHaveRoom_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<double>("longestBarMs");
    // 480x340 with 287 ms is the docked pane at 1920x1080 on the mfu before/after pair, where QCustomPlot's five ticks
    // read "0 50 100150200250300350".
    for (const QSize size : { QSize(480, 340), QSize(800, 400), QSize(1920, 500), QSize(360, 300) })
        for (const double ms : { 287.0, 2870.0, 0.0287, 1.5 })
            QTest::addRow("%g ms at %dx%d", ms, size.width(), size.height()) << size << ms;
}

void TestCategoryChart::timeAxisNumbersHaveRoom()
{
    QFETCH(QSize, size);
    QFETCH(double, longestBarMs);
    CategoryTable t = table(2);
    const double scale = longestBarMs * 1e6 / double(*std::max_element(t.barTotal.begin(), t.barTotal.end()));
    for (auto& row : t.time)
        for (TimeNs& v : row)
            v = TimeNs(std::llround(double(v) * scale));
    sumBars(t);
    CategoryChart chart;
    QVERIFY(showOnScreen(chart, t, size));

    // At least three numbers, each pair apart by more than a label's width plus two characters.
    QCPAxis* const time = chart.timeAxis();
    const QFontMetrics metrics(time->tickLabelFont());
    const QVector<double> ticks = time->tickVector();
    const QVector<QString> labels = time->tickVectorLabels();
    QVERIFY2(ticks.size() >= 3, qPrintable(QStringLiteral("%1 ticks").arg(ticks.size())));
    for (qsizetype i = 1; i < ticks.size(); ++i) {
        const double gap = std::abs(time->coordToPixel(ticks[i]) - time->coordToPixel(ticks[i - 1]));
        const double needed = time->orientation() == Qt::Horizontal
            ? (metrics.horizontalAdvance(labels[i]) + metrics.horizontalAdvance(labels[i - 1])) / 2.0
                + 2 * metrics.averageCharWidth()
            : metrics.height() * 1.5;
        QVERIFY2(gap >= needed,
            qPrintable(QStringLiteral("'%1' and '%2' %3 px apart").arg(labels[i - 1], labels[i]).arg(gap)));
    }
}

/// In a narrow pane the bars' profile names are shortened to what tells them apart ("…before…", whole in the
/// tooltip); a PNG has no tooltip, so an export draws them whole (it drew "…before…" and "…after…").
void TestCategoryChart::exportedBarsCarryWholeNames()
{
    CategoryChart chart;
    const CategoryTable t = table(2);
    QVERIFY(showOnScreen(chart, t, QSize(380, 320)));
    QVERIFY(chart.isHorizontal());
    const auto labels = [&]() {
        QStringList out;
        for (const QString& l : chart.barAxis()->ticker().dynamicCast<QCPAxisTickerText>()->ticks())
            out << l;
        return out;
    };
    QVERIFY2(labels().first().contains(QStringLiteral("…")), qPrintable(labels().join(u'|')));
    chart.setExporting(true);
    QCOMPARE(labels(), QStringList(t.bars.begin(), t.bars.end()));
    chart.setExporting(false);
    QVERIFY(labels().first().contains(QStringLiteral("…")));
    // renderPlotImage() exports that way, and the chart on screen is shortened again after it.
    QTemporaryDir dir;
    QCOMPARE(savePlotPng(chart, dir.filePath(QStringLiteral("c.png")), { 900, 500 }), QString());
    QVERIFY(labels().first().contains(QStringLiteral("…")));
}

void TestCategoryChart::shortLabelsStandUpright()
{
    CategoryChart chart;
    chart.resize(800, 400);
    CategoryTable t = table(2);
    t.bars = QStringList { QStringLiteral("before"), QStringLiteral("after") };
    chart.setTable(t, QStringLiteral("vllm / llama"));
    QVERIFY(!chart.isHorizontal());
    QCOMPARE(chart.barAxis(), chart.xAxis);
}

void TestCategoryChart::hitTestFindsTheSegmentInEitherOrientation()
{
    for (const bool shortLabels : { true, false }) {
        CategoryChart chart;
        chart.resize(1920, 500);
        CategoryTable t = table(6);
        if (shortLabels)
            t.bars = QString(QStringLiteral("a b c d e f")).split(QLatin1Char(' '));
        chart.setTable(t, QStringLiteral("vllm / llama"));
        QCOMPARE(chart.isHorizontal(), !shortLabels);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.replot();
        // The middle of bar 3's "gemm" segment (row 9): base = sum of rows 0..8 of bar 3 (b % 3 = 2 -> x3).
        const double base = 3.0 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9), mid = base + 3.0 * 10 / 2;
        const double barPixel = chart.barAxis()->coordToPixel(3);
        const double timePixel = chart.timeAxis()->coordToPixel(mid);
        const QPointF at = chart.isHorizontal() ? QPointF(timePixel, barPixel) : QPointF(barPixel, timePixel);
        const CategoryChart::Hit hit = chart.hitTest(at);
        QCOMPARE(hit.bar, 2);
        QCOMPARE(hit.row, 9);
    }
}

QTEST_MAIN(TestCategoryChart)
#include "tst_categorychart.moc"

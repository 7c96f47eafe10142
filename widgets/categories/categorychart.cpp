// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorychart.h"

#include "core/compare/compareexport.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "widgets/common/axisticks.h"
#include "widgets/common/legendentries.h"
#include "widgets/common/plotexport.h"

#include <algorithm>

namespace nsw {

namespace {
QColor argb(std::uint32_t c)
{
    return QColor::fromRgba(c);
}

/// @p text with line breaks where a line would be wider than @p width pixels (words are never split).
QString wrapped(const QString& text, const QFontMetrics& metrics, int width)
{
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                lines << line;
                line = word;
            } else {
                line = longer;
            }
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

QString number(double v)
{
    return QString::number(v, 'f', v >= 100 ? 0 : (v >= 10 ? 1 : 2));
}
} // namespace

CategoryChart::CategoryChart(QWidget* parent)
    : Chart(parent)
    , m_title(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold)))
    , m_subtitle(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() - 1)))
{
    setProperty("nswBackground", QBrush(Qt::white));
    // Title rows across the whole width; below them the axis rect and, in its own column packed at the top, the
    // legend, so that it never hides a bar.
    QCPAxisRect* rect = axisRect();
    plotLayout()->take(rect);
    plotLayout()->simplify();
    plotLayout()->addElement(0, 0, m_title);
    plotLayout()->addElement(1, 0, m_subtitle);
    auto* body = new QCPLayoutGrid;
    plotLayout()->addElement(2, 0, body);
    m_subtitle->setTextColor(QColor(80, 80, 80));
    m_subtitle->setMargins(QMargins(0, 0, 0, 4));
    body->addElement(0, 0, rect);
    m_side = new QCPLayoutGrid;
    body->addElement(0, 1, m_side);
    body->setColumnStretchFactor(1, 0.001);
    legend->setVisible(true);
    legend->setBorderPen(Qt::NoPen);
    legend->setSelectableParts(QCPLegend::spNone);
    m_side->addElement(0, 0, legend);
    m_side->addElement(1, 0, new QCPLayoutElement(this));
    m_side->setRowStretchFactor(0, 0.001);
    m_side->setMargins(QMargins(0, 0, 8, 0));
    // A narrow chart puts the legend in a row below the plot instead (fitLegend).
    m_below = new QCPLayoutGrid;
    plotLayout()->addElement(3, 0, m_below);
    plotLayout()->setRowStretchFactor(3, 0.001);
    m_below->setMargins(QMargins(8, 0, 8, 4));
    // A grid's maximum width is its children's: without an unbounded spacer beside the legend's cell, the row would
    // cap the width of the whole column (title and plot included) at the legend's.
    m_below->addElement(0, 1, new QCPLayoutElement(this));
    m_below->setColumnStretchFactor(0, 0.001);
    legend->setIconSize(14, 10);
    legend->setRowSpacing(1);
    setMinimumSize(320, 150); // a docked pane at 1366x768 has ~230 px for the chart and its table
    connect(this, &QCustomPlot::afterLayout, this, &CategoryChart::showLabelsThatFit);
}

void CategoryChart::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    fitToSize();
}

bool CategoryChart::labelsFitSideBySide() const
{
    const qsizetype bars = m_table.bars.size();
    if (bars == 0)
        return true;
    int widest = 0;
    const QFontMetrics metrics(xAxis->tickLabelFont());
    for (const QString& label : m_table.bars)
        widest = std::max(widest, metrics.horizontalAdvance(label));
    // The upright plot's width, the same in either orientation (no flip-flop): the chart's minus the legend column
    // (fitLegend) and the time axis' labels.
    const int plotWidth = width() - m_legendWidth - 70;
    return widest <= 0.85 * double(plotWidth) / double(bars);
}

int CategoryChart::labelRoom() const
{
    const QFontMetrics metrics(barAxis()->tickLabelFont());
    return std::max(8 * metrics.averageCharWidth(), (width() - m_legendWidth) / 3);
}

void CategoryChart::fitToSize()
{
    fitLegend();
    const bool horizontal = !labelsFitSideBySide();
    // Horizontal labels were shortened for the room the chart had then.
    if (horizontal != m_horizontal || (horizontal && labelRoom() != m_labelRoomBuilt)) {
        m_horizontal = horizontal;
        rebuild();
        fitLegend();
    }
}

void CategoryChart::fitLegend()
{
    // The legend keeps every entry whole: a squeezed entry loses its descenders and underscores, a clipped one its
    // end. Beside the plot it wraps into more columns when the plot is short; when it would take more than a third
    // of the width it moves into a row below the plot, wrapped into as many columns as fit; when even that would
    // take more than half the height (a short docked pane), it is left out: the table under the chart shows each
    // category's colour. Sized from the entries' own size hints.
    int items = 0;
    QSize entry(1, 1);
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i)) { // a wrapped legend has empty cells
            ++items;
            entry = entry.expandedTo(item->minimumOuterSizeHint());
        }
    const int rowHeight = entry.height() + legend->rowSpacing();
    const int columnWidth = entry.width() + legend->columnSpacing();
    const int belowColumns = std::max(1, (width() - 16) / std::max(1, columnWidth));
    const int belowRows = (items + belowColumns - 1) / belowColumns;
    const int belowHeight = belowRows * rowHeight + legend->margins().top() + legend->margins().bottom()
        + m_below->margins().top() + m_below->margins().bottom();
    // Below, the legend shares the height with the titles, the time axis (its numbers and label) and the plot, which
    // keeps room for its bars and their value labels; otherwise the layout squeezes the legend's rows.
    constexpr int kMinimumPlot = 60;
    const int chrome = QFontMetrics(m_title->font()).height() + QFontMetrics(m_subtitle->font()).height() + 8
        + 3 * QFontMetrics(timeAxis()->tickLabelFont()).height();
    const bool fitsBelow = belowHeight <= height() / 2 && belowHeight + chrome + kMinimumPlot <= height();
    const LegendPlace place = columnWidth <= width() / 3 ? LegendPlace::Side
        : fitsBelow                                      ? LegendPlace::Below
                                                         : LegendPlace::Hidden;
    if (place != m_legendPlace) {
        if (m_legendPlace != LegendPlace::Hidden)
            (m_legendPlace == LegendPlace::Below ? m_below : m_side)->take(legend);
        if (place != LegendPlace::Hidden)
            (place == LegendPlace::Below ? m_below : m_side)->addElement(0, 0, legend);
        legend->setVisible(place != LegendPlace::Hidden);
        m_legendPlace = place;
    }
    int wrap = 0;
    QCPLayoutGrid::FillOrder order = QCPLayoutGrid::foRowsFirst;
    m_legendWidth = 0;
    if (place == LegendPlace::Below) {
        order = QCPLayoutGrid::foColumnsFirst;
        wrap = items > belowColumns ? belowColumns : 0;
    } else if (place == LegendPlace::Side) {
        const int room = axisRect()->outerRect().height() > 0 ? axisRect()->outerRect().height() : height() / 2;
        const int rows = std::max(1, (room - legend->margins().top() - legend->margins().bottom()) / rowHeight);
        wrap = items > rows ? rows : 0;
        const int columns = wrap > 0 ? (items + wrap - 1) / wrap : 1;
        m_legendWidth = columns * columnWidth + 8;
    }
    if (legend->wrap() != wrap || legend->fillOrder() != order) {
        legend->setWrap(wrap);
        legend->setFillOrder(order, true);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void CategoryChart::setTable(const CategoryTable& table, const QString& subtitle)
{
    m_table = table;
    m_rulesName = subtitle;
    setViewport(rect()); // a chart rendered without being shown (the CLI's PNG) has had no resize event
    m_horizontal = !labelsFitSideBySide();
    rebuild();
    fitToSize(); // again with the laid-out axis rect
}

void CategoryChart::setExporting(bool exporting)
{
    if (exporting == m_exporting)
        return;
    m_exporting = exporting;
    const Hit outlined = m_highlighted;
    rebuild();
    if (outlined.bar >= 0)
        highlight(outlined); // the outline stays on screen (an export hides it on its own)
}

void CategoryChart::rebuild()
{
    const CategoryTable& table = m_table;
    clearPlottables();
    clearItems();
    m_highlight = nullptr;
    m_highlighted = {};
    m_placeholder = nullptr;
    m_segmentLabels.clear();
    m_totalLabels.clear();
    const TimeNs maxTotal = table.bars.isEmpty() ? 0 : *std::max_element(table.barTotal.begin(), table.barTotal.end());
    chooseUnit(maxTotal);
    m_titleText = tr("Kernel categories · %1 · time mode %2").arg(m_rulesName, timeModeName(table.mode));
    m_subtitleText = timeModeDescription(table.mode);
    addStackedBars();
    keepLegendInk(*legend);
    setUpAxes(maxTotal);
    if (maxTotal <= 0)
        showPlaceholder();
    else
        addValueLabels();
    replot();
}

void CategoryChart::chooseUnit(TimeNs maxTotal)
{
    if (maxTotal >= 1'000'000'000) {
        m_unitNs = 1e9;
        m_unit = QStringLiteral("s");
    } else if (maxTotal >= 1'000'000) {
        m_unitNs = 1e6;
        m_unit = QStringLiteral("ms");
    } else if (maxTotal >= 1'000) {
        m_unitNs = 1e3;
        m_unit = QStringLiteral("µs");
    } else {
        m_unitNs = 1;
        m_unit = QStringLiteral("ns");
    }
}

void CategoryChart::addStackedBars()
{
    const CategoryTable& table = m_table;
    const std::size_t bars = std::size_t(table.bars.size());
    QVector<double> keys;
    for (std::size_t b = 0; b < bars; ++b)
        keys.append(double(b + 1));
    // Created from the top of the stack down, so that the legend lists them in the order they are stacked.
    std::vector<QCPBars*> stack(table.rowCount(), nullptr);
    for (std::size_t r = table.rowCount(); r-- > 0;) {
        auto* b = new QCPBars(barAxis(), timeAxis());
        b->setName(table.categories[qsizetype(r)]);
        const QColor c = argb(table.colors[r]);
        b->setBrush(c);
        b->setPen(QPen(c.darker(130), 0.8));
        b->setWidth(0.6);
        b->setStackingGap(0);
        b->setSelectable(QCP::stNone);
        QVector<double> values;
        for (std::size_t bar = 0; bar < bars; ++bar)
            values.append(scaled(table.time[r][bar]));
        b->setData(keys, values, true);
        stack[r] = b;
    }
    for (std::size_t r = 1; r < stack.size(); ++r)
        stack[r]->moveAbove(stack[r - 1]);
}

void CategoryChart::setUpAxes(TimeNs maxTotal)
{
    const CategoryTable& table = m_table;
    const std::size_t bars = std::size_t(table.bars.size());
    QCPAxis* const barAxis = this->barAxis();
    QCPAxis* const timeAxis = this->timeAxis();
    // Horizontal labels are shortened to a third of what the legend leaves: what all bars share is dropped first (as
    // Compare's headers do), then the middle. The full names are in the tooltip and the table.
    const QFontMetrics metrics(barAxis->tickLabelFont());
    const int room = labelRoom();
    m_labelRoomBuilt = room;
    const bool shorten = m_horizontal && !m_exporting; // a picture has no tooltip to give the whole name
    const QStringList labels = shorten
        ? compactProfileLabels(table.bars, std::max(8, room / std::max(1, metrics.averageCharWidth())))
        : table.bars;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t b = 0; b < bars; ++b)
        ticker->addTick(
            double(b + 1), metrics.elidedText(labels[qsizetype(b)], Qt::ElideMiddle, shorten ? room : QWIDGETSIZE_MAX));
    barAxis->setTicker(ticker);
    barAxis->setTickLabelRotation(0);
    barAxis->grid()->setVisible(false);
    barAxis->setTickLength(0, 0);
    barAxis->setSubTickLength(0, 0);
    barAxis->setLabel(QString());
    barAxis->setRange(0.4, double(bars) + 0.6);
    barAxis->setRangeReversed(m_horizontal); // the first bar on top, as in the table
    timeAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    timeAxis->grid()->setVisible(true);
    timeAxis->grid()->setSubGridVisible(false);
    timeAxis->setTickLength(0, 5);
    timeAxis->setSubTickLength(0, 2);
    timeAxis->setRangeReversed(false);
    timeAxis->setLabel(tr("time [%1] (%2)").arg(timeModeName(table.mode), m_unit));
    // Up to the longest bar; fitTimeRange() adds the room its total label needs once the axis' length is known.
    timeAxis->setRange(0, maxTotal > 0 ? scaled(maxTotal) : 1);
}

void CategoryChart::showPlaceholder()
{
    const CategoryTable& table = m_table;
    const qsizetype bars = table.bars.size();
    m_placeholder = new QCPItemText(this);
    m_placeholder->setClipToAxisRect(false);
    m_placeholder->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_placeholder->position->setCoords(0.5, 0.5);
    m_placeholder->setPositionAlignment(Qt::AlignCenter);
    m_placeholder->setTextAlignment(Qt::AlignCenter);
    m_placeholder->setColor(QColor(90, 90, 90));
    m_placeholderText = bars == 0
        ? m_emptyText
        : tr("No kernel or memory time in %1.\nThe export has no CUDA kernels or memory operations%2, or "
             "the focus range holds none.")
              .arg(bars == 1 ? table.bars.front() : tr("any of the %1 bars").arg(bars),
                  table.cpuRow >= 0 ? tr(" (the CPU segment is empty too)") : QString());
    m_placeholder->setText(m_placeholderText); // wrapped to the plot's width once laid out
}

void CategoryChart::addValueLabels()
{
    const CategoryTable& table = m_table;
    for (std::size_t bar = 0; bar < std::size_t(table.bars.size()); ++bar) {
        TimeNs base = 0;
        for (std::size_t r = 0; r < table.rowCount(); ++r) {
            const TimeNs t = table.time[r][bar];
            if (t > 0) {
                auto* label = new QCPItemText(this);
                label->position->setCoords(at(double(bar + 1), scaled(base) + scaled(t) / 2));
                label->setText(number(scaled(t)));
                const QColor c = argb(table.colors[r]);
                label->setColor(c.lightness() < 140 ? Qt::white : Qt::black);
                label->setClipToAxisRect(true);
                m_segmentLabels.push_back({ label, scaled(t) });
            }
            base += t;
        }
        auto* total = new QCPItemText(this);
        total->position->setCoords(at(double(bar + 1), scaled(base)));
        total->setPositionAlignment(
            m_horizontal ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignHCenter | Qt::AlignBottom);
        // A bar with nothing in it says so (a profile without kernels beside others), rather than "0.00 ms".
        QString text = base > 0 ? number(scaled(base)) + QLatin1Char(' ') + m_unit : tr("no kernel or memory time");
        if (!table.barWarnings.value(qsizetype(bar)).isEmpty()) {
            text = QStringLiteral("⚠ ") + text;
            total->setColor(QColor(170, 80, 0));
        }
        total->setText(text);
        total->setPadding(m_horizontal ? QMargins(4, 0, 0, 0) : QMargins(0, 0, 0, 3));
        m_totalLabels.push_back({ total, scaled(base) });
    }
}

void CategoryChart::showLabelsThatFit()
{
    if (m_placeholder) {
        const QString text = wrapped(m_placeholderText, QFontMetrics(m_placeholder->font()), axisRect()->width() - 8);
        if (text != m_placeholder->text())
            m_placeholder->setText(text);
    }
    // Pixels along the time axis per unit, known only once laid out.
    const double perUnit = std::abs(timeAxis()->coordToPixel(1) - timeAxis()->coordToPixel(0));
    for (const auto& [label, length] : m_segmentLabels) {
        const QFontMetrics metrics(label->font());
        const double room = length * perUnit;
        const double needed = m_horizontal ? metrics.horizontalAdvance(label->text()) + 4 : metrics.height();
        label->setVisible(room >= needed);
    }
}

void CategoryChart::updateLayout()
{
    // Titles elided to the chart's width (a centred text element is otherwise cut at both ends in a narrow dock).
    const int room = std::max(60, viewport().width() - 12);
    for (auto [element, text] : { std::pair { m_title, &m_titleText }, std::pair { m_subtitle, &m_subtitleText } })
        element->setText(QFontMetrics(element->font()).elidedText(*text, Qt::ElideRight, room));
    QCustomPlot::updateLayout();
    fitTimeRange();
    fitTickCounts({ timeAxis() }, [this]() { QCustomPlot::updateLayout(); });
}

void CategoryChart::fitTimeRange()
{
    // Each bar's total is written beyond its end: the axis reaches far enough for the longest to be read whole. With
    // the axis L pixels long up to U, a label w pixels long after value v needs v + w·U/L <= U, so U >= v / (1 - w/L).
    QCPAxis* const axis = timeAxis();
    const double length = axis->orientation() == Qt::Horizontal ? axisRect()->width() : axisRect()->height();
    if (m_totalLabels.empty() || length <= 0)
        return;
    double upper = 0;
    for (const auto& [label, value] : m_totalLabels) {
        const QFontMetrics metrics(label->font());
        const QMargins pad = label->padding();
        const double extent = axis->orientation() == Qt::Horizontal
            ? metrics.horizontalAdvance(label->text()) + pad.left() + pad.right() + 4
            : metrics.height() + pad.top() + pad.bottom() + 2;
        const double share = std::min(extent / length, 0.8); // past that the label cannot fit at all
        upper = std::max({ upper, value * 1.04, value / (1.0 - share) });
    }
    if (upper > 0 && std::abs(upper - axis->range().upper) > 1e-9 * upper)
        axis->setRange(0, upper);
}

CategoryChart::Hit CategoryChart::hitTest(const QPointF& pos) const
{
    Hit hit;
    if (m_table.bars.isEmpty() || !axisRect()->rect().contains(pos.toPoint()))
        return hit;
    const double key = m_horizontal ? barAxis()->pixelToCoord(pos.y()) : barAxis()->pixelToCoord(pos.x());
    const int bar = int(std::lround(key)) - 1;
    if (bar < 0 || bar >= m_table.bars.size() || std::abs(key - double(bar + 1)) > 0.3)
        return hit;
    const double value = m_horizontal ? timeAxis()->pixelToCoord(pos.x()) : timeAxis()->pixelToCoord(pos.y());
    double base = 0;
    for (std::size_t r = 0; r < m_table.rowCount(); ++r) {
        const double h = scaled(m_table.time[r][std::size_t(bar)]);
        if (h > 0 && value >= base && value < base + h)
            return Hit { bar, int(r) };
        base += h;
    }
    return hit;
}

void CategoryChart::highlight(Hit hit)
{
    m_highlighted = hit;
    if (m_highlight) {
        removeItem(m_highlight);
        m_highlight = nullptr;
    }
    if (hit.bar >= 0 && hit.row >= 0) {
        TimeNs base = 0;
        for (int r = 0; r < hit.row; ++r)
            base += m_table.time[std::size_t(r)][std::size_t(hit.bar)];
        const TimeNs t = m_table.time[std::size_t(hit.row)][std::size_t(hit.bar)];
        m_highlight = new QCPItemRect(this);
        const QPointF a = at(hit.bar + 1 - 0.32, scaled(base + t));
        const QPointF b = at(hit.bar + 1 + 0.32, scaled(base));
        m_highlight->topLeft->setCoords(std::min(a.x(), b.x()), std::max(a.y(), b.y()));
        m_highlight->bottomRight->setCoords(std::max(a.x(), b.x()), std::min(a.y(), b.y()));
        m_highlight->setPen(QPen(Qt::black, 2));
        m_highlight->setBrush(Qt::NoBrush);
        markScreenOnly(m_highlight);
    }
    replot();
}

QString CategoryChart::describe(Hit hit) const
{
    if (hit.bar < 0 || hit.row < 0)
        return {};
    const std::size_t r = std::size_t(hit.row);
    const std::size_t b = std::size_t(hit.bar);
    QString text = tr("%1: %2 (%3 % of %4, %5)")
                       .arg(m_table.categories[hit.row], formatDuration(m_table.time[r][b]))
                       .arg(m_table.share(r, b), 0, 'f', 1)
                       .arg(m_table.bars[hit.bar], formatDuration(m_table.barTotal[b]));
    if (hit.row != m_table.cpuRow)
        text += tr("\n%1 instances · time mode %2")
                    .arg(withThousandsSeparators(m_table.instances[r][b]), timeModeName(m_table.mode));
    if (!m_table.barWarnings.value(hit.bar).isEmpty())
        text += QStringLiteral("\n⚠ ") + m_table.barWarnings[hit.bar];
    return text;
}

} // namespace nsw

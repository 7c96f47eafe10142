// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparechart.h"

#include "core/categories/categorybreakdown.h"
#include "core/compare/compareexport.h"
#include "widgets/common/legendentries.h"

#include <algorithm>
#include <cmath>

namespace nsw {

namespace {
constexpr std::uint32_t kOtherColor = 0xFFB4B4B4u;
constexpr std::uint32_t kOutsideColor = 0xFFDCDCDCu;

QColor argb(std::uint32_t c)
{
    return QColor::fromRgba(c);
}

/// Chart labels of keys, made unique ("gemm", "gemm ·2") when two keys shorten to the same text.
QStringList keyLabels(const QStringList& keys, CompareBy by, int max)
{
    QStringList out;
    std::map<QString, int> seen;
    for (const QString& k : keys) {
        QString label = compactKeyLabel(k, by, max);
        const int n = ++seen[label];
        if (n > 1)
            label += QStringLiteral(" ·%1").arg(n);
        out.append(label);
    }
    return out;
}

struct Unit
{
    double ns = 1;
    QString name;
};

Unit unitFor(double maxAbs, CompareNormalization n)
{
    const QString suffix = n == CompareNormalization::PerSecond ? QStringLiteral("/s")
        : n == CompareNormalization::PerIteration               ? QStringLiteral("/it")
        : n == CompareNormalization::PerInstance                ? QStringLiteral("/inst")
                                                                : QString();
    if (maxAbs >= 1e9)
        return { 1e9, QStringLiteral("s") + suffix };
    if (maxAbs >= 1e6)
        return { 1e6, QStringLiteral("ms") + suffix };
    if (maxAbs >= 1e3)
        return { 1e3, QStringLiteral("µs") + suffix };
    return { 1, QStringLiteral("ns") + suffix };
}

QString number(double v)
{
    const double a = std::fabs(v);
    return QString::number(v, 'f', a >= 100 ? 0 : (a >= 10 ? 1 : 2));
}

const std::uint32_t kProfilePalette[]
    = { 0xFF1F77B4u, 0xFFFF7F0Eu, 0xFF9467BDu, 0xFF8C564Bu, 0xFFE377C2u, 0xFF7F7F7Fu, 0xFFBCBD22u, 0xFF17BECFu };
} // namespace

CompareStack makeCompareStack(const Comparison& c, int maxSegments)
{
    CompareStack s;
    const std::size_t n = c.error.isEmpty() ? c.profileCount() : 0;
    if (n == 0)
        return s;
    std::vector<std::size_t> top;
    for (std::size_t r = 0; r < c.rows.size(); ++r)
        if (c.rows[r].topLevel)
            top.push_back(r);
    auto largest = [&](std::size_t r) {
        double m = 0;
        for (const CompareCell& cell : c.rows[r].cells)
            m = std::max(m, cell.total);
        return m;
    };
    std::stable_sort(top.begin(), top.end(), [&](std::size_t a, std::size_t b) { return largest(a) > largest(b); });
    const bool all = c.by == CompareBy::Category || top.size() <= std::size_t(maxSegments);
    const std::size_t shown = all ? top.size() : std::size_t(maxSegments);
    std::vector<double> rest(n, 0.0);
    std::vector<double> stacked(n, 0.0);
    for (std::size_t i = 0; i < top.size(); ++i) {
        const CompareRow& row = c.rows[top[i]];
        std::vector<double> v(n);
        for (std::size_t p = 0; p < n; ++p) {
            v[p] = row.cells[p].total;
            stacked[p] += v[p];
        }
        if (i < shown) {
            s.segments.append(row.key);
            s.keys.append(row.key);
            s.values.push_back(std::move(v));
        } else {
            for (std::size_t p = 0; p < n; ++p)
                rest[p] += v[p];
        }
    }
    s.colors = categoryColors(s.segments); // the stacked segments, in order: neighbours stay distinguishable
    if (!all) {
        s.segments.append(QStringLiteral("other"));
        s.keys.append(QString());
        s.colors.push_back(kOtherColor);
        s.values.push_back(rest);
    }
    if (c.by == CompareBy::Nvtx) {
        std::vector<double> outside(n);
        bool any = false;
        for (std::size_t p = 0; p < n; ++p) {
            outside[p] = std::max(0.0, c.totals.cells[p].total - stacked[p]);
            any |= outside[p] > 0;
        }
        if (any) {
            s.segments.append(QStringLiteral("(outside NVTX ranges)"));
            s.keys.append(QString());
            s.colors.push_back(kOutsideColor);
            s.values.push_back(std::move(outside));
        }
    }
    return s;
}

std::vector<std::size_t> topChanges(const Comparison& c, int count)
{
    std::vector<std::size_t> out;
    for (std::size_t r = 0; r < c.rows.size() && out.size() < std::size_t(count); ++r)
        if (c.rows[r].maxAbsDelta > 0)
            out.push_back(r); // rows come by |delta| already
    return out;
}

CompareChart::CompareChart(QWidget* parent)
    : Chart(parent)
    , m_title(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold)))
    , m_subtitle(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() - 1)))
    , m_stackRect(axisRect())
    , m_changeRect(new QCPAxisRect(this))
    , m_body(new QCPLayoutGrid)
    , m_legend(legend)
{
    setProperty("nswBackground", QBrush(Qt::white));
    plotLayout()->take(m_stackRect);
    plotLayout()->simplify();
    plotLayout()->addElement(0, 0, m_title);
    plotLayout()->addElement(1, 0, m_subtitle);
    m_subtitle->setTextColor(QColor(80, 80, 80));
    m_subtitle->setMargins(QMargins(0, 0, 0, 4));
    plotLayout()->addElement(2, 0, m_body);
    auto* stackWithLegend = new QCPLayoutGrid;
    m_body->addElement(0, 0, stackWithLegend);
    stackWithLegend->addElement(0, 0, m_stackRect);
    auto* side = new QCPLayoutGrid;
    stackWithLegend->addElement(0, 1, side);
    stackWithLegend->setColumnStretchFactor(0, 1);
    stackWithLegend->setColumnStretchFactor(1, 0.001);
    m_body->addElement(0, 1, m_changeRect); // Arrangement::SideBySide, until arrange() says otherwise
    m_body->setColumnStretchFactors({ 1.0, 1.0 });
    m_legend->setVisible(true);
    m_legend->setBorderPen(Qt::NoPen);
    m_legend->setSelectableParts(QCPLegend::spNone);
    m_legend->setRowSpacing(0);
    side->addElement(0, 0, m_legend);
    side->addElement(1, 0, new QCPLayoutElement(this));
    side->setRowStretchFactor(0, 0.001);
    side->setMargins(QMargins(0, 0, 8, 0));
    xAxis->grid()->setVisible(false);
    xAxis->setTickLength(0, 0);
    yAxis->grid()->setSubGridVisible(false);
    m_changeRect->axis(QCPAxis::atLeft)->grid()->setVisible(false);
    m_changeRect->axis(QCPAxis::atLeft)->setTickLength(0, 0);
    // A docked tab at 1366x768 is about 400 px wide: the chart fits it, not clipped. (In a short pane the Compare pane
    // leaves the chart out rather than squeezing it.)
    setMinimumSize(320, 220);
    arrange();
    connect(this, &QCustomPlot::plottableClick, this,
        [this](QCPAbstractPlottable* p, int dataIndex, QMouseEvent*) { onPlottableClick(p, dataIndex); });
}

void CompareChart::setExporting(bool exporting)
{
    if (exporting == m_exporting)
        return;
    m_exporting = exporting;
    if (const auto shown = m_shown)
        setComparison(shown->first, shown->second);
}

void CompareChart::setComparison(const Comparison& c, const QString& subtitle)
{
    m_shown.emplace(c, subtitle);
    clearPlottables();
    clearItems();
    m_segmentKey.clear();
    m_changeBars.clear();
    m_changeLegend = false;
    m_changeKeys.clear();
    m_stack = makeCompareStack(c);
    m_title->setText(tr("Compared by %1").arg(compareByName(c.by)));
    m_subtitleText = subtitle;
    const std::size_t n = c.error.isEmpty() ? c.profileCount() : 0;
    const QStringList profileLabels = compactProfileLabels(c.profiles, m_exporting ? 80 : 16);
    plotStacks(c, n, profileLabels);
    plotChanges(c, n, profileLabels);
    showChanges();
    fitChangeRange();
    fitStackRange();
}

double CompareChart::stackTotal(std::size_t profile) const
{
    double t = 0;
    for (const auto& v : m_stack.values)
        t += v[profile];
    return t;
}

// Left: one stacked bar per profile, its total above it.
void CompareChart::plotStacks(const Comparison& c, std::size_t n, const QStringList& profileLabels)
{
    double maxTotal = 0;
    for (std::size_t p = 0; p < n; ++p)
        maxTotal = std::max(maxTotal, stackTotal(p));
    const Unit unit = unitFor(maxTotal, c.normalization);
    QVector<double> positions;
    for (std::size_t p = 0; p < n; ++p)
        positions.append(double(p + 1));
    std::vector<QCPBars*> stackBars;
    const QStringList segmentLabels = keyLabels(m_stack.segments, c.by, 36);
    for (qsizetype i = 0; i < m_stack.segments.size(); ++i) {
        auto* bars = new QCPBars(xAxis, yAxis);
        bars->setName(m_stack.keys[i].isEmpty() ? m_stack.segments[i] : segmentLabels[i]);
        const QColor color = argb(m_stack.colors[std::size_t(i)]);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130), 0.8));
        bars->setWidth(0.6);
        bars->setStackingGap(0);
        bars->setSelectable(QCP::stNone);
        QVector<double> values;
        for (std::size_t p = 0; p < n; ++p)
            values.append(m_stack.values[std::size_t(i)][p] / unit.ns);
        bars->setData(positions, values, true);
        if (!stackBars.empty())
            bars->moveAbove(stackBars.back());
        stackBars.push_back(bars);
        m_segmentKey[bars] = m_stack.keys[i];
    }
    // The legend lists the top of the stack first.
    m_legend->clearItems();
    for (auto it = stackBars.rbegin(); it != stackBars.rend(); ++it)
        (*it)->addToLegend(m_legend);
    keepLegendInk(*m_legend);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t p = 0; p < n; ++p)
        ticker->addTick(
            double(p + 1), profileLabels[qsizetype(p)] + (p == c.baseline ? tr("\n(baseline)") : QString()));
    xAxis->setTicker(ticker);
    xAxis->setRange(0.4, double(n) + 0.6);
    yAxis->setLabel(tr("GPU time (%1)").arg(unit.name));
    m_stackTop = maxTotal / unit.ns;
    for (std::size_t p = 0; p < n; ++p) {
        const double t = stackTotal(p);
        auto* label = new QCPItemText(this);
        label->setClipAxisRect(m_stackRect);
        label->position->setAxes(xAxis, yAxis);
        label->position->setCoords(double(p + 1), t / unit.ns);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(number(t / unit.ns) + QLatin1Char(' ') + unit.name);
        label->setPadding(QMargins(0, 0, 0, 3));
    }
}

// Right: the largest changes, the largest on top; with one compared profile coloured by status and labelled with
// the percentage, with several one bar per compared profile.
void CompareChart::plotChanges(const Comparison& c, std::size_t n, const QStringList& profileLabels)
{
    QCPAxis* keyAxis = m_changeRect->axis(QCPAxis::atLeft);
    QCPAxis* valueAxis = m_changeRect->axis(QCPAxis::atBottom);
    const std::vector<std::size_t> changes = topChanges(c);
    double lo = 0, hi = 0;
    for (const std::size_t r : changes)
        for (std::size_t p = 0; p < n; ++p) {
            lo = std::min(lo, c.rows[r].delta[p]);
            hi = std::max(hi, c.rows[r].delta[p]);
        }
    const Unit deltaUnit = unitFor(std::max(std::fabs(lo), std::fabs(hi)), c.normalization);
    for (const std::size_t r : changes)
        m_changeKeys.append(c.rows[r].key);
    const QStringList changeLabels = keyLabels(m_changeKeys, c.by, 40);
    auto changeTicker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < changes.size(); ++i)
        changeTicker->addTick(double(changes.size() - i), changeLabels[qsizetype(i)]);
    keyAxis->setTicker(changeTicker);
    keyAxis->setRange(0.4, double(std::max<std::size_t>(changes.size(), 1)) + 0.6);
    valueAxis->setLabel(tr("change against %1 (%2)").arg(profileLabels.value(qsizetype(c.baseline)), deltaUnit.name));
    m_changeLo = lo / deltaUnit.ns;
    m_changeHi = hi / deltaUnit.ns;
    m_labelPixels = 0;
    std::vector<std::size_t> compared;
    for (std::size_t p = 0; p < n; ++p)
        if (p != c.baseline)
            compared.push_back(p);
    if (compared.size() == 1)
        plotChangesAgainstOne(c, changes, compared.front(), deltaUnit.ns);
    else if (compared.size() > 1)
        plotChangesOfEach(c, changes, compared, profileLabels, deltaUnit.ns);

    auto* zero = new QCPItemStraightLine(this);
    zero->setClipAxisRect(m_changeRect);
    zero->point1->setAxes(valueAxis, keyAxis);
    zero->point2->setAxes(valueAxis, keyAxis);
    zero->point1->setCoords(0, 0);
    zero->point2->setCoords(0, 1);
    zero->setPen(QPen(QColor(90, 90, 90), 1));
    if (changes.empty()) {
        auto* none = new QCPItemText(this);
        none->setClipAxisRect(m_changeRect);
        none->position->setType(QCPItemPosition::ptAxisRectRatio);
        none->position->setAxisRect(m_changeRect);
        none->position->setCoords(0.5, 0.5);
        none->setText(!c.error.isEmpty() ? c.error : n < 2 ? tr("Choose two profiles or more") : tr("No change"));
        none->setColor(QColor(110, 110, 110));
    }
}

QCPBars* CompareChart::addChangeBars(const QString& name, std::uint32_t color)
{
    auto* bars = new QCPBars(m_changeRect->axis(QCPAxis::atLeft), m_changeRect->axis(QCPAxis::atBottom));
    bars->setName(name);
    bars->setBrush(argb(color));
    bars->setPen(QPen(argb(color).darker(130), 0.8));
    bars->setSelectable(QCP::stNone);
    m_changeBars.insert(bars);
    return bars;
}

void CompareChart::plotChangesAgainstOne(
    const Comparison& c, const std::vector<std::size_t>& changes, std::size_t compared, double unitNs)
{
    // Coloured by status: within the threshold or the noise floor a change is grey.
    auto* more = addChangeBars(tr("more time"), 0xFFD62728u);
    auto* less = addChangeBars(tr("less time"), 0xFF2CA02Cu);
    auto* same = addChangeBars(tr("unchanged"), 0xFFAAAAAAu);
    for (QCPBars* b : { more, less, same }) {
        b->setWidth(0.7);
        b->removeFromLegend();
    }
    const std::size_t count = changes.size();
    for (std::size_t i = 0; i < count; ++i) {
        const CompareRow& row = c.rows[changes[i]];
        const double d = row.delta[compared];
        QCPBars* target = row.status[compared] == CompareStatus::Unchanged ? same : d >= 0 ? more : less;
        target->addData(double(count - i), d / unitNs);

        // The percentage sits on the other side of the zero line, where the row has no bar: never clipped.
        auto* label = new QCPItemText(this);
        label->setClipAxisRect(m_changeRect);
        label->position->setAxes(m_changeRect->axis(QCPAxis::atBottom), m_changeRect->axis(QCPAxis::atLeft));
        label->position->setCoords(0, double(count - i));
        label->setPositionAlignment((d >= 0 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
        label->setPadding(QMargins(4, 0, 4, 0));
        label->setText(formatComparePercent(row.deltaPercent[compared]));
        label->setColor(QColor(60, 60, 60));
        m_labelPixels = std::max(m_labelPixels, QFontMetrics(label->font()).horizontalAdvance(label->text()) + 10);
    }
}

void CompareChart::plotChangesOfEach(const Comparison& c, const std::vector<std::size_t>& changes,
    const std::vector<std::size_t>& compared, const QStringList& profileLabels, double unitNs)
{
    m_changeLegend = true;
    auto* group = new QCPBarsGroup(this);
    group->setSpacing(0);
    const std::size_t count = changes.size();
    for (std::size_t k = 0; k < compared.size(); ++k) {
        auto* bars = addChangeBars(
            tr("Δ %1").arg(profileLabels[qsizetype(compared[k])]), kProfilePalette[k % std::size(kProfilePalette)]);
        bars->setWidth(0.8 / double(compared.size()));
        bars->setBarsGroup(group);
        for (std::size_t i = 0; i < count; ++i)
            bars->addData(double(count - i), c.rows[changes[i]].delta[compared[k]] / unitNs);
    }
}

void CompareChart::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    arrange();
    fitChangeRange();
    fitStackRange();
}

void CompareChart::updateLayout()
{
    arrange();
    QCustomPlot::updateLayout();
}

void CompareChart::arrange()
{
    // Side by side the change bars need the width of their key labels beside the stack and its legend; below the
    // stack, the height of a dozen bars. A docked pane often has neither: the table under the chart has the changes.
    constexpr int kSideBySideWidth = 800;
    constexpr int kBelowHeight = 480;
    // The viewport: also the size of a PNG rendered at another size than the widget's.
    const QRect area = viewport();
    const Arrangement next = area.width() >= kSideBySideWidth ? Arrangement::SideBySide
        : area.height() >= kBelowHeight                       ? Arrangement::Below
                                                              : Arrangement::StackOnly;
    if (next == m_arrangement) {
        if (area.size() != m_shownFor)
            showChanges(); // the subtitle follows the size
        return;
    }
    m_arrangement = next;
    if (m_changeRect->layout())
        m_body->take(m_changeRect);
    m_body->simplify();
    if (next == Arrangement::SideBySide) {
        m_body->addElement(0, 1, m_changeRect);
        m_body->setColumnStretchFactors({ 1.0, 1.0 });
        m_body->setRowStretchFactors({ 1.0 });
    } else if (next == Arrangement::Below) {
        m_body->addElement(1, 0, m_changeRect);
        m_body->setColumnStretchFactors({ 1.0 });
        m_body->setRowStretchFactors({ 1.0, 1.0 });
    }
    showChanges();
}

void CompareChart::showChanges()
{
    // Out of the layout, the change rect and what is drawn on it are hidden (they would paint where they last were).
    const bool shown = m_arrangement != Arrangement::StackOnly;
    m_shownFor = viewport().size();
    m_changeRect->setVisible(shown);
    for (QCPAxis* axis : m_changeRect->axes())
        axis->setVisible(shown && (axis->axisType() == QCPAxis::atLeft || axis->axisType() == QCPAxis::atBottom));
    for (QCPAbstractPlottable* bars : m_changeBars) {
        bars->setVisible(shown);
        // Several compared profiles name their change bars ("Δ iteration 4") in the legend beside the stack.
        if (!shown)
            bars->removeFromLegend(m_legend);
        else if (m_changeLegend && !m_legend->hasItemWithPlottable(bars))
            bars->addToLegend(m_legend);
    }
    for (int i = 0; i < itemCount(); ++i)
        if (item(i)->clipAxisRect() == m_changeRect)
            item(i)->setVisible(shown);
    // One line each, elided in the middle (a baseline's path) rather than clipped at the chart's edge.
    const QFontMetrics metrics(m_subtitle->font());
    const int room = std::max(80, viewport().width() - 16);
    QString text = metrics.elidedText(m_subtitleText, Qt::ElideMiddle, room);
    // The note as a second line where the chart has the height for it (a short one would squeeze its title).
    if (!shown && !m_changeKeys.isEmpty() && viewport().height() >= 320)
        text += QLatin1Char('\n')
            + metrics.elidedText(
                tr("The largest changes are in the table (a wider pane charts them)."), Qt::ElideRight, room);
    m_subtitle->setText(text);
}

void CompareChart::fitChangeRange()
{
    // Tilt the profile names under the bars when they would not fit side by side.
    auto* ticker = dynamic_cast<QCPAxisTickerText*>(xAxis->ticker().data());
    int widest = 0;
    const QFontMetrics metrics(xAxis->tickLabelFont());
    if (ticker)
        for (const QString& label : ticker->ticks())
            for (const QString& line : label.split(QLatin1Char('\n')))
                widest = std::max(widest, metrics.horizontalAdvance(line));
    const int bars = ticker ? int(ticker->ticks().size()) : 0;
    const double room
        = bars > 0 ? 0.9 * double(m_stackRect->width() > 0 ? m_stackRect->width() : width() / 3) / bars : 1;
    xAxis->setTickLabelRotation(widest > room ? 25 : 0);
    // Lay out first: the axis rect's width depends on the tick labels, the range on that width.
    plotLayout()->update(QCPLayoutElement::upLayout);
    const double pixels = std::max(50, m_changeRect->width());
    const double data = std::max(m_changeHi - m_changeLo, 1e-9);
    // Labels go left of zero for growing rows and right of it for shrinking ones: reserve what each side needs.
    const double left = m_changeHi > 0 ? m_labelPixels : 0;
    const double right = m_changeLo < 0 ? m_labelPixels : 0;
    const double margin = 0.04 * pixels;
    const double usable = std::max(pixels - left - right - 2 * margin, 0.2 * pixels);
    const double perPixel = data / usable;
    m_changeRect->axis(QCPAxis::atBottom)
        ->setRange(std::min(0.0, m_changeLo) - (left + margin) * perPixel,
            std::max(0.0, m_changeHi) + (right + margin) * perPixel);
    replot(QCustomPlot::rpQueuedReplot);
}

void CompareChart::fitStackRange()
{
    // 12 % above the tallest stack, or the height of its label where the chart is short (the label was cut off).
    const double labelPixels = QFontMetrics(font()).height() + 6;
    const double pixels = std::max(40, m_stackRect->height());
    const double headroom = std::max(1.12, pixels / std::max(pixels - labelPixels, 0.5 * pixels));
    yAxis->setRange(0, m_stackTop > 0 ? m_stackTop * headroom : 1);
}

void CompareChart::onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex)
{
    if (const auto it = m_segmentKey.find(plottable); it != m_segmentKey.end()) {
        if (!it->second.isEmpty())
            Q_EMIT keyClicked(it->second);
        return;
    }
    if (!m_changeBars.count(plottable))
        return;
    auto* bars = static_cast<QCPBars*>(plottable);
    if (dataIndex < 0 || dataIndex >= bars->dataCount())
        return;
    const int rank = int(std::lround(double(m_changeKeys.size()) - bars->data()->at(dataIndex)->key));
    if (rank >= 0 && rank < m_changeKeys.size())
        Q_EMIT keyClicked(m_changeKeys[rank]);
}

} // namespace nsw

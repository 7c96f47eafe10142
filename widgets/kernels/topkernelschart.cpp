// SPDX-License-Identifier: GPL-3.0-or-later
#include "topkernelschart.h"

#include "core/util/timeformat.h"

namespace nsw {

namespace {
constexpr int kMaxLabelCharacters = 60;

QString shortened(const QString& name)
{
    if (name.size() <= kMaxLabelCharacters)
        return name;
    const int half = kMaxLabelCharacters / 2 - 1;
    return name.left(half) + QStringLiteral("…") + name.right(half);
}
} // namespace

TopKernelsChart::TopKernelsChart(QWidget* parent)
    : Chart(parent)
    , m_title(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold)))
    , m_bars(new QCPBars(yAxis, xAxis))
{
    setProperty("nswBackground", QBrush(Qt::white));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(QColor(118, 185, 0));
    m_bars->setWidth(0.7);
    xAxis->setLabel(QStringLiteral("GPU time (ms)"));
    yAxis->setRangeReversed(true); // the longest kernel on top
    yAxis->grid()->setVisible(false);
}

void TopKernelsChart::setKernels(const std::vector<TopKernel>& kernels, const QString& title)
{
    m_title->setText(title);
    QVector<double> keys;
    QVector<double> values;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double longest = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        keys << double(i);
        values << kernels[i].totalNs / 1e6;
        longest = std::max(longest, values.back());
        ticker->addTick(double(i), shortened(kernels[i].name));
    }
    m_bars->setData(keys, values, true);
    yAxis->setTicker(ticker);
    yAxis->setRange(-0.6, std::max<double>(kernels.size(), 1) - 0.4);
    xAxis->setRange(0, longest > 0 ? longest * 1.15 : 1);
    clearItems();
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        auto* label = new QCPItemText(this);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->position->setCoords(values[int(i)], keys[int(i)]);
        label->setText(
            QStringLiteral(" %1 (%2 %)").arg(formatDuration(kernels[i].totalNs)).arg(kernels[i].percent, 0, 'f', 1));
        label->setClipToAxisRect(false);
    }
    if (kernels.empty()) {
        auto* none = new QCPItemText(this);
        none->position->setType(QCPItemPosition::ptAxisRectRatio);
        none->position->setCoords(0.5, 0.5);
        none->setText(QStringLiteral("No CUDA kernels were traced"));
    }
    replot();
}

} // namespace nsw

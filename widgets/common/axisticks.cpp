// SPDX-License-Identifier: GPL-3.0-or-later
#include "axisticks.h"

#include <qcustomplot.h>

namespace nsw {

bool tickLabelsHaveRoom(const QCPAxis& axis)
{
    const QFontMetrics metrics(axis.tickLabelFont());
    const QVector<double> ticks = axis.tickVector();
    const QVector<QString> labels = axis.tickVectorLabels();
    for (qsizetype i = 1; i < ticks.size() && i < labels.size(); ++i) {
        const double gap = std::abs(axis.coordToPixel(ticks[i]) - axis.coordToPixel(ticks[i - 1]));
        const double needed = axis.orientation() == Qt::Horizontal
            ? (metrics.horizontalAdvance(labels[i]) + metrics.horizontalAdvance(labels[i - 1])) / 2.0
                + 2 * metrics.averageCharWidth()
            : 1.5 * metrics.height();
        if (gap < needed)
            return false;
    }
    return true;
}

void fitTickCounts(const std::vector<QCPAxis*>& axes, const std::function<void()>& layOut)
{
    constexpr int kDefault = 5;
    constexpr int kFewest = 2;
    for (QCPAxis* axis : axes)
        axis->ticker()->setTickCount(kDefault);
    layOut();
    for (int pass = kDefault; pass > kFewest; --pass) {
        bool changed = false;
        for (QCPAxis* axis : axes)
            if (axis->tickLabels() && axis->ticker()->tickCount() > kFewest && !tickLabelsHaveRoom(*axis)) {
                axis->ticker()->setTickCount(axis->ticker()->tickCount() - 1);
                changed = true;
            }
        if (!changed)
            return;
        layOut();
    }
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

namespace nsw {

/// Ticks of a seconds axis that stay readable anywhere on it: absolute ("12.5") near zero, and offsets from an origin
/// ("+0.2", "+0.4") once absolute labels would need more than six significant digits beyond the step (a recording
/// 1309077 s away from the capture start, or a millisecond in a long capture), where QCustomPlot's default would
/// print "1.30908·10⁶" under every tick. The origin is the first tick at or before the range's start; label the axis
/// with originText() so that the offsets mean something.
class SecondsTicker : public QCPAxisTicker
{
public:
    struct Origin
    {
        bool relative = false;
        double seconds = 0; ///< the "+0" of the labels when relative
        int decimals = 0; ///< of the labels
    };
    /// The labelling of @p range (what generate() will do for it).
    Origin originFor(const QCPRange& range);
    /// "1309077.2 s": the origin as the axis label should name it.
    static QString originText(const Origin& origin);

    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
        QVector<double>* subTicks, QVector<QString>* tickLabels) override;

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    Origin m_origin;
};

} // namespace nsw

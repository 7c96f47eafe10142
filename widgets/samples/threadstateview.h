// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/samples/samplestates.h"

#include <QWidget>

namespace nsw {

/// One row per thread (most samples first): across the selected time, the share of its samples that were running,
/// in an OS runtime call or waiting, as stacked colours per time bin; bins without samples stay blank. A legend on
/// top; a tooltip gives a bin's time and counts.
class ThreadStateView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kRowHeight = 22;
    static constexpr int kLabelWidth = 220;
    static constexpr int kLegendHeight = 22;

    explicit ThreadStateView(QWidget* parent = nullptr);

    void setBins(ProfilePtr profile, ThreadStateBins bins);
    const ThreadStateBins& bins() const { return m_bins; }
    /// How many bins the view wants for its width (one per 4 pixels).
    int wantedBins() const;
    static QColor colorOf(SampleActivity activity);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect binRect(int row, int bin) const;
    /// "60.110 s" on the session clock (the one every pane shows, issue 33).
    QString clockText(TimeNs timestamp) const;

    ProfilePtr m_profile;
    ThreadStateBins m_bins;
    TimeNs m_clockOrigin = 0;
};

} // namespace nsw

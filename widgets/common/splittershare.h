// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QSplitter;

namespace nsw {

/// Gives the first part of a two-part @p splitter a share of its length that depends on the length: @p shortPercent
/// below @p tallLength pixels (a docked pane under the timeline, where the first part's rows matter most),
/// @p tallPercent from it on (room for the second part too). Kept on every resize until the user drags the handle.
class SplitterShare : public QObject
{
    Q_OBJECT
public:
    SplitterShare(QSplitter* splitter, int shortPercent, int tallPercent, int tallLength);

    /// Gives the first part its share now: after a part was hidden and shown again, which QSplitter shows 0 long.
    void apply();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QSplitter* m_splitter;
    int m_shortPercent;
    int m_tallPercent;
    int m_tallLength;
    bool m_userMoved = false;
};

} // namespace nsw

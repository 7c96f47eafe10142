// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QToolButton;
class QWidget;

namespace nsw {

/// A pane's secondary controls, folded behind a checkable "Options" button while the pane is shorter than a number of
/// text lines (a docked tab at 1366x768), so that its table or chart keeps the room. The pane adds the button to its
/// controls and, on changed(), shows each secondary control when showsOptions() says so.
class OptionsFold : public QObject
{
    Q_OBJECT
public:
    /// Watches @p pane's height: compact below @p lines lines of its font.
    OptionsFold(QWidget* pane, int lines);

    QToolButton* button() const { return m_button; }
    bool isCompact() const { return m_compact; }
    /// The options show: the pane is tall enough, or the button is down.
    bool showsOptions() const;

Q_SIGNALS:
    /// Compact mode or the button changed.
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* m_pane;
    int m_lines;
    QToolButton* m_button;
    bool m_compact = false;
};

} // namespace nsw

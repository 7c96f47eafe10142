// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/samples/samplesexport.h"

#include <QWidget>
#include <memory>
#include <vector>

namespace nsw {

/// An icicle of the top-down tree: the outermost frames on top, each frame as wide as its total samples. A click
/// selects the frame's function and zooms into the frame (its ancestors stay on top, full width); Escape, Backspace
/// or a right click zooms back out one level. Frames whose function matches the search are drawn in magenta, the
/// others dimmed. Kernel-mode frames are red, unresolved ones grey. Deep stacks (10,000 frames) only make it tall:
/// it sits in a scroll area.
class FlameGraphView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kRowHeight = 18;

    explicit FlameGraphView(QWidget* parent = nullptr);

    /// @p rows: topDownRows() of @p samples samples (null: nothing).
    void setRows(ProfilePtr profile, std::shared_ptr<const std::vector<SampleTreeRow>> rows, qint64 samples);
    /// Case-insensitive substring of function names; empty: no search.
    void setSearch(const QString& text);
    /// Samples with a matching frame on their stack (each once), for the pane's status line.
    qint64 matchingSamples() const { return m_matching; }
    /// The frame the view is zoomed into (-1: the whole tree).
    int zoomRow() const { return m_zoom; }
    void zoomTo(int row);
    void zoomOut();
    /// The row drawn at @p pos, -1 for none.
    int rowAt(const QPoint& pos) const;
    /// Where row @p row is drawn (empty when it is not: outside the zoom, or narrower than a pixel).
    QRectF rowRect(int row) const;
    QSize sizeHint() const override;

Q_SIGNALS:
    /// A frame was clicked: its function (-1: the samples without a stack).
    void functionClicked(int function);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    void layOut();
    /// The depth at which row @p row is drawn under the current zoom (ancestors of the zoom frame on top).
    int drawDepth(int row) const;
    QColor colorOf(int row) const;

    ProfilePtr m_profile;
    std::shared_ptr<const std::vector<SampleTreeRow>> m_rows;
    qint64 m_samples = 0;
    std::vector<qint64> m_x; ///< per row: samples left of it (the x of its left edge, in samples)
    std::vector<int> m_end; ///< per row: one past its subtree in the preorder
    std::vector<char> m_match; ///< per row: its function matches the search
    std::vector<int> m_ancestors; ///< of the zoom frame, outermost first
    QString m_search;
    qint64 m_matching = 0;
    int m_zoom = -1;
    int m_maxDepth = 0;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>

class QAbstractItemView;
class QHeaderView;
class QTableView;
class QTreeView;

namespace nsw {

/// Keeps a docked table readable at any width (issue 33: at 1366x768 the Kernels pane showed Name and Time % only,
/// Statistics no name at all, Compare neither Δ nor status): the name column first on screen, then the key columns
/// in the order given, sized to their cells; the name gets what is left of the viewport (at least about 10
/// characters, in a tree 16 after the indentation of three levels; at most its widest cell), long names elided in the
/// middle (whole in the tooltip). The other columns follow, to be scrolled to. Laid out again when the model resets or
/// the view is resized.
class KeyColumns : public QObject
{
    Q_OBJECT
public:
    /// Owned by @p view, whose model is set: a reset of it lays the columns out again. Column numbers are the model's
    /// (logical) ones; -1 for @p nameColumn: no name column.
    KeyColumns(QTableView* view, int nameColumn, QList<int> keyColumns);
    /// The same for a tree (its first column holds the names, indented).
    KeyColumns(QTreeView* view, int nameColumn, QList<int> keyColumns);
    void setColumns(int nameColumn, QList<int> keyColumns);
    /// Lays the columns out now (the panes call it once their model is filled).
    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    KeyColumns(QAbstractItemView* view, QHeaderView* header, int nameColumn, QList<int> keyColumns);

    QAbstractItemView* m_view;
    QHeaderView* m_header;
    int m_name;
    QList<int> m_keys;
    int m_lastWidth = -1;
};

} // namespace nsw

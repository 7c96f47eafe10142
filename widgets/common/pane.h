// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

class QAbstractItemView;
class QCustomPlot;

namespace nsw {

class Workbench;

/// A dockable pane. The main window wraps each in a QDockWidget whose objectName is paneId() (stable, used by
/// the saved layout) and routes File → Export to the pane that last had focus.
class Pane : public QWidget
{
    Q_OBJECT
public:
    Pane(Workbench* workbench, QWidget* parent = nullptr);

    virtual QString paneId() const = 0;
    virtual QString title() const = 0;
    /// The table that File → Export → CSV writes (in view order), or nullptr.
    virtual QAbstractItemView* exportableView() const { return nullptr; }
    /// The chart that File → Export → PNG writes, or nullptr.
    virtual QCustomPlot* exportablePlot() const { return nullptr; }
    /// A file name stem for exports, e.g. "kernels-mfu_before".
    virtual QString exportBaseName() const;

protected:
    Workbench* workbench() const { return m_workbench; }

private:
    Workbench* m_workbench;
};

} // namespace nsw

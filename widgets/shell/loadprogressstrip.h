// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QWidget>
#include <functional>
#include <map>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;
class QVBoxLayout;

namespace nsw {

class LoadJob;

/// One row per running load: file name, progress bar, current stage ("Reading kernels 1.2M/4.0M"), elapsed time
/// and Cancel; and one per other long step (an export: BackgroundExports' tasks). Never modal: the window stays
/// usable. The window shows the strip while hasContent().
class LoadProgressStrip : public QWidget
{
    Q_OBJECT
public:
    explicit LoadProgressStrip(QWidget* parent = nullptr);
    void addJob(LoadJob* job);
    void removeJob(LoadJob* job);
    /// A row for task @p task ("Exporting kernels.csv", the file in its tooltip); Cancel calls @p cancel.
    void addTask(int task, const QString& title, const QString& target, std::function<void()> cancel);
    void setTaskProgress(int task, int permille, const QString& stage);
    void removeTask(int task);
    bool hasContent() const { return !m_rows.empty() || !m_tasks.empty(); }
    int rowCount() const { return int(m_rows.size() + m_tasks.size()); }
    /// The row of @p job or @p task (for tests: what a person sees), or nullptr.
    QWidget* rowOf(const LoadJob* job) const;
    QWidget* rowOfTask(int task) const;

Q_SIGNALS:
    /// Loads appeared or all ended (the window shows or hides the strip).
    void contentChanged(bool hasContent);

private:
    struct Row
    {
        QWidget* widget = nullptr;
        QLabel* stage = nullptr;
        QLabel* elapsed = nullptr;
        QProgressBar* bar = nullptr;
        QPushButton* cancel = nullptr;
        QElapsedTimer clock; ///< tasks; loads keep their own
    };
    /// The row's widgets: the title (rich text), a busy bar, the stage, the elapsed time and Cancel.
    Row makeRowWidgets(const QString& title, const QString& toolTip);
    Row makeRow(LoadJob* job);
    void showProgress(const Row& row, int permille, const QString& stage);
    void rowsChanged();
    void updateElapsed();

    QVBoxLayout* m_layout;
    QTimer* m_clock;
    std::map<LoadJob*, Row> m_rows;
    std::map<int, Row> m_tasks;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <map>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;
class QVBoxLayout;

namespace nsw {

class LoadJob;

/// One row per running load: file name, progress bar, current stage ("Reading kernels 1.2M/4.0M"), elapsed time
/// and Cancel. Never modal: the window stays usable. The window shows the strip while hasContent().
class LoadProgressStrip : public QWidget
{
    Q_OBJECT
public:
    explicit LoadProgressStrip(QWidget* parent = nullptr);
    void addJob(LoadJob* job);
    void removeJob(LoadJob* job);
    bool hasContent() const { return !m_rows.empty(); }
    int rowCount() const { return int(m_rows.size()); }
    /// The row of @p job (for tests: what a person sees), or nullptr.
    QWidget* rowOf(const LoadJob* job) const;

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
    };
    Row makeRow(LoadJob* job);
    void updateElapsed();

    QVBoxLayout* m_layout;
    QTimer* m_clock;
    std::map<LoadJob*, Row> m_rows;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <map>

class QVBoxLayout;

namespace nsw {

class LoadJob;

/// One row per running load: file, stage, progress bar and Cancel. Never modal: the window stays usable.
class LoadProgressStrip : public QWidget
{
    Q_OBJECT
public:
    explicit LoadProgressStrip(QWidget* parent = nullptr);
    void addJob(LoadJob* job);
    void removeJob(LoadJob* job);
    /// A failed load: the message (naming the file) stays until dismissed.
    void showError(const QString& message);
    QStringList errors() const;

private:
    QVBoxLayout* m_layout;
    void updateVisibility();
    std::map<LoadJob*, QWidget*> m_rows;
    std::vector<QWidget*> m_errors;
};

} // namespace nsw

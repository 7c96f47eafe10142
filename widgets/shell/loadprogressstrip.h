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
    bool hasContent() const { return !m_rows.empty() || !m_errors.empty(); }

Q_SIGNALS:
    /// Loads or errors appeared or all went away (the window shows or hides the strip's toolbar).
    void contentChanged(bool hasContent);

private:
    QVBoxLayout* m_layout;
    void updateVisibility();
    std::map<LoadJob*, QWidget*> m_rows;
    std::vector<QWidget*> m_errors;
};

} // namespace nsw

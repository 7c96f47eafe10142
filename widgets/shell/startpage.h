// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/shell/loaderrorbanners.h"

#include <QWidget>
#include <vector>

class QLabel;
class QListWidget;

namespace nsw {

/// Shown while no profile is open: open buttons, recent files and the failed loads not yet dismissed.
class StartPage : public QWidget
{
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);
    void setRecentFiles(const QStringList& files);
    void setErrors(const std::vector<LoadError>& errors);
    /// The failed loads as listed (for tests).
    QString errorText() const;

Q_SIGNALS:
    void openRequested();
    void fileRequested(const QString& path);

private:
    QListWidget* m_recent;
    QLabel* m_error;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QListWidget;

namespace nsw {

/// Shown while no profile is open: open buttons, recent files and the last load error.
class StartPage : public QWidget
{
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);
    void setRecentFiles(const QStringList& files);
    void setError(const QString& error);

Q_SIGNALS:
    void openRequested();
    void fileRequested(const QString& path);

private:
    QListWidget* m_recent;
    QLabel* m_error;
};

} // namespace nsw

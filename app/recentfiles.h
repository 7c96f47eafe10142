// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace nsw {

/// File → Open Recent: the files the user opened last, newest first, kept in the settings.
class RecentFiles : public QObject
{
    Q_OBJECT
public:
    /// Fills @p menu with the list (and keeps it filled).
    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

    QStringList files() const;
    /// Puts @p path first.
    void add(const QString& path);
    /// Refills the menu and says changed().
    void refresh();

Q_SIGNALS:
    void changed(const QStringList& files);
    void openRequested(const QString& path);

private:
    QMenu* m_menu;
};

} // namespace nsw

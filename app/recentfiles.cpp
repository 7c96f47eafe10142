// SPDX-License-Identifier: GPL-3.0-or-later
#include "recentfiles.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace nsw {

namespace {
const QString kRecentKey = QStringLiteral("recentFiles");
constexpr int kMaxRecent = 12;
} // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent)
    : QObject(parent)
    , m_menu(menu)
{ }

QStringList RecentFiles::files() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void RecentFiles::add(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    refresh();
}

void RecentFiles::refresh()
{
    const QStringList recent = files();
    Q_EMIT changed(recent);
    m_menu->clear();
    for (const QString& path : recent)
        m_menu->addAction(QFileInfo(path).fileName() + QStringLiteral("  (") + path + QLatin1Char(')'), this,
            [this, path]() { Q_EMIT openRequested(path); });
    m_menu->setEnabled(!recent.isEmpty());
    if (!recent.isEmpty()) {
        m_menu->addSeparator();
        m_menu->addAction(tr("Clear List"), this, [this]() {
            QSettings().remove(kRecentKey);
            refresh();
        });
    }
}

} // namespace nsw

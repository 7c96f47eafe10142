// SPDX-License-Identifier: GPL-3.0-or-later
#include "rankopener.h"

#include "app/mainwindow.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"

#include <QFileInfo>

namespace nsw {

RankOpener::RankOpener(MainWindow* window)
    : QObject(window)
    , m_window(window)
{
    connect(window, &MainWindow::loadEnded, this,
        [this](const QString& path, bool ok, const QString&) { onLoadEnded(path, ok); });
}

ProfileSession* RankOpener::sessionOf(const QString& absolutePath) const
{
    for (ProfileSession* session : m_window->workbench()->sessions())
        if (QFileInfo(session->path()).absoluteFilePath() == absolutePath)
            return session;
    return nullptr;
}

void RankOpener::open(const QString& exportPath, const FocusRange& range)
{
    const QString path = QFileInfo(exportPath).absoluteFilePath();
    if (ProfileSession* session = sessionOf(path); session && !m_pending.count(path)) {
        m_window->workbench()->setCurrent(session);
        session->setFocus(range);
        return;
    }
    m_pending[path] = range; // a click while it loads: the last one wins
    m_window->openFiles({ path });
}

void RankOpener::onLoadEnded(const QString& path, bool ok)
{
    const auto pending = m_pending.find(QFileInfo(path).absoluteFilePath());
    if (pending == m_pending.end())
        return;
    const FocusRange range = pending->second;
    m_pending.erase(pending);
    if (ProfileSession* session = ok ? sessionOf(QFileInfo(path).absoluteFilePath()) : nullptr) {
        m_window->workbench()->setCurrent(session);
        session->setFocus(range);
    }
}

} // namespace nsw

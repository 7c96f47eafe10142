// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionpane.h"

#include "core/session/profilesession.h"
#include "core/session/workbench.h"

namespace nsw {

SessionPane::SessionPane(Workbench* workbench, QString id, QString title, QWidget* parent)
    : Pane(workbench, std::move(id), std::move(title), parent)
{
    connect(workbench, &Workbench::currentChanged, this, &SessionPane::setSession);
    connect(workbench, &Workbench::sessionAboutToBeRemoved, this, [this](ProfileSession* s) {
        if (s == m_session)
            setSession(nullptr);
    });
    connect(workbench, &Workbench::focusChanged, this, [this](ProfileSession* s) {
        if (s == m_session)
            sessionFocusChanged();
    });
}

ProfileSession* SessionPane::session() const
{
    return m_session;
}

void SessionPane::showCurrentSession()
{
    setSession(workbench()->current());
}

void SessionPane::setSession(ProfileSession* session)
{
    m_session = session;
    sessionChanged(session);
}

void SessionPane::wholeProfileArrived(ProfileSession* session)
{
    if (session == m_session)
        wholeSessionArrived();
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/common/pane.h"

#include <QPointer>

namespace nsw {

/// A pane that shows the workbench's current profile: it follows the current profile, lets go of one being closed,
/// and hears the focus and the rest of a staged load of the profile it shows (not of the others).
class SessionPane : public Pane
{
    Q_OBJECT
public:
    SessionPane(Workbench* workbench, QString id, QString title, QWidget* parent = nullptr);

protected:
    /// The profile shown (null: none).
    ProfileSession* session() const;
    /// Shows the workbench's current profile: a subclass's constructor ends with it, once its widgets exist.
    void showCurrentSession();
    /// The profile shown is now @p session (null: none, e.g. the one shown is being closed).
    virtual void sessionChanged(ProfileSession* session) = 0;
    /// The focus of the profile shown changed. Panes that follow the focus recompute; the default ignores it.
    virtual void sessionFocusChanged() { }
    /// The profile shown holds the whole profile now (after a staged load); the default ignores it.
    virtual void wholeSessionArrived() { }

private:
    void wholeProfileArrived(ProfileSession* session) final;
    void setSession(ProfileSession* session);

    QPointer<ProfileSession> m_session;
};

} // namespace nsw

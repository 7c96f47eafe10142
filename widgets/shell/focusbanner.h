// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"

#include <QFrame>

namespace nsw {

class ElidedLabel;

/// The row under the toolbar that says what the panes show when the current profile is focused on a range:
/// "Focus: ProfilerStep#12 · 60.412 s – 60.824 s · 412 ms · 3.2 % of the capture", with Clear (Esc): times on the
/// session clock the timeline's ruler and every table count on. Hidden without a focus.
class FocusBanner : public QFrame
{
    Q_OBJECT
public:
    explicit FocusBanner(QWidget* parent = nullptr);
    /// Shows @p focus of a capture @p captureNs long (0 = unknown: no share), or nothing when it is inactive.
    /// @p clockOrigin: sessionClockOrigin() of the profile.
    void setFocusRange(const FocusRange& focus, TimeNs captureNs, TimeNs clockOrigin = 0);
    bool hasContent() const { return m_focus.isActive(); }
    /// The whole text (the row shows it elided to its width, whole in the tooltip).
    QString text() const;
    /// What the row shows.
    QString shownText() const;

Q_SIGNALS:
    void clearRequested();

private:
    FocusRange m_focus;
    ElidedLabel* m_text;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/capturespan.h"
#include "core/profile/focusrange.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace nsw {

/// View → Focus on Range…: a start and an end typed as `--range` takes them (60.2s, 350ms, 1200us, or whole
/// nanoseconds; on the session clock the timeline's ruler and every table show; an empty field is the capture's
/// start or end). Invalid input keeps the dialog open with the reason under the fields.
class FocusRangeDialog : public QDialog
{
    Q_OBJECT
public:
    /// @p current (when active) fills the fields; @p clockOrigin is sessionClockOrigin() of the profile.
    FocusRangeDialog(
        const CaptureSpan& capture, const FocusRange& current, TimeNs clockOrigin = 0, QWidget* parent = nullptr);

    /// The range typed, on the events' clock (valid once accepted).
    const FocusRange& range() const { return m_range; }
    QLineEdit* startEdit() const { return m_start; }
    QLineEdit* endEdit() const { return m_end; }
    QDialogButtonBox* buttons() const { return m_buttons; }
    /// The reason the input was refused ("" when it was not).
    QString errorText() const;
    bool isErrorShown() const;

    void accept() override;

private:
    /// Parses the fields into m_range; returns why they are refused, or "".
    QString parse();

    CaptureSpan m_capture;
    TimeNs m_origin = 0;
    FocusRange m_range;
    QLineEdit* m_start;
    QLineEdit* m_end;
    QLabel* m_error;
    QDialogButtonBox* m_buttons;
};

} // namespace nsw

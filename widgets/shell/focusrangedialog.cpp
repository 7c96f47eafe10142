// SPDX-License-Identifier: GPL-3.0-or-later
#include "focusrangedialog.h"

#include "core/focus/focusresolve.h"
#include "core/profile/sessionclock.h"
#include "core/util/timeformat.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace nsw {

namespace {
/// Exact nanoseconds written in seconds ("60.1604s", "0s"), which parseFocusTime reads back unchanged.
QString asSeconds(TimeNs ns)
{
    QString text = formatSeconds(ns, 9);
    text.chop(2); // " s"
    while (text.endsWith(QLatin1Char('0')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text + QStringLiteral("s");
}
} // namespace

FocusRangeDialog::FocusRangeDialog(
    const CaptureSpan& capture, const FocusRange& current, TimeNs clockOrigin, QWidget* parent)
    : QDialog(parent)
    , m_capture(capture)
    , m_origin(clockOrigin)
    , m_start(new QLineEdit(this))
    , m_end(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Focus on Range"));
    m_start->setPlaceholderText(tr("capture start"));
    m_end->setPlaceholderText(tr("capture end"));
    if (current.isActive()) {
        m_start->setText(asSeconds(current.start - clockOrigin));
        m_end->setText(asSeconds(current.end - clockOrigin));
    }
    const QString span = capture.source == CaptureSpanSource::None
        ? tr("no capture span")
        : tr("%1 (%2)").arg(captureSpanText(capture, clockOrigin), formatDuration(capture.durationNs()));
    auto* hint = new QLabel(tr("Times as the timeline's ruler shows them; %1. Type 60.2s, 350ms, 1200us or whole ns; "
                               "empty: the capture's start or end.")
                                .arg(span),
        this);
    hint->setWordWrap(true);
    hint->setObjectName(QStringLiteral("focusRangeHint"));
    // A word-wrapped label asks for little width: without a minimum the dialog opens a few words wide, its title cut.
    setMinimumWidth(fontMetrics().averageCharWidth() * 64);
    m_error->setObjectName(QStringLiteral("focusRangeError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #a00000;"));
    m_error->hide();

    auto* form = new QFormLayout;
    form->addRow(tr("&Start:"), m_start);
    form->addRow(tr("&End:"), m_end);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &FocusRangeDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &FocusRangeDialog::reject);
    // A corrected field takes the complaint away.
    for (QLineEdit* edit : { m_start, m_end })
        connect(edit, &QLineEdit::textEdited, m_error, &QLabel::hide);
}

QString FocusRangeDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

bool FocusRangeDialog::isErrorShown() const
{
    return m_error->isVisible();
}

QString FocusRangeDialog::parse()
{
    const QString start = m_start->text().trimmed(), end = m_end->text().trimmed();
    const auto notATime = [](const QString& field, const QString& text) {
        return tr("%1: '%2' is not a time. Type a number with a unit (1.2s, 350ms, 1200us, 5000ns) or whole "
                  "nanoseconds.")
            .arg(field, text);
    };
    if (!start.isEmpty() && !parseFocusTime(start))
        return notATime(tr("Start"), start);
    if (!end.isEmpty() && !parseFocusTime(end))
        return notATime(tr("End"), end);
    const Result<TypedRange> typed = parseTypedRange(start + QLatin1Char(':') + end);
    if (!typed)
        return tr("The end is before the start.");
    m_range = focusFromTyped(*typed, m_capture, m_origin);
    if (m_capture.source == CaptureSpanSource::None)
        return {};
    // A range outside the capture holds nothing: say where the capture is, on the clock the user typed on.
    const QString capture = captureSpanText(m_capture, m_origin);
    if (m_range.start >= m_capture.end)
        return tr("The start is after the end of the capture (%1).").arg(capture);
    if (m_range.end <= m_capture.start)
        return tr("The end is before the start of the capture (%1).").arg(capture);
    return {};
}

void FocusRangeDialog::accept()
{
    if (const QString error = parse(); !error.isEmpty()) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    m_error->hide();
    QDialog::accept();
}

} // namespace nsw

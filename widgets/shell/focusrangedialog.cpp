// SPDX-License-Identifier: GPL-3.0-or-later
#include "focusrangedialog.h"

#include "core/focus/focusresolve.h"
#include "core/util/timeformat.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace nsw {

namespace {
/// Exact nanoseconds written in milliseconds ("1200.5ms", "0ms"), which parseFocusTime reads back unchanged.
QString asMilliseconds(TimeNs ns)
{
    QString text = QString::number(double(ns) / 1e6, 'f', 6);
    while (text.endsWith(QLatin1Char('0')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text + QStringLiteral("ms");
}
} // namespace

FocusRangeDialog::FocusRangeDialog(const CaptureSpan& capture, const FocusRange& current, QWidget* parent)
    : QDialog(parent)
    , m_capture(capture)
    , m_start(new QLineEdit(this))
    , m_end(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Focus on Range"));
    const TimeNs origin = capture.source == CaptureSpanSource::None ? 0 : capture.start;
    m_start->setPlaceholderText(tr("capture start"));
    m_end->setPlaceholderText(tr("capture end"));
    if (current.isActive()) {
        m_start->setText(asMilliseconds(current.start - origin));
        m_end->setText(asMilliseconds(current.end - origin));
    }
    auto* hint = new QLabel(tr("Times from the capture start (%1 long): 1.2s, 350ms, 1200us, or whole nanoseconds. "
                               "An empty field is the capture's start or end.")
                                .arg(formatDuration(capture.durationNs())),
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
    const Result<RelativeRange> relative = parseRelativeRange(start + QLatin1Char(':') + end);
    if (!relative)
        return tr("The end is before the start.");
    if ((relative->start != kNoTime && relative->start < 0) || (relative->end != kNoTime && relative->end < 0))
        return tr("Times count from the capture start: they cannot be negative.");
    if (m_capture.source != CaptureSpanSource::None && relative->start != kNoTime
        && relative->start >= m_capture.durationNs())
        return tr("The start is after the end of the capture (%1).").arg(formatDuration(m_capture.durationNs()));
    m_range = focusFromRelative(*relative, m_capture);
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

// SPDX-License-Identifier: GPL-3.0-or-later
#include "optionsfold.h"

#include <QEvent>
#include <QToolButton>
#include <QWidget>

namespace nsw {

OptionsFold::OptionsFold(QWidget* pane, int lines)
    : QObject(pane)
    , m_pane(pane)
    , m_lines(lines)
    , m_button(new QToolButton(pane))
{
    m_button->setObjectName(QStringLiteral("options"));
    m_button->setText(tr("Options"));
    m_button->setCheckable(true);
    m_button->setVisible(false);
    connect(m_button, &QToolButton::toggled, this, &OptionsFold::changed);
    pane->installEventFilter(this);
}

bool OptionsFold::showsOptions() const
{
    return !m_compact || m_button->isChecked();
}

bool OptionsFold::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_pane && event->type() == QEvent::Resize) {
        const bool compact = m_pane->height() < m_lines * m_pane->fontMetrics().height();
        if (compact != m_compact) {
            m_compact = compact;
            m_button->setVisible(compact);
            Q_EMIT changed();
        }
    }
    return false;
}

} // namespace nsw

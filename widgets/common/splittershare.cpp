// SPDX-License-Identifier: GPL-3.0-or-later
#include "splittershare.h"

#include <QEvent>
#include <QSplitter>

namespace nsw {

SplitterShare::SplitterShare(QSplitter* splitter, int shortPercent, int tallPercent, int tallLength)
    : QObject(splitter)
    , m_splitter(splitter)
    , m_shortPercent(shortPercent)
    , m_tallPercent(tallPercent)
    , m_tallLength(tallLength)
{
    splitter->installEventFilter(this);
    connect(splitter, &QSplitter::splitterMoved, this, [this]() { m_userMoved = true; });
    apply();
}

bool SplitterShare::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_splitter && event->type() == QEvent::Resize && !m_userMoved)
        apply();
    return QObject::eventFilter(watched, event);
}

void SplitterShare::apply()
{
    const int length = m_splitter->orientation() == Qt::Vertical ? m_splitter->height() : m_splitter->width();
    const int percent = length < m_tallLength ? m_shortPercent : m_tallPercent;
    const int first = length * percent / 100;
    m_splitter->setSizes({ first, length - first });
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "elidedlabel.h"

#include <QFontMetrics>
#include <algorithm>

namespace nsw {

ElidedLabel::ElidedLabel(QWidget* parent)
    : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString& text)
{
    m_fullText = text;
    elide();
    updateGeometry();
}

QSize ElidedLabel::minimumSizeHint() const
{
    return { 0, QLabel::minimumSizeHint().height() };
}

QSize ElidedLabel::sizeHint() const
{
    // As wide as the whole text, up to 600 px: a layout gives it what the row has left, never more.
    const int wanted = fontMetrics().horizontalAdvance(m_fullText) + 2 * margin();
    return { std::min(wanted, 600), QLabel::sizeHint().height() };
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide()
{
    const QString shown = fontMetrics().elidedText(m_fullText, Qt::ElideRight, std::max(0, contentsRect().width()));
    setToolTip(shown == m_fullText ? QString() : m_fullText);
    QLabel::setText(shown);
}

} // namespace nsw

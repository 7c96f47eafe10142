// SPDX-License-Identifier: GPL-3.0-or-later
#include "docktitlebar.h"

#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace nsw {

namespace {
QToolButton* titleButton(QWidget* parent, QStyle::StandardPixmap icon, const QString& tip)
{
    auto* b = new QToolButton(parent);
    b->setIcon(parent->style()->standardIcon(icon, nullptr, parent));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    b->setFocusPolicy(Qt::NoFocus);
    const int side = parent->fontMetrics().height() + 2;
    b->setFixedSize(side, side);
    b->setIconSize(QSize(side - 6, side - 6));
    return b;
}
} // namespace

DockTitleBar::DockTitleBar(QDockWidget* dock)
    : QWidget(dock)
    , m_dock(dock)
    , m_title(new QLabel(dock->windowTitle(), this))
    , m_maximise(titleButton(this, QStyle::SP_TitleBarMaxButton, {}))
{
    setObjectName(QStringLiteral("dockTitleBar"));
    m_maximise->setObjectName(QStringLiteral("maximisePane"));
    auto* floatButton = titleButton(this, QStyle::SP_TitleBarNormalButton, tr("Float this pane in its own window"));
    auto* close
        = titleButton(this, QStyle::SP_TitleBarCloseButton, tr("Close this pane (its key or View shows it again)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 1, 2, 1);
    layout->setSpacing(1);
    layout->addWidget(m_title, 1);
    layout->addWidget(m_maximise);
    layout->addWidget(floatButton);
    layout->addWidget(close);
    setMaximised(false);
    connect(m_maximise, &QToolButton::clicked, this, &DockTitleBar::maximiseToggled);
    connect(floatButton, &QToolButton::clicked, dock, [dock]() { dock->setFloating(!dock->isFloating()); });
    connect(close, &QToolButton::clicked, dock, &QDockWidget::close);
    connect(dock, &QDockWidget::windowTitleChanged, m_title, &QLabel::setText);
}

void DockTitleBar::setMaximised(bool maximised)
{
    m_maximise->setIcon(style()->standardIcon(
        maximised ? QStyle::SP_TitleBarNormalButton : QStyle::SP_TitleBarMaxButton, nullptr, this));
    m_maximise->setToolTip(maximised ? tr("Restore the layout (Ctrl+M)") : tr("Maximise this pane (Ctrl+M)"));
}

} // namespace nsw

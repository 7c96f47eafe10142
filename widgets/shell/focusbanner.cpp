// SPDX-License-Identifier: GPL-3.0-or-later
#include "focusbanner.h"

#include "core/util/timeformat.h"
#include "widgets/common/elidedlabel.h"

#include <QHBoxLayout>
#include <QPushButton>

namespace nsw {

FocusBanner::FocusBanner(QWidget* parent)
    : QFrame(parent)
    , m_text(new ElidedLabel(this))
{
    setObjectName(QStringLiteral("focusBanner"));
    setStyleSheet(QStringLiteral("#focusBanner { background: #e8f0fe; border-bottom: 1px solid #9ab6e8; }"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 3, 8, 3);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_text, 1);
    auto* clear = new QPushButton(tr("Clear focus (Esc)"), this);
    clear->setObjectName(QStringLiteral("clearFocus"));
    layout->addWidget(clear);
    connect(clear, &QPushButton::clicked, this, &FocusBanner::clearRequested);
    hide();
}

void FocusBanner::setFocusRange(const FocusRange& focus, TimeNs captureNs, TimeNs clockOrigin)
{
    m_focus = focus;
    QString text;
    if (focus.isActive()) {
        // Where the focus lies, unless its label says it already (a range dragged on the ruler).
        const QString span = formatTimeSpan(focus.start - clockOrigin, focus.end - clockOrigin);
        const QString label = focus.label.isEmpty() ? tr("time range") : focus.label;
        text = tr("Focus: %1 · ").arg(label) + (label == span ? QString() : span + QStringLiteral(" · "))
            + formatDuration(focus.durationNs());
        if (captureNs > 0)
            text += tr(" · %1 % of the capture").arg(100.0 * double(focus.durationNs()) / double(captureNs), 0, 'f', 1);
        text += tr(" — the panes show only what overlaps this range");
    }
    m_text->setFullText(text);
}

QString FocusBanner::text() const
{
    return m_text->fullText();
}

QString FocusBanner::shownText() const
{
    return m_text->text();
}

} // namespace nsw

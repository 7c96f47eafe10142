// SPDX-License-Identifier: GPL-3.0-or-later
#include "pane.h"

#include "core/session/workbench.h"

#include <QDockWidget>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace nsw {

/// Covers its parent (following its size) with a message: what the pane waits for.
class WaitingOverlay : public QLabel
{
public:
    explicit WaitingOverlay(QWidget* parent)
        : QLabel(parent)
    {
        setObjectName(QStringLiteral("waitingOverlay"));
        setAlignment(Qt::AlignCenter);
        setWordWrap(true);
        setAutoFillBackground(true);
        setMargin(12);
        parent->installEventFilter(this);
        hide();
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == parentWidget() && event->type() == QEvent::Resize)
            setGeometry(parentWidget()->rect());
        return QLabel::eventFilter(watched, event);
    }
};

Pane::Pane(Workbench* workbench, QString id, QString title, QWidget* parent)
    : QWidget(parent)
    , m_workbench(workbench)
    , m_id(std::move(id))
    , m_title(std::move(title))
{
    connect(workbench, &Workbench::sessionCompleted, this, [this](ProfileSession* session) {
        if (session == m_waitingFor)
            waitForWholeProfile(nullptr);
        wholeProfileArrived(session);
    });
    connect(workbench, &Workbench::sessionAboutToBeRemoved, this, [this](ProfileSession* session) {
        if (session == m_waitingFor)
            waitForWholeProfile(nullptr);
    });
}

bool Pane::waitForWholeProfile(ProfileSession* session)
{
    if (m_waitingFor)
        disconnect(m_waitingFor, &ProfileSession::pendingStageChanged, this, nullptr);
    m_waitingFor = session && !session->isComplete() ? session : nullptr;
    if (!m_waitingFor) {
        if (m_waitingOverlay)
            m_waitingOverlay->hide();
        return false;
    }
    if (!m_waitingOverlay)
        m_waitingOverlay = new WaitingOverlay(this);
    connect(m_waitingFor, &ProfileSession::pendingStageChanged, this, &Pane::showWaitingText);
    showWaitingText();
    m_waitingOverlay->setGeometry(rect());
    m_waitingOverlay->show();
    m_waitingOverlay->raise();
    return true;
}

void Pane::showWaitingText()
{
    if (!m_waitingFor || !m_waitingOverlay)
        return;
    const QString stage = m_waitingFor->pendingStage();
    m_waitingOverlay->setText(tr("%1 is still loading: this pane waits for its CUDA API calls, NVTX ranges and OS "
                                 "runtime calls.\n%2\n\nThe Kernels and Statistics panes are ready.")
                                  .arg(m_waitingFor->displayName(), stage.isEmpty() ? tr("Reading…") : stage));
}

bool Pane::refreshWhenShown()
{
    m_refreshPending = !isShownToUser();
    if (!m_refreshPending)
        refresh();
    return !m_refreshPending;
}

bool Pane::isShownToUser() const
{
    if (!isVisible())
        return false;
    // Qt's own test (QDockWidget's visibilityChanged): a docked widget whose tab is not current sits above and left
    // of the window. (visibleRegion() is no test: a pane filled by an opaque child has none.)
    const auto* dock = qobject_cast<const QDockWidget*>(parentWidget());
    return !dock || dock->isFloating() || (dock->geometry().right() >= 0 && dock->geometry().bottom() >= 0);
}

void Pane::runPendingRefresh()
{
    if (m_refreshPending && isShownToUser()) {
        m_refreshPending = false;
        refresh();
    }
}

void Pane::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    runPendingRefresh();
}

bool Pane::event(QEvent* event)
{
    if (event->type() == QEvent::ParentChange)
        followDock();
    return QWidget::event(event);
}

void Pane::followDock()
{
    disconnect(m_dockShown);
    // A tab that becomes current sends its pane no show event: its dock says so.
    if (auto* dock = qobject_cast<QDockWidget*>(parentWidget()))
        m_dockShown = connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
            if (visible)
                runPendingRefresh();
        });
}

QString Pane::exportBaseName() const
{
    QString base = paneId();
    if (ProfileSession* s = m_workbench->current())
        base += QLatin1Char('-') + QFileInfo(s->path()).completeBaseName();
    return base;
}

void letSplitterGiveWay(QSplitter* splitter)
{
    splitter->setMinimumHeight(80); // below its parts' minimums: an explicit minimum replaces minimumSizeHint()
}

QWidget* boxWithHeader(QLabel* title, std::initializer_list<QWidget*> tools, QWidget* body, QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* header = new QHBoxLayout;
    header->addWidget(title, 1);
    for (QWidget* tool : tools)
        header->addWidget(tool);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(body, 1);
    return box;
}

QToolButton* menuButton(const QString& text, QMenu* menu, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setMenu(menu);
    button->setPopupMode(QToolButton::InstantPopup);
    return button;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QEvent>
#include <QObject>
#include <QWidget>
#include <functional>

namespace nsw {

/// Calls @p onResize after each resize of the watched widget (owned by it).
class ResizeWatcher : public QObject
{
public:
    ResizeWatcher(QWidget* watched, std::function<void()> onResize)
        : QObject(watched)
        , m_onResize(std::move(onResize))
    {
        watched->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Resize)
            m_onResize();
        return false;
    }

private:
    std::function<void()> m_onResize;
};

} // namespace nsw

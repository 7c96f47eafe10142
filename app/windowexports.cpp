// SPDX-License-Identifier: GPL-3.0-or-later
#include "windowexports.h"

#include "widgets/common/backgroundexport.h"
#include "widgets/shell/loadprogressstrip.h"

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>

namespace nsw {

BackgroundExports* attachBackgroundExports(QMainWindow* window, LoadProgressStrip* strip)
{
    auto* exports = new BackgroundExports(window);
    QObject::connect(exports, &BackgroundExports::taskStarted, strip,
        [strip, exports](int task, const QString& title, const QString& target) {
            strip->addTask(task,
                QObject::tr("%1 <b>%2</b>").arg(title.toHtmlEscaped(), QFileInfo(target).fileName().toHtmlEscaped()),
                target, [exports, task]() { exports->cancel(task); });
        });
    QObject::connect(exports, &BackgroundExports::taskProgress, strip, &LoadProgressStrip::setTaskProgress);
    QPointer<QMainWindow> guard(window);
    QObject::connect(exports, &BackgroundExports::taskEnded, strip,
        [strip, guard](int task, const QString& title, const QString& target, const QString& error) {
            strip->removeTask(task);
            if (!guard)
                return;
            if (error.isEmpty())
                guard->statusBar()->showMessage(
                    QObject::tr("%1: %2 written").arg(title, QDir::toNativeSeparators(target)), 8000);
            else if (error == QLatin1String("cancelled"))
                guard->statusBar()->showMessage(
                    QObject::tr("%1 cancelled: nothing written to %2").arg(title, QDir::toNativeSeparators(target)),
                    8000);
            else
                QMessageBox::warning(guard, title, error);
        });
    return exports;
}

} // namespace nsw

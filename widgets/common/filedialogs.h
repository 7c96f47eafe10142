// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace nsw {

/// The folder the last open dialog went to (QSettings "dialogs/lastFolder"), or the home folder when there is none
/// or it is gone.
QString lastDialogFolder();
/// Remembers the folder of @p path (a file's folder, or @p path itself when it is a folder) for open dialogs.
void rememberDialogFolder(const QString& path);
/// The folder saves start in: the last one a save went to while it is writable, else the home folder. Never the
/// folder the inputs were opened from (often read-only, and exports are never written next to): saves remember
/// their own ("dialogs/lastSaveFolder").
QString saveDialogFolder();
void rememberSaveFolder(const QString& path);
/// @p fileName in saveDialogFolder(): what a save dialog suggests.
QString suggestedSavePath(const QString& fileName);

/// The file dialogs of the window: they open in the last folder and remember the chosen one. Empty when cancelled.
QString askSaveFileName(QWidget* parent, const QString& caption, const QString& fileName, const QString& filter);
QString askOpenFileName(QWidget* parent, const QString& caption, const QString& filter);
QStringList askOpenFileNames(
    QWidget* parent, const QString& caption, const QString& filter, const QString& folder = {});
QString askExistingDirectory(QWidget* parent, const QString& caption);
/// A folder to write into (the report folder): starts in saveDialogFolder() and remembers the choice there.
QString askSaveDirectory(QWidget* parent, const QString& caption);

} // namespace nsw

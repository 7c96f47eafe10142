// SPDX-License-Identifier: GPL-3.0-or-later
#include "filedialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace nsw {

namespace {
const QString kLastFolderKey = QStringLiteral("dialogs/lastFolder");
const QString kLastSaveFolderKey = QStringLiteral("dialogs/lastSaveFolder");

QString folderOf(const QString& path)
{
    const QFileInfo info(path);
    return info.isDir() ? info.absoluteFilePath() : info.absolutePath();
}
} // namespace

QString lastDialogFolder()
{
    const QString folder = QSettings().value(kLastFolderKey).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberDialogFolder(const QString& path)
{
    if (path.isEmpty())
        return;
    QSettings().setValue(kLastFolderKey, folderOf(path));
}

QString saveDialogFolder()
{
    const QFileInfo folder(QSettings().value(kLastSaveFolderKey).toString());
    return folder.isDir() && folder.isWritable() ? folder.absoluteFilePath() : QDir::homePath();
}

void rememberSaveFolder(const QString& path)
{
    if (!path.isEmpty())
        QSettings().setValue(kLastSaveFolderKey, folderOf(path));
}

QString suggestedSavePath(const QString& fileName)
{
    return QDir(saveDialogFolder()).filePath(fileName);
}

QString askSaveFileName(QWidget* parent, const QString& caption, const QString& fileName, const QString& filter)
{
    const QString file = QFileDialog::getSaveFileName(parent, caption, suggestedSavePath(fileName), filter);
    rememberSaveFolder(file);
    return file;
}

QString askOpenFileName(QWidget* parent, const QString& caption, const QString& filter)
{
    const QString file = QFileDialog::getOpenFileName(parent, caption, lastDialogFolder(), filter);
    rememberDialogFolder(file);
    return file;
}

QStringList askOpenFileNames(QWidget* parent, const QString& caption, const QString& filter, const QString& folder)
{
    const QStringList files
        = QFileDialog::getOpenFileNames(parent, caption, folder.isEmpty() ? lastDialogFolder() : folder, filter);
    if (!files.isEmpty())
        rememberDialogFolder(files.front());
    return files;
}

QString askExistingDirectory(QWidget* parent, const QString& caption)
{
    const QString dir = QFileDialog::getExistingDirectory(parent, caption, lastDialogFolder());
    rememberDialogFolder(dir);
    return dir;
}

QString askSaveDirectory(QWidget* parent, const QString& caption)
{
    const QString dir = QFileDialog::getExistingDirectory(parent, caption, saveDialogFolder());
    rememberSaveFolder(dir);
    return dir;
}

} // namespace nsw

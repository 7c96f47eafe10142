// SPDX-License-Identifier: GPL-3.0-or-later
#include "filedialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace nsw {

namespace {
const QString kLastFolderKey = QStringLiteral("dialogs/lastFolder");
}

QString lastDialogFolder()
{
    const QString folder = QSettings().value(kLastFolderKey).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberDialogFolder(const QString& path)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    QSettings().setValue(kLastFolderKey, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString suggestedSavePath(const QString& fileName)
{
    return QDir(lastDialogFolder()).filePath(fileName);
}

QString askSaveFileName(QWidget* parent, const QString& caption, const QString& fileName, const QString& filter)
{
    const QString file = QFileDialog::getSaveFileName(parent, caption, suggestedSavePath(fileName), filter);
    rememberDialogFolder(file);
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

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "userfile.h"

#include <QFile>
#include <QFileInfo>

namespace nsw {

namespace {

QString tooBig(qint64 maxBytes)
{
    return QStringLiteral("larger than %1 MB, more than a rule file or a phase map holds: not read")
        .arg(maxBytes >> 20);
}

} // namespace

std::optional<QByteArray> readUserFile(const QString& path, QString* reason, qint64 maxBytes)
{
    auto fail = [reason](const QString& why) {
        if (reason)
            *reason = why;
        return std::nullopt;
    };
    const QFileInfo info(path);
    if (!info.exists())
        return fail(QStringLiteral("no such file"));
    if (!info.isFile())
        return fail(QStringLiteral("not a regular file"));
    if (info.size() > maxBytes)
        return fail(tooBig(maxBytes));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(file.errorString());
    QByteArray bytes = file.read(maxBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return fail(file.errorString());
    if (bytes.size() > maxBytes)
        return fail(tooBig(maxBytes));
    return bytes;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "userfile.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>

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
    // In pieces of about the file's size, not one read(maxBytes + 1): that allocates the whole limit up front (16 MB
    // for a rule file of a few KB), which fails when memory is short, as after a load that ran out of it.
    const qint64 piece = std::max<qint64>(info.size() + 1, 64 << 10);
    QByteArray bytes;
    while (bytes.size() <= maxBytes) {
        const QByteArray more = file.read(std::min<qint64>(piece, maxBytes + 1 - bytes.size()));
        if (file.error() != QFileDevice::NoError)
            return fail(file.errorString());
        if (more.isEmpty())
            break;
        bytes += more;
    }
    if (bytes.size() > maxBytes)
        return fail(tooBig(maxBytes));
    return bytes;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "procstatus.h"

#include <QFile>
#include <QString>

namespace nsw {

qint64 procStatusFieldKiB(const QByteArray& status, const QByteArray& name)
{
    const QByteArray prefix = name + ':';
    for (const QByteArray& line : status.split('\n'))
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

qint64 procStatusKiB(const QByteArray& name)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    return procStatusFieldKiB(status.readAll(), name);
}

} // namespace nsw

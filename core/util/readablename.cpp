// SPDX-License-Identifier: GPL-3.0-or-later
#include "readablename.h"

#include <QMap>
#include <QStringList>

namespace nsw {

QString readableName(const QString& identifier)
{
    static const QMap<QString, QString> words { { QStringLiteral("gpu"), QStringLiteral("GPU") },
        { QStringLiteral("cpu"), QStringLiteral("CPU") }, { QStringLiteral("nccl"), QStringLiteral("NCCL") },
        { QStringLiteral("nvtx"), QStringLiteral("NVTX") }, { QStringLiteral("api"), QStringLiteral("API") },
        { QStringLiteral("pid"), QStringLiteral("PID") }, { QStringLiteral("min"), QStringLiteral("minimum") },
        { QStringLiteral("max"), QStringLiteral("maximum") }, { QStringLiteral("mfu"), QStringLiteral("MFU") },
        { QStringLiteral("flops"), QStringLiteral("FLOPs") }, { QStringLiteral("tflops"), QStringLiteral("TFLOP/s") } };
    static const QStringList units { QStringLiteral("ns"), QStringLiteral("us"), QStringLiteral("ms"),
        QStringLiteral("pct") };
    QStringList parts = identifier.split(QLatin1Char('_'), Qt::SkipEmptyParts);
    if (parts.size() > 1 && units.contains(parts.last()))
        parts.removeLast();
    for (QString& p : parts)
        p = words.value(p, p);
    QString text = parts.join(QLatin1Char(' '));
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

} // namespace nsw

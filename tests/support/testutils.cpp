// SPDX-License-Identifier: GPL-3.0-or-later
#include "testutils.h"

#include <QCryptographicHash>
#include <QFile>
#include <cmath>

namespace nsw::test {

QStringList printModel(const QAbstractItemModel& model, const QModelIndex& parent, int depth)
{
    QStringList lines;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(parent); ++c)
            cells.append(model.index(r, c, parent).data().toString());
        lines.append(QString(depth * 2, QLatin1Char(' ')) + cells.join(QStringLiteral(" | ")));
        lines += printModel(model, model.index(r, 0, parent), depth + 1);
    }
    return lines;
}

QString sharedTracesDir()
{
#ifdef NSW_SHARED_TRACES
    const QString dir = QStringLiteral(NSW_SHARED_TRACES);
    if (QFileInfo(dir).isDir())
        return QFileInfo(dir).canonicalFilePath();
#endif
    return {};
}

QString sourceDir()
{
    return QStringLiteral(NSW_SOURCE_DIR);
}

QStringList sharedTraces()
{
    QStringList files;
    const QString dir = sharedTracesDir();
    if (dir.isEmpty())
        return files;
    const QFileInfoList entries = QDir(dir).entryInfoList({ QStringLiteral("*.sqlite") }, QDir::Files, QDir::Name);
    for (const QFileInfo& f : entries)
        files.append(f.absoluteFilePath());
    return files;
}

QString roundedText(double value)
{
    // value * 10 is exact in the 64-bit mantissa of x87 long double for any double, and so is adding 0.5 below 2^60.
    const long double scaled = std::fabs(static_cast<long double>(value) * 10.0L);
    const long double rounded = std::floor(scaled + 0.5L) / 10.0L;
    return QString::number(double(value < 0 ? -rounded : rounded), 'f', 1);
}

QByteArray fileHash(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    return hash.result().toHex();
}

QStringList folderListing(const QString& folder)
{
    QStringList entries;
    const QFileInfoList infos
        = QDir(folder).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    for (const QFileInfo& i : infos)
        entries.append(QStringLiteral("%1 %2").arg(i.fileName()).arg(i.size()));
    return entries;
}

} // namespace nsw::test

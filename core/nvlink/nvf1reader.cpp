// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvf1reader.h"

#include "core/nvlink/nvf1general.h"
#include "core/nvlink/nvf1regular.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace nsw {

using namespace nvf1;

namespace {

/// Both paths over one source of records: the fast one when the file keeps the recorder's layout, else the general one.
Nvf1ReadResult parseRecords(const QString& name, int gpu, const Nvf1Header& header, qint64 fileBytes,
    const RecordReader& read, const CancelToken& cancel)
{
    const int stride = header.stride();
    const qint64 records = (fileBytes - kNvf1HeaderBytes) / stride;
    const qint64 tail = (fileBytes - kNvf1HeaderBytes) - records * stride;
    RegularLayout layout;
    if (analyzeFirstPoll(read, stride, records, layout))
        if (auto rec = parseRegular(layout, stride, read, name, header, gpu, fileBytes, tail, cancel))
            return { std::move(rec), QString(), false };
    if (cancel.isCancelled())
        return { nullptr, QString(), true };
    return parseGeneral(name, gpu, header, fileBytes, records, tail, read, cancel);
}

} // namespace

int Nvf1Recording::linkCount() const
{
    std::vector<int> ids;
    for (const ThroughputSeries& s : links)
        ids.push_back(s.link);
    std::sort(ids.begin(), ids.end());
    return int(std::unique(ids.begin(), ids.end()) - ids.begin());
}

std::size_t Nvf1Recording::memoryBytes() const
{
    std::size_t n = sizeof(*this);
    std::vector<const void*> seen;
    for (const std::vector<ThroughputSeries>* list : { &links, &totals })
        for (const ThroughputSeries& s : *list) {
            n += s.memoryBytes() - s.time.memoryBytes();
            if (std::find(seen.begin(), seen.end(), s.time.storage()) == seen.end()) {
                seen.push_back(s.time.storage());
                n += s.time.memoryBytes();
            }
        }
    return n;
}

Nvf1ReadResult parseNvf1Bytes(const char* data, std::size_t size, const QString& name, int gpu)
{
    Nvf1ReadResult result;
    Nvf1Header header;
    const auto* bytes = reinterpret_cast<const unsigned char*>(data);
    result.error = checkHeader(bytes, qint64(size), name, header);
    if (!result.error.isEmpty())
        return result;
    const std::size_t stride = std::size_t(header.stride());
    const RecordReader read = [&](qint64 first, std::size_t count, unsigned char* out) {
        std::memcpy(out, bytes + kNvf1HeaderBytes + std::size_t(first) * stride, count * stride);
        return true;
    };
    return parseRecords(name, gpu, header, qint64(size), read, CancelToken::never());
}

Nvf1ReadResult readNvf1File(const QString& path, int gpu, const CancelToken& cancel)
{
    Nvf1ReadResult result;
    // Opening a FIFO blocks until a writer comes, and a device never ends: only regular files are recordings.
    if (const QFileInfo info(path); info.exists() && !info.isFile()) {
        result.error = QStringLiteral("%1: not a regular file").arg(path);
        return result;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        result.error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return result;
    }
    const qint64 size = file.size();
    unsigned char head[kNvf1HeaderBytes] = {};
    const qint64 got = file.read(reinterpret_cast<char*>(head), kNvf1HeaderBytes);
    Nvf1Header header;
    result.error = checkHeader(head, got < kNvf1HeaderBytes ? std::max<qint64>(got, 0) : size, path, header);
    if (!result.error.isEmpty())
        return result;
    const std::size_t stride = std::size_t(header.stride());
    const int fd = file.handle();
    // pread: the two threads of the fast path read their halves through one descriptor, in ~1 MiB blocks that stay
    // in cache while they are parsed.
    const RecordReader read = [&](qint64 first, std::size_t count, unsigned char* out) {
        std::size_t done = 0;
        const std::size_t want = count * stride;
        const off_t offset = off_t(kNvf1HeaderBytes) + off_t(first) * off_t(stride);
        while (done < want) {
            const ssize_t n = pread(fd, out + done, want - done, offset + off_t(done));
            if (n <= 0)
                return false;
            done += std::size_t(n);
        }
        return true;
    };
    result = parseRecords(path, gpu, header, size, read, cancel);
    if (!result.error.isEmpty() && !result.cancelled)
        result.error = QStringLiteral("%1: read error: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    return result;
}

QString checkNvf1Header(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    const QByteArray head = file.read(kNvf1HeaderBytes);
    Nvf1Header header;
    return checkHeader(reinterpret_cast<const unsigned char*>(head.constData()),
        head.size() < kNvf1HeaderBytes ? head.size() : file.size(), path, header);
}

} // namespace nsw

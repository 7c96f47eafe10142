// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportidentity.h"

#include "core/profilecache/checksum.h"

#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace nsw {

namespace {
Result<ExportIdentity> notCacheable(const QString& path, const QString& why)
{
    return Result<ExportIdentity>::failure(ErrorKind::Input, QStringLiteral("%1: %2").arg(path, why));
}

/// Closes a file descriptor when it goes out of scope.
struct FileDescriptor
{
    int fd = -1;
    ~FileDescriptor()
    {
        if (fd >= 0)
            ::close(fd);
    }
};
} // namespace

Result<ExportIdentity> ExportIdentity::of(const QString& path)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (canonical.isEmpty())
        return notCacheable(path, QStringLiteral("no such file"));
    for (const char* sidecar : { "-wal", "-journal" })
        if (QFileInfo::exists(canonical + QLatin1String(sidecar)))
            return notCacheable(path, QStringLiteral("has a %1 file beside it").arg(QLatin1String(sidecar)));
    // Non-blocking, so that a FIFO is refused instead of waited on.
    FileDescriptor file { ::open(QFile::encodeName(canonical).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC) };
    struct stat st
    { };
    if (file.fd < 0 || ::fstat(file.fd, &st) != 0)
        return notCacheable(path, QString::fromLocal8Bit(std::strerror(errno)));
    if (!S_ISREG(st.st_mode))
        return notCacheable(path, QStringLiteral("not a regular file"));
    ExportIdentity id;
    id.canonicalPath = canonical;
    id.size = std::int64_t(st.st_size);
    id.modifiedNs = std::int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    id.inode = std::uint64_t(st.st_ino);
    id.device = std::uint64_t(st.st_dev);
    std::vector<unsigned char> header(std::size_t(std::min<std::int64_t>(id.size, kHeaderBytes)));
    std::size_t read = 0;
    while (read < header.size()) {
        const ssize_t n = ::pread(file.fd, header.data() + read, header.size() - read, off_t(read));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return notCacheable(path, QStringLiteral("cannot read its header"));
        read += std::size_t(n);
    }
    if (header.size() >= 28)
        id.changeCounter = std::uint32_t(header[24]) << 24 | std::uint32_t(header[25]) << 16
            | std::uint32_t(header[26]) << 8 | std::uint32_t(header[27]);
    id.headerChecksum = Checksum::of(header.data(), header.size());
    return id;
}

} // namespace nsw

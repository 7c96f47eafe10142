// SPDX-License-Identifier: GPL-3.0-or-later
#include "cachefile.h"

#include "core/profilecache/checksum.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace nsw::cachefile {

namespace {

constexpr char kMagic[8] = { 'N', 'S', 'W', 'C', 'A', 'C', 'H', 'E' };
constexpr std::uint32_t kContainerVersion = 1;
constexpr std::uint64_t kByteOrder = 0x0102030405060708ULL;

struct RawHeader
{
    char magic[8];
    std::uint32_t containerVersion;
    std::uint32_t headerBytes;
    std::uint64_t byteOrder;
    std::uint64_t fileBytes;
    std::uint64_t directoryOffset;
    std::uint64_t directoryCount;
    std::uint64_t directoryChecksum;
    std::uint8_t reserved[64];
    std::uint64_t headerChecksum; ///< of every byte before it
};
static_assert(sizeof(RawHeader) == 128);

struct RawEntry
{
    char name[kMaxNameBytes + 1];
    std::uint64_t offset;
    std::uint64_t bytes;
    std::uint64_t checksum;
    std::uint32_t elementSize;
    std::uint32_t reserved;
};
static_assert(sizeof(RawEntry) == 96);

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

bool preadExact(int fd, void* data, std::size_t bytes, std::uint64_t offset)
{
    auto* p = static_cast<char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::pread(fd, p, bytes, off_t(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        bytes -= std::size_t(n);
        offset += std::uint64_t(n);
    }
    return true;
}

std::uint64_t headerChecksumOf(const RawHeader& h)
{
    return Checksum::of(&h, offsetof(RawHeader, headerChecksum));
}

std::atomic<unsigned> g_tempCounter { 0 };

template <typename T> bool allWithin(const char* data, std::size_t count, std::int64_t min, std::int64_t max)
{
    const T* values = reinterpret_cast<const T*>(data);
    bool ok = true;
    for (std::size_t i = 0; i < count; ++i)
        ok &= std::int64_t(values[i]) >= min && std::int64_t(values[i]) <= max;
    return ok;
}

bool valuesPass(const ValueCheck& check, const char* data, std::size_t bytes)
{
    switch (check.type) {
    case ValueCheck::Type::Int16:
        return allWithin<std::int16_t>(data, bytes / 2, check.min, check.max);
    case ValueCheck::Type::Int32:
        return allWithin<std::int32_t>(data, bytes / 4, check.min, check.max);
    case ValueCheck::Type::UInt32:
        return allWithin<std::uint32_t>(data, bytes / 4, check.min, check.max);
    case ValueCheck::Type::UInt16PlusOne:
        return allWithin<std::uint16_t>(data, bytes / 2, check.min + 1, check.max + 1);
    case ValueCheck::Type::UInt8PlusOne:
        return allWithin<std::uint8_t>(data, bytes, check.min + 1, check.max + 1);
    }
    return false;
}

std::size_t elementSizeOf(ValueCheck::Type type)
{
    if (type == ValueCheck::Type::UInt8PlusOne)
        return 1;
    return type == ValueCheck::Type::Int16 || type == ValueCheck::Type::UInt16PlusOne ? 2 : 4;
}

} // namespace

// ---------------------------------------------------------------------------------------------------------- Writer

Writer::~Writer()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (!m_committed && !m_tempPath.isEmpty())
        ::unlink(QFile::encodeName(m_tempPath).constData());
}

Result<std::unique_ptr<Writer>> Writer::create(const QString& finalPath)
{
    std::unique_ptr<Writer> w(new Writer);
    w->m_finalPath = finalPath;
    w->m_tempPath = QStringLiteral("%1.tmp-%2-%3")
                        .arg(finalPath)
                        .arg(::getpid())
                        .arg(g_tempCounter.fetch_add(1, std::memory_order_relaxed));
    w->m_fd = ::open(QFile::encodeName(w->m_tempPath).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (w->m_fd < 0) {
        const QString error = QStringLiteral("cannot create %1: %2").arg(w->m_tempPath, systemError());
        w->m_tempPath.clear();
        return Result<std::unique_ptr<Writer>>::failure(ErrorKind::Input, error);
    }
    const RawHeader placeholder {};
    if (!w->writeAt(&placeholder, sizeof placeholder, 0))
        return Result<std::unique_ptr<Writer>>::failure(ErrorKind::Input, w->error());
    w->m_offset = sizeof(RawHeader);
    return w;
}

bool Writer::fail(const QString& what)
{
    if (m_error.isEmpty())
        m_error = QStringLiteral("cannot write %1: %2").arg(m_tempPath, what);
    return false;
}

bool Writer::writeAt(const void* data, std::size_t bytes, std::uint64_t offset)
{
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::pwrite(m_fd, p, std::min<std::size_t>(bytes, 1 << 30), off_t(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail(n < 0 ? systemError() : QStringLiteral("nothing written"));
        p += n;
        bytes -= std::size_t(n);
        offset += std::uint64_t(n);
    }
    return true;
}

bool Writer::startSection(const QByteArray& name, std::uint64_t bytes, std::uint32_t elementSize)
{
    if (!m_error.isEmpty())
        return false;
    if (name.isEmpty() || std::size_t(name.size()) > kMaxNameBytes || m_sections.size() >= kMaxSections
        || elementSize == 0 || bytes % elementSize != 0)
        return fail(QStringLiteral("bad section %1").arg(QString::fromLatin1(name)));
    m_offset = (m_offset + kAlignment - 1) / kAlignment * kAlignment;
    return true;
}

bool Writer::add(const QByteArray& name, const void* data, std::size_t bytes, std::uint32_t elementSize)
{
    if (!startSection(name, bytes, elementSize) || (bytes > 0 && !writeAt(data, bytes, m_offset)))
        return false;
    m_sections.push_back({ name, m_offset, bytes, Checksum::of(data, bytes), elementSize });
    m_offset += bytes;
    return true;
}

bool Writer::add(const QByteArray& name, std::uint64_t bytes, std::uint32_t elementSize, const Fill& fill)
{
    if (!startSection(name, bytes, elementSize))
        return false;
    // A multiple of every element size (as the reader's chunks), so that fill never splits a value.
    std::vector<char> buffer(std::size_t(std::min<std::uint64_t>(bytes, std::uint64_t(4) << 20)));
    Checksum sum;
    for (std::uint64_t done = 0; done < bytes;) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(buffer.size(), bytes - done));
        fill(done, buffer.data(), n);
        sum.add(buffer.data(), n);
        if (!writeAt(buffer.data(), n, m_offset + done))
            return false;
        done += n;
    }
    m_sections.push_back({ name, m_offset, bytes, sum.value(), elementSize });
    m_offset += bytes;
    return true;
}

Status Writer::commit()
{
    if (!m_error.isEmpty())
        return Status::failure(ErrorKind::Input, m_error);
    std::vector<RawEntry> directory(m_sections.size());
    for (std::size_t i = 0; i < m_sections.size(); ++i) {
        const Section& s = m_sections[i];
        RawEntry& e = directory[i];
        std::memset(&e, 0, sizeof e);
        std::memcpy(e.name, s.name.constData(), std::size_t(s.name.size()));
        e.offset = s.offset;
        e.bytes = s.bytes;
        e.checksum = s.checksum;
        e.elementSize = s.elementSize;
    }
    RawHeader header {};
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.containerVersion = kContainerVersion;
    header.headerBytes = sizeof(RawHeader);
    header.byteOrder = kByteOrder;
    header.directoryOffset = m_offset;
    header.directoryCount = directory.size();
    header.directoryChecksum = Checksum::of(directory.data(), directory.size() * sizeof(RawEntry));
    header.fileBytes = m_offset + directory.size() * sizeof(RawEntry);
    header.headerChecksum = headerChecksumOf(header);
    if (!writeAt(directory.data(), directory.size() * sizeof(RawEntry), m_offset)
        || !writeAt(&header, sizeof header, 0))
        return Status::failure(ErrorKind::Input, m_error);
    m_offset = header.fileBytes;
    if (::close(std::exchange(m_fd, -1)) != 0) {
        fail(systemError());
        return Status::failure(ErrorKind::Input, m_error);
    }
    if (::rename(QFile::encodeName(m_tempPath).constData(), QFile::encodeName(m_finalPath).constData()) != 0) {
        fail(QStringLiteral("cannot rename it to %1: %2").arg(m_finalPath, systemError()));
        return Status::failure(ErrorKind::Input, m_error);
    }
    m_committed = true;
    return success();
}

// --------------------------------------------------------------------------------------------------------- Mapping

Mapping::~Mapping()
{
    if (m_base && m_bytes > 0)
        ::munmap(const_cast<void*>(m_base), m_bytes);
}

// ---------------------------------------------------------------------------------------------------------- Reader

Reader::~Reader()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

Result<std::unique_ptr<Reader>> Reader::failure(const QString& what) const
{
    return Result<std::unique_ptr<Reader>>::failure(ErrorKind::Input, QStringLiteral("%1: %2").arg(m_path, what));
}

Result<std::unique_ptr<Reader>> Reader::open(const QString& path)
{
    std::unique_ptr<Reader> r(new Reader);
    r->m_path = path;
    // O_NOFOLLOW: a symlink put in the cache (to a device, to another user's file) is refused; O_NONBLOCK: a FIFO
    // is refused by the regular-file check instead of being waited on.
    r->m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (r->m_fd < 0)
        return r->failure(errno == ELOOP ? QStringLiteral("is a symbolic link") : systemError());
    struct stat st
    { };
    if (::fstat(r->m_fd, &st) != 0)
        return r->failure(systemError());
    if (!S_ISREG(st.st_mode))
        return r->failure(QStringLiteral("not a regular file"));
    r->m_fileBytes = std::uint64_t(st.st_size);
    RawHeader h {};
    if (r->m_fileBytes < sizeof h || !preadExact(r->m_fd, &h, sizeof h, 0))
        return r->failure(QStringLiteral("shorter than a cache file's header"));
    if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
        return r->failure(QStringLiteral("not a profile cache file"));
    if (h.headerChecksum != headerChecksumOf(h))
        return r->failure(QStringLiteral("damaged header (checksum)"));
    if (h.containerVersion != kContainerVersion || h.headerBytes != sizeof h || h.byteOrder != kByteOrder)
        return r->failure(QStringLiteral("written by another version (container %1)").arg(h.containerVersion));
    if (h.fileBytes != r->m_fileBytes)
        return r->failure(QStringLiteral("%1 bytes where its header says %2 (cut short or grown)")
                              .arg(r->m_fileBytes)
                              .arg(h.fileBytes));
    if (h.directoryCount > kMaxSections || h.directoryOffset < sizeof h || h.directoryOffset > h.fileBytes
        || h.fileBytes - h.directoryOffset != h.directoryCount * sizeof(RawEntry))
        return r->failure(QStringLiteral("its directory is not where its header says"));
    std::vector<RawEntry> directory(h.directoryCount);
    if (!preadExact(r->m_fd, directory.data(), directory.size() * sizeof(RawEntry), h.directoryOffset))
        return r->failure(QStringLiteral("cannot read its directory"));
    if (Checksum::of(directory.data(), directory.size() * sizeof(RawEntry)) != h.directoryChecksum)
        return r->failure(QStringLiteral("damaged directory (checksum)"));
    for (const RawEntry& e : directory) {
        const std::size_t nameBytes = strnlen(e.name, sizeof e.name);
        if (nameBytes == 0 || nameBytes == sizeof e.name)
            return r->failure(QStringLiteral("a section without a proper name"));
        Section s { QByteArray(e.name, qsizetype(nameBytes)), e.offset, e.bytes, e.checksum, e.elementSize };
        const bool inside
            = s.offset >= sizeof h && s.offset <= h.directoryOffset && s.bytes <= h.directoryOffset - s.offset;
        if (!inside || s.offset % kAlignment != 0 || s.elementSize == 0 || s.elementSize > 4096
            || s.bytes % s.elementSize != 0)
            return r->failure(
                QStringLiteral("section %1 lies outside the file or is malformed").arg(QString::fromLatin1(s.name)));
        if (!r->m_sections.emplace(s.name, s).second)
            return r->failure(QStringLiteral("section %1 twice").arg(QString::fromLatin1(s.name)));
    }
    return r;
}

const Section* Reader::find(const QByteArray& name) const
{
    const auto it = m_sections.find(name);
    return it == m_sections.end() ? nullptr : &it->second;
}

Result<QByteArray> Reader::read(const QByteArray& name) const
{
    const Section* s = find(name);
    if (!s)
        return Result<QByteArray>::failure(
            ErrorKind::Input, QStringLiteral("%1: no section %2").arg(m_path, QString::fromLatin1(name)));
    if (s->bytes > (std::uint64_t(1) << 30))
        return Result<QByteArray>::failure(
            ErrorKind::Input, QStringLiteral("%1: section %2 is too large").arg(m_path, QString::fromLatin1(name)));
    QByteArray bytes(qsizetype(s->bytes), Qt::Uninitialized);
    if (!preadExact(m_fd, bytes.data(), std::size_t(s->bytes), s->offset)
        || Checksum::of(bytes.constData(), std::size_t(bytes.size())) != s->checksum)
        return Result<QByteArray>::failure(ErrorKind::Input,
            QStringLiteral("%1: damaged section %2 (checksum)").arg(m_path, QString::fromLatin1(name)));
    return bytes;
}

Status Reader::verifySection(
    const Section& s, const ValueCheck* check, std::vector<char>& buffer, const CancelToken& cancel) const
{
    const QString name = QString::fromLatin1(s.name);
    if (check && s.elementSize != elementSizeOf(check->type))
        return Status::failure(
            ErrorKind::Input, QStringLiteral("%1: section %2 has values of the wrong size").arg(m_path, name));
    Checksum sum;
    // A multiple of every element size, so that no value straddles two reads.
    const std::size_t chunk = buffer.size() / 4096 * 4096;
    for (std::uint64_t done = 0; done < s.bytes;) {
        if (cancel.isCancelled())
            return Status::cancelled();
        const std::size_t n = std::size_t(std::min<std::uint64_t>(chunk, s.bytes - done));
        if (!preadExact(m_fd, buffer.data(), n, s.offset + done))
            return Status::failure(ErrorKind::Input, QStringLiteral("%1: cannot read section %2").arg(m_path, name));
        sum.add(buffer.data(), n);
        const bool pass = !check
            || (check->custom ? check->custom(done / s.elementSize, buffer.data(), n / s.elementSize)
                              : valuesPass(*check, buffer.data(), n));
        if (!pass)
            return Status::failure(
                ErrorKind::Input, QStringLiteral("%1: section %2 holds an index out of range").arg(m_path, name));
        done += n;
    }
    if (sum.value() != s.checksum)
        return Status::failure(ErrorKind::Input, QStringLiteral("%1: damaged section %2 (checksum)").arg(m_path, name));
    return success();
}

Status Reader::verify(const std::map<QByteArray, ValueCheck>& checks, const CancelToken& cancel, int threads) const
{
    for (const auto& [name, check] : checks)
        if (!find(name))
            return Status::failure(
                ErrorKind::Input, QStringLiteral("%1: no section %2").arg(m_path, QString::fromLatin1(name)));
    std::vector<const Section*> queue;
    for (const auto& [name, s] : m_sections)
        queue.push_back(&s);
    // Largest first, so that the threads finish together.
    std::sort(queue.begin(), queue.end(), [](const Section* a, const Section* b) { return a->bytes > b->bytes; });
    std::atomic<std::size_t> next { 0 };
    std::mutex mutex;
    Status result = success();
    CancelToken stop = cancel.child();
    auto work = [&]() {
        std::vector<char> buffer(std::size_t(4) << 20);
        for (std::size_t i; !stop.isCancelled() && (i = next.fetch_add(1)) < queue.size();) {
            const auto check = checks.find(queue[i]->name);
            Status s = verifySection(*queue[i], check == checks.end() ? nullptr : &check->second, buffer, stop);
            if (!s) {
                const std::lock_guard lock(mutex);
                if (result)
                    result = s;
                stop.cancel();
            }
        }
    };
    std::vector<std::thread> pool;
    try {
        for (int t = 1; t < std::max(1, threads); ++t)
            pool.emplace_back(work);
    } catch (...) {
        // A thread that cannot start (no memory for its stack): the threads that did, and this one, do the work.
    }
    work();
    for (std::thread& t : pool)
        t.join();
    if (cancel.isCancelled())
        return Status::cancelled();
    return result;
}

Result<std::shared_ptr<const Mapping>> Reader::map() const
{
    void* base = ::mmap(nullptr, std::size_t(m_fileBytes), PROT_READ, MAP_SHARED, m_fd, 0);
    if (base == MAP_FAILED)
        return Result<std::shared_ptr<const Mapping>>::failure(
            ErrorKind::Input, QStringLiteral("%1: cannot map it: %2").arg(m_path, systemError()));
    return std::shared_ptr<const Mapping>(std::make_shared<Mapping>(base, std::size_t(m_fileBytes)));
}

} // namespace nsw::cachefile

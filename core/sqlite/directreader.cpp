// SPDX-License-Identifier: GPL-3.0-or-later
#include "directreader.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace nsw {

namespace {
constexpr std::size_t kAlignment = 4096; ///< what O_DIRECT asks of buffers, offsets and lengths

long ioSetup(aio_context_t* context)
{
    return ::syscall(SYS_io_setup, 1, context);
}

long ioSubmit(aio_context_t context, iocb* request)
{
    iocb* requests[1] = { request };
    return ::syscall(SYS_io_submit, context, 1, requests);
}

/// The result of the one read in flight: bytes read, or -errno.
long ioAwait(aio_context_t context)
{
    io_event event {};
    long got;
    while ((got = ::syscall(SYS_io_getevents, context, 1, 1, &event, nullptr)) < 0 && errno == EINTR) { }
    return got == 1 ? long(event.res) : -EIO;
}
} // namespace

std::unique_ptr<DirectReader> DirectReader::open(const char* path)
{
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_DIRECT);
    if (fd < 0)
        return nullptr;
    std::unique_ptr<DirectReader> reader(new DirectReader);
    reader->m_fd = fd;
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        return nullptr;
    reader->m_size = st.st_size;
    for (Block& block : reader->m_blocks) {
        void* buffer = nullptr;
        if (::posix_memalign(&buffer, kAlignment, std::size_t(kBlockBytes)) != 0)
            return nullptr;
        block.data = static_cast<char*>(buffer);
    }
    aio_context_t context = 0;
    if (ioSetup(&context) == 0) // refused by some sandboxes: then every block is read when it is needed
        reader->m_aio = context;
    return reader;
}

DirectReader::~DirectReader()
{
    if (m_inFlight)
        awaitReadAhead(); // the kernel writes into the buffer until then
    if (m_aio)
        ::syscall(SYS_io_destroy, aio_context_t(m_aio));
    for (Block& block : m_blocks)
        std::free(block.data);
    if (m_fd >= 0)
        ::close(m_fd);
}

DirectReader::Block* DirectReader::find(std::int64_t index)
{
    for (Block& block : m_blocks)
        if (block.index == index)
            return &block;
    return nullptr;
}

DirectReader::Block* DirectReader::leastRecentlyUsed(const Block* spare)
{
    Block* victim = nullptr;
    for (Block& block : m_blocks)
        if (&block != spare && !block.inFlight && (!victim || block.lastUse < victim->lastUse))
            victim = &block;
    return victim;
}

bool DirectReader::readNow(Block& block, std::int64_t index)
{
    block.index = -1;
    block.length = 0;
    const std::int64_t begin = index * kBlockBytes;
    const std::int64_t wanted = std::min(kBlockBytes, m_size - begin);
    while (block.length < wanted) {
        const ssize_t got
            = ::pread(m_fd, block.data + block.length, std::size_t(kBlockBytes - block.length), begin + block.length);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return false;
        block.length += got;
        // The end of the file (it may have shrunk), or a short read that left the next offset unaligned for O_DIRECT.
        if (got == 0 || got % std::int64_t(kAlignment) != 0)
            break;
    }
    block.index = index;
    return true;
}

void DirectReader::awaitReadAhead()
{
    const long got = ioAwait(aio_context_t(m_aio));
    m_inFlight->inFlight = false;
    if (got < 0)
        m_inFlight->index = -1; // read again, with its error, when it is needed
    else
        m_inFlight->length = got;
    m_inFlight = nullptr;
}

void DirectReader::readAhead(std::int64_t index, const Block* current)
{
    if (!m_aio || index * kBlockBytes >= m_size || find(index))
        return;
    if (m_inFlight) // read ahead for a scan that went elsewhere since: long done, and in the way
        awaitReadAhead();
    Block* target = leastRecentlyUsed(current);
    if (!target)
        return;
    iocb request {};
    request.aio_fildes = std::uint32_t(m_fd);
    request.aio_lio_opcode = IOCB_CMD_PREAD;
    request.aio_buf = std::uint64_t(reinterpret_cast<std::uintptr_t>(target->data));
    request.aio_nbytes = std::uint64_t(kBlockBytes);
    request.aio_offset = index * kBlockBytes;
    target->index = index;
    target->length = 0;
    target->inFlight = true;
    if (ioSubmit(aio_context_t(m_aio), &request) == 1) {
        m_inFlight = target;
        return;
    }
    target->index = -1;
    target->inFlight = false;
}

const DirectReader::Block* DirectReader::block(std::int64_t index)
{
    Block* found = find(index);
    if (found && found->inFlight)
        awaitReadAhead();
    if (!found || found->index != index) {
        found = leastRecentlyUsed(nullptr);
        if (!found || !readNow(*found, index))
            return nullptr;
    }
    found->lastUse = ++m_uses;
    // A scan going forward (the block before this one was read too): read the next one while this one is decoded.
    if (index > 0 && find(index - 1))
        readAhead(index + 1, found);
    return found;
}

DirectReader::Outcome DirectReader::read(char* out, int amount, std::int64_t offset)
{
    int filled = 0;
    while (filled < amount) {
        const std::int64_t at = offset + filled;
        const Block* held = at < m_size ? block(at / kBlockBytes) : nullptr;
        if (at < m_size && !held)
            return Outcome::Error;
        const std::int64_t n
            = held ? std::min<std::int64_t>(amount - filled, held->length - (at - held->index * kBlockBytes)) : 0;
        if (n <= 0) {
            std::memset(out + filled, 0, std::size_t(amount - filled));
            return Outcome::Short;
        }
        std::memcpy(out + filled, held->data + (at - held->index * kBlockBytes), std::size_t(n));
        filled += int(n);
    }
    return Outcome::Whole;
}

} // namespace nsw

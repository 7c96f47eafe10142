// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>

namespace nsw {

/// Reads a file around the page cache (O_DIRECT), a few MiB at a time into its own buffers, for a file larger than the
/// page cache can hold: read through it, each page from disk cost more CPU (allocating, then evicting, the cache's
/// page, and the copy) than SQLite's decoding of the page. While the reads go forward block after block, the next
/// block is read ahead asynchronously (Linux AIO), so the reading thread rarely waits for the disk.
/// One reader belongs to one thread at a time (one SQLite connection).
class DirectReader
{
public:
    /// Opens a regular, non-empty file; nullptr when it is not one or its file system refuses O_DIRECT (tmpfs).
    static std::unique_ptr<DirectReader> open(const char* path);
    ~DirectReader();
    DirectReader(const DirectReader&) = delete;
    DirectReader& operator=(const DirectReader&) = delete;

    /// The file's size when it was opened.
    std::int64_t size() const { return m_size; }

    enum class Outcome
    {
        Whole,
        Short, ///< the file ends (or ends now) before offset + amount: the rest of @p out is zeros
        Error,
    };
    Outcome read(char* out, int amount, std::int64_t offset);

    static constexpr std::int64_t kBlockBytes = std::int64_t(2) << 20;
    /// The block a scan reads, the one read ahead, and two for the pages elsewhere (the schema, a b-tree's interior
    /// pages before SQLite's own cache holds them, a second cursor). Each connection holds kBlocks * kBlockBytes.
    static constexpr int kBlocks = 4;

private:
    struct Block
    {
        char* data = nullptr;
        std::int64_t index = -1; ///< which block of the file it holds; -1 none
        std::int64_t length = 0; ///< bytes read: less than kBlockBytes at the end of the file
        std::uint64_t lastUse = 0;
        bool inFlight = false;
    };

    DirectReader() = default;
    Block* find(std::int64_t index);
    Block* leastRecentlyUsed(const Block* spare);
    const Block* block(std::int64_t index);
    bool readNow(Block& block, std::int64_t index);
    void readAhead(std::int64_t index, const Block* current);
    void awaitReadAhead();

    int m_fd = -1;
    std::int64_t m_size = 0;
    std::uint64_t m_uses = 0;
    unsigned long m_aio = 0; ///< aio_context_t, 0 when reading ahead is not possible
    Block* m_inFlight = nullptr;
    Block m_blocks[kBlocks];
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "packedrows.h"

#include "core/util/hugepages.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace nsw {

PackedRows::PackedRows(std::span<const std::uint32_t> values)
{
    pack(values, false);
}

PackedRows::PackedRows(std::vector<std::uint32_t>&& values)
{
    pack(values, true);
    std::vector<std::uint32_t>().swap(values);
}

void PackedRows::pack(std::span<const std::uint32_t> values, bool releasePacked)
{
    // Pages are given back 2 MiB at a time: fewer system calls, and a transparent huge page is given back whole.
    constexpr std::size_t kReleaseRows = (std::size_t(2) << 20) / sizeof(std::uint32_t);
    constexpr std::size_t kSpareBytes = sizeof(std::uint32_t) - 1;
    m_size = values.size();
    auto storage = std::make_shared<Storage>();
    std::vector<Block>& blocks = storage->blocks;
    blocks.reserve((values.size() + kBlockRows - 1) / kBlockRows);
    std::uint64_t bytes = 0;
    for (std::size_t b = 0; b < values.size(); b += kBlockRows) {
        const std::span<const std::uint32_t> block = values.subspan(b, std::min(kBlockRows, values.size() - b));
        const auto [least, most] = std::minmax_element(block.begin(), block.end());
        const std::uint32_t span = *most - *least;
        const std::uint32_t widthCode = span <= 0xFFu ? 0 : span <= 0xFFFFu ? 1 : 2;
        blocks.push_back({ widthCode == 2 ? 0u : *least, std::uint32_t(bytes) | widthCode });
        bytes += block.size() << widthCode;
        // Every block before the last is whole: its size keeps the next start a multiple of 4.
        if (bytes + kSpareBytes > std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("PackedRows: too many rows");
    }
    // Filled block by block, not resized first: a page of the packed bytes becomes resident only when written, as
    // the plain values' pages are given back.
    reserveHugePages(storage->bytes, bytes + (values.empty() ? 0 : kSpareBytes)); // tens of MB: 2 MiB faults
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const unsigned widthCode = blocks[b].start & kWidthMask;
        const std::uint32_t base = blocks[b].base;
        const std::size_t first = b * kBlockRows, last = std::min(values.size(), first + kBlockRows);
        std::vector<std::uint8_t>& bytesOut = storage->bytes;
        bytesOut.resize(bytesOut.size() + ((last - first) << widthCode));
        std::uint8_t* out = bytesOut.data() + (blocks[b].start & ~kWidthMask);
        for (std::size_t i = first; i < last; ++i, out += std::size_t(1) << widthCode) {
            const std::uint32_t offset = values[i] - base;
            std::memcpy(out, &offset, std::size_t(1) << widthCode); // little-endian: the low bytes
        }
        if (releasePacked && last % kReleaseRows == 0)
            releasePages(values.data() + (last - kReleaseRows), kReleaseRows * sizeof(std::uint32_t));
    }
    if (!values.empty())
        storage->bytes.resize(storage->bytes.size() + kSpareBytes, 0);
    m_blocks = storage->blocks.data();
    m_bytes = storage->bytes.data();
    m_storage = std::move(storage);
}

PackedRows PackedRows::plain(Column<std::uint32_t> values)
{
    PackedRows rows;
    rows.m_size = values.size();
    rows.m_plainValues = std::move(values);
    rows.m_plain = true;
    return rows;
}

void PackedRows::copyTo(std::size_t first, std::size_t count, std::uint32_t* out) const
{
    if (m_plain) {
        std::copy_n(m_plainValues.data() + first, count, out);
        return;
    }
    for (std::size_t i = 0; i < count; ++i)
        out[i] = (*this)[first + i];
}

std::size_t PackedRows::memoryBytes() const
{
    if (m_plain)
        return m_plainValues.capacity() * sizeof(std::uint32_t);
    return m_storage ? m_storage->blocks.capacity() * sizeof(Block) + m_storage->bytes.capacity() : 0;
}

} // namespace nsw

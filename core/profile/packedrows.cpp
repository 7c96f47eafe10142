// SPDX-License-Identifier: GPL-3.0-or-later
#include "packedrows.h"

#include "core/util/hugepages.h"

#include <algorithm>
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
    m_size = values.size();
    auto storage = std::make_shared<Storage>();
    std::vector<Block>& blocks = storage->blocks;
    blocks.reserve((values.size() + kBlockRows - 1) / kBlockRows);
    std::size_t words = 0;
    for (std::size_t b = 0; b < values.size(); b += kBlockRows) {
        const std::span<const std::uint32_t> block = values.subspan(b, std::min(kBlockRows, values.size() - b));
        const auto [least, most] = std::minmax_element(block.begin(), block.end());
        const bool narrow = *most - *least <= 0xFFFFu;
        blocks.push_back({ narrow ? *least : 0u, std::uint32_t(words) | (narrow ? 0u : kWide) });
        words += narrow ? block.size() : 2 * block.size();
    }
    // Word positions keep the top bit free: 2^31 words are 2^30 whole values, as many as a table row can name.
    if (words >= kWide)
        throw std::length_error("PackedRows: too many rows");
    // Filled block by block, not resized first: a page of the packed words becomes resident only when written, as
    // the plain values' pages are given back.
    reserveHugePages(storage->words, words); // tens of MB filled at once: 2 MiB faults, not 4 KiB ones
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const Block& block = blocks[b];
        const std::size_t first = b * kBlockRows, last = std::min(values.size(), first + kBlockRows);
        storage->words.resize(storage->words.size() + (block.start & kWide ? 2 : 1) * (last - first));
        std::uint16_t* out = storage->words.data() + (block.start & ~kWide);
        if (block.start & kWide)
            std::memcpy(out, values.data() + first, (last - first) * 4);
        else
            for (std::size_t i = first; i < last; ++i)
                out[i - first] = std::uint16_t(values[i] - block.base);
        if (releasePacked && last % kReleaseRows == 0)
            releasePages(values.data() + (last - kReleaseRows), kReleaseRows * sizeof(std::uint32_t));
    }
    m_blocks = storage->blocks.data();
    m_words = storage->words.data();
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
    return m_storage ? m_storage->blocks.capacity() * sizeof(Block) + m_storage->words.capacity() * 2 : 0;
}

} // namespace nsw

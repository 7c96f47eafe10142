// SPDX-License-Identifier: GPL-3.0-or-later
#include "packedrows.h"

#include "core/util/hugepages.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

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

/// The bases of a block's clusters, least first, when its values fall in at most 4 clusters each spanning less than
/// 16,384 (fewer clusters repeat the last base). Greedy from the least value: the fewest such clusters.
std::optional<std::array<std::uint32_t, 4>> PackedRows::clusterBases(std::span<const std::uint32_t> block)
{
    std::array<std::uint32_t, PackedRows::kBlockRows> sorted {};
    std::copy(block.begin(), block.end(), sorted.begin());
    std::sort(sorted.begin(), sorted.begin() + std::ptrdiff_t(block.size()));
    std::array<std::uint32_t, 4> bases {};
    std::size_t clusters = 0;
    for (std::size_t i = 0; i < block.size(); ++i) {
        if (clusters > 0 && sorted[i] - bases[clusters - 1] <= kClusterOffsetMask)
            continue;
        if (clusters == bases.size())
            return std::nullopt;
        bases[clusters++] = sorted[i];
    }
    std::fill(bases.begin() + std::ptrdiff_t(clusters), bases.end(), bases[clusters - 1]);
    return bases;
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
        std::uint32_t code = span <= 0xFFu ? 0 : span <= 0xFFFFu ? 1 : 2;
        if (code == 2 && clusterBases(block))
            code = kClustered;
        blocks.push_back({ code == 2 ? 0u : *least, std::uint32_t(bytes) | code });
        bytes += code == kClustered ? kClusterBasesBytes + 2 * block.size() : block.size() << code;
        // Every block before the last is whole: its size keeps the next start a multiple of 4.
        if (bytes + kSpareBytes > std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("PackedRows: too many rows");
    }
    // Filled block by block, not resized first: a page of the packed bytes becomes resident only when written, as
    // the plain values' pages are given back.
    reserveHugePages(storage->bytes, bytes + (values.empty() ? 0 : kSpareBytes)); // tens of MB: 2 MiB faults
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const std::size_t first = b * kBlockRows, last = std::min(values.size(), first + kBlockRows);
        const std::span<const std::uint32_t> block = values.subspan(first, last - first);
        const unsigned code = blocks[b].start & kCodeMask;
        std::vector<std::uint8_t>& out = storage->bytes;
        const std::size_t at = out.size();
        if (code == kClustered) {
            const std::array<std::uint32_t, 4> bases = *clusterBases(block);
            out.resize(at + kClusterBasesBytes + 2 * block.size());
            std::memcpy(out.data() + at, bases.data() + 1, kClusterBasesBytes);
            for (std::size_t i = 0; i < block.size(); ++i) {
                std::size_t cluster = bases.size() - 1;
                while (block[i] < bases[cluster])
                    --cluster;
                const auto v = std::uint16_t((cluster << kClusterOffsetBits) | (block[i] - bases[cluster]));
                std::memcpy(out.data() + at + kClusterBasesBytes + 2 * i, &v, sizeof v);
            }
        } else {
            const std::size_t width = std::size_t(1) << code;
            out.resize(at + block.size() * width);
            for (std::size_t i = 0; i < block.size(); ++i) {
                const std::uint32_t offset = block[i] - blocks[b].base;
                std::memcpy(out.data() + at + i * width, &offset, width); // little-endian: the low bytes
            }
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

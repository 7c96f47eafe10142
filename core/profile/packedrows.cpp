// SPDX-License-Identifier: GPL-3.0-or-later
#include "packedrows.h"

#include <algorithm>
#include <stdexcept>

namespace nsw {

PackedRows::PackedRows(std::span<const std::uint32_t> values)
    : m_size(values.size())
{
    const std::size_t blocks = (values.size() + kBlockRows - 1) / kBlockRows;
    m_blocks.reserve(blocks);
    std::size_t words = 0;
    for (std::size_t b = 0; b < values.size(); b += kBlockRows) {
        const std::span<const std::uint32_t> block = values.subspan(b, std::min(kBlockRows, values.size() - b));
        const auto [least, most] = std::minmax_element(block.begin(), block.end());
        const bool narrow = *most - *least <= 0xFFFFu;
        m_blocks.push_back({ narrow ? *least : 0u, std::uint32_t(words) | (narrow ? 0u : kWide) });
        words += narrow ? block.size() : 2 * block.size();
    }
    // Word positions keep the top bit free: 2^31 words are 2^30 whole values, as many as a table row can name.
    if (words >= kWide)
        throw std::length_error("PackedRows: too many rows");
    m_words.resize(words);
    for (std::size_t b = 0; b < blocks; ++b) {
        const Block& block = m_blocks[b];
        const std::size_t first = b * kBlockRows, last = std::min(values.size(), first + kBlockRows);
        if (block.start & kWide)
            std::memcpy(m_words.data() + (block.start & ~kWide), values.data() + first, (last - first) * 4);
        else
            for (std::size_t i = first; i < last; ++i)
                m_words[block.start + (i - first)] = std::uint16_t(values[i] - block.base);
    }
}

} // namespace nsw

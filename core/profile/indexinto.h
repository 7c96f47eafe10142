// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace nsw {

/// What the values of a column index, so that a profile cache file read back is checked before use
/// (core/profilecache): each value must be -1 or a row of that table.
enum class IndexInto : std::uint8_t
{
    Nothing,
    Strings,
    Processes,
    Threads,
    LaunchShapes,
    NvtxDomains,
    CudaApiCalls,
    CpuFunctions, ///< rows of CpuSamples::functions; never -1
};

} // namespace nsw

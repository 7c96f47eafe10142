// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>

namespace nsw {

/// Asks for transparent huge pages on memory about to be filled (Linux; a no-op elsewhere). Each fresh 4 KiB page
/// costs a page fault on first write, and faults are expensive (about 14 µs each in the virtual machines the
/// benchmarks run on): filling hundreds of MB costs more in faults than in the work itself. Only the whole 2 MiB
/// pages inside [data, data + bytes) are advised.
void adviseHugePages(const void* data, std::size_t bytes);

/// Gives the whole 4 KiB pages inside [data, data + bytes) back to the system (Linux; a no-op elsewhere): they read
/// as zero afterwards. For the part of a large buffer that has been read for the last time, while the rest is still
/// being read (a plain array packed into a smaller form), so that the two are not held whole at the same time.
void releasePages(const void* data, std::size_t bytes);

/// reserve() and adviseHugePages() on the reserved capacity, before anything is written to it.
template <typename Vector> void reserveHugePages(Vector& v, std::size_t n)
{
    v.reserve(n);
    adviseHugePages(v.data(), v.capacity() * sizeof(typename Vector::value_type));
}

/// reserveHugePages() on each of the columns of a table about to be filled with @p n rows.
template <typename... Vectors> void reserveAllHugePages(std::size_t n, Vectors&... columns)
{
    (reserveHugePages(columns, n), ...);
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "hugepages.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace nsw {

namespace {
/// madvise() on the whole @p alignment-sized pages inside [data, data + bytes), if any.
[[maybe_unused]] void adviseWholePages(const void* data, std::size_t bytes, std::uintptr_t alignment, int advice)
{
#if defined(__linux__)
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + alignment - 1) & ~(alignment - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(alignment - 1);
    if (end > begin)
        madvise(reinterpret_cast<void*>(begin), end - begin, advice);
#else
    (void)data;
    (void)bytes;
    (void)alignment;
    (void)advice;
#endif
}
} // namespace

void adviseHugePages(const void* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    adviseWholePages(data, bytes, std::uintptr_t(2) << 20, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

void releasePages(const void* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
    adviseWholePages(data, bytes, 4096, MADV_DONTNEED);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace nsw

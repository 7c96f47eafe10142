// SPDX-License-Identifier: GPL-3.0-or-later
#include "heaptuning.h"

#include <cstdlib> // defines __GLIBC__ on glibc
#include <mutex>

#if defined(__SANITIZE_ADDRESS__)
#define NSW_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSW_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef NSW_ADDRESS_SANITIZER
#define NSW_ADDRESS_SANITIZER 0
#endif

#ifdef __GLIBC__
#include <malloc.h>
#endif

// Neither under AddressSanitizer: its allocator replaces glibc's, whose arenas these would tune or walk.

namespace nsw {

void returnLargeBlocksToTheSystem()
{
#if defined(__GLIBC__) && !NSW_ADDRESS_SANITIZER
    static std::once_flag once;
    std::call_once(once, []() { mallopt(M_MMAP_THRESHOLD, 1 << 20); });
#endif
}

void trimHeap()
{
#if defined(__GLIBC__) && !NSW_ADDRESS_SANITIZER
    malloc_trim(0);
#endif
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/hugepages.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace nsw {

/// Allocator for large arrays filled once (NVLink samples, the timeline's tracks). Buffers of 2 MiB and more are
/// mapped 2 MiB-aligned with transparent huge pages requested: filling a 10-minute recording's arrays then costs a
/// few hundred page faults instead of tens of thousands (each one expensive, notably in virtual machines).
template <typename T> struct HugeAllocator
{
    using value_type = T;
    static constexpr std::size_t kHuge = std::size_t(2) << 20;

    HugeAllocator() noexcept = default;
    template <typename U> HugeAllocator(const HugeAllocator<U>&) noexcept { }

    T* allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= kHuge) {
            const std::size_t length = (bytes + kHuge - 1) & ~(kHuge - 1);
            void* raw = mmap(nullptr, length + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (raw == MAP_FAILED)
                throw std::bad_alloc();
            const auto start = reinterpret_cast<std::uintptr_t>(raw);
            const std::uintptr_t aligned = (start + kHuge - 1) & ~std::uintptr_t(kHuge - 1);
            if (aligned > start)
                munmap(raw, aligned - start);
            const std::uintptr_t tail = start + length + kHuge - (aligned + length);
            if (tail > 0)
                munmap(reinterpret_cast<void*>(aligned + length), tail);
            adviseHugePages(reinterpret_cast<void*>(aligned), length);
            return reinterpret_cast<T*>(aligned);
        }
#endif
        return static_cast<T*>(::operator new(bytes));
    }

    void deallocate(T* p, std::size_t n) noexcept
    {
        const std::size_t bytes = n * sizeof(T);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= kHuge) {
            munmap(p, (bytes + kHuge - 1) & ~(kHuge - 1));
            return;
        }
#endif
        ::operator delete(p);
    }

    /// Elements made without a value are left uninitialised (like `new T`), so that sizing an array the parser
    /// fills completely does not write it twice.
    template <typename U, typename... Args> void construct(U* p, Args&&... args)
    {
        if constexpr (sizeof...(Args) == 0)
            ::new (static_cast<void*>(p)) U;
        else
            ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }

    template <typename U> bool operator==(const HugeAllocator<U>&) const noexcept
    {
        return true;
    }
};

} // namespace nsw

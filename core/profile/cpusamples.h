// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/column.h"
#include "core/profile/indexcolumn.h"
#include "core/profile/indexinto.h"
#include "core/profile/stringpool.h"
#include "core/profile/timecolumn.h"

#include <QString>
#include <cstdint>
#include <map>

namespace nsw {

/// The functions the call chains name: one row per distinct (symbol, module), whatever StringIds ids name them.
struct CpuFunctionTable
{
    static constexpr std::uint8_t kKernelMode = 1; ///< a frame of the OS kernel (kernelMode)
    static constexpr std::uint8_t kUnresolved = 2; ///< the symbol could not be resolved: its text is an address
    static constexpr std::uint8_t kNoSymbol = 4; ///< the symbol is NULL or not in StringIds

    Column<StringRef> symbol; ///< kNoString when NULL or missing from StringIds
    Column<StringRef> module;
    Column<std::uint8_t> flags; ///< the flags of any frame of the function, or-ed

    std::size_t size() const { return symbol.size(); }

    /// Calls @p visit(name, column, IndexInto) for every column of @p self (see Profile::forEachTable).
    template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
    {
        visit("symbol", self.symbol, IndexInto::Strings);
        visit("module", self.module, IndexInto::Strings);
        visit("flags", self.flags, IndexInto::Nothing);
    }
};

/// CPU samples (COMPOSITE_EVENTS, `nsys profile -s cpu`) with their call stacks (SAMPLING_CALLCHAINS), in the
/// table's order. The stack of sample i is frames[stackBegin[i] .. stackBegin[i + 1]), leaf first (stackDepth 0,
/// the function that was running), root last. A sample without call chain rows has an empty stack.
struct CpuSamples
{
    static constexpr std::uint8_t kUnknownState = 0; ///< ENUM_SAMPLING_THREAD_STATE "Unknown" (also NULL)
    static constexpr std::uint8_t kRunning = 1;
    static constexpr std::uint8_t kOsRuntime = 8;

    TimeColumn time;
    IndexColumn<std::int32_t> thread; ///< ThreadIndex
    Column<std::int16_t> cpu; ///< -1 when NULL
    Column<std::uint8_t> state; ///< ENUM_SAMPLING_THREAD_STATE id
    Column<std::uint32_t> stackBegin; ///< size() + 1 entries when there are samples
    IndexColumn<std::int32_t> frames; ///< rows of functions
    CpuFunctionTable functions;
    /// ENUM_SAMPLING_THREAD_STATE labels by id (nsys's own labels when the export has no such table).
    std::map<int, QString> stateLabels;

    /// Calls @p visit(name, column, IndexInto) for every column of @p self (see Profile::forEachTable). The functions
    /// are a table of their own there; the labels are among the profile's facts (core/profilecache/profilefacts.h).
    template <typename Self, typename Visit> static void forEachColumn(Self& self, Visit&& visit)
    {
        visit("time", self.time, IndexInto::Nothing);
        visit("thread", self.thread, IndexInto::Threads);
        visit("cpu", self.cpu, IndexInto::Nothing);
        visit("state", self.state, IndexInto::Nothing);
    }
    /// The stacks: not one entry per sample (see forEachTableMember).
    template <typename Self, typename Visit> static void forEachExtra(Self& self, Visit&& visit)
    {
        visit("stackBegin", self.stackBegin, IndexInto::Nothing);
        visit("frames", self.frames, IndexInto::CpuFunctions);
    }

    std::size_t size() const { return time.size(); }
    std::uint32_t depthOf(std::size_t sample) const { return stackBegin[sample + 1] - stackBegin[sample]; }
    /// The function of @p sample's frame @p depth (0 = leaf).
    std::int32_t frame(std::size_t sample, std::uint32_t depth) const { return frames[stackBegin[sample] + depth]; }
    QString stateLabel(std::uint8_t state) const;
};

} // namespace nsw

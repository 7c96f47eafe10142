// SPDX-License-Identifier: GPL-3.0-or-later
// Private to the loader: the CPU sampling tables. COMPOSITE_EVENTS (the samples) and SAMPLING_CALLCHAINS (one row
// per frame, keyed by the sample's id and the frame's stackDepth) are scanned in chunks like every other table, with
// chunk-local threads and functions, then joined into Profile::cpuSamples by assembleCpuSamples().
#pragma once

#include "core/jobs/cancel.h"
#include "core/profile/cpusamples.h"
#include "core/profile/scancontext.h"

#include <QStringList>
#include <cstdint>
#include <vector>

namespace nsw {

class SqliteDb;
class StringResolver;

/// One chunk of COMPOSITE_EVENTS.
struct SampleScan
{
    std::vector<std::int64_t> id; ///< COMPOSITE_EVENTS.id, to find the sample's frames
    TimeColumn time;
    IndexColumn<std::int32_t> thread; ///< local thread index (ScanContext::threads), -1 when NULL
    std::vector<std::int16_t> cpu;
    std::vector<std::uint8_t> state;
};

/// One chunk of SAMPLING_CALLCHAINS: its frames in row order, cut into runs of one sample id.
struct CallchainScan
{
    struct Run
    {
        std::int64_t id;
        std::uint32_t begin; ///< first frame of the run
    };
    std::vector<Run> runs;
    std::vector<std::int32_t> function; ///< per frame: index into functionKeys
    std::vector<std::int32_t> depth; ///< per frame: stackDepth (INT32_MAX when unreadable)
    /// (symbol, module) StringIds ids of each chunk-local function, packed (see functionKey()).
    FlatIndex<std::int64_t, IntegerHash> functionKeys;
    std::vector<std::uint8_t> functionFlags; ///< CpuFunctionTable flags, by local function
    qint64 framesWithoutId = 0; ///< rows whose id is NULL or not an integer: they belong to no sample

    static std::int64_t functionKey(std::int32_t symbol, std::int32_t module)
    {
        return std::int64_t((std::uint64_t(std::uint32_t(symbol)) << 32) | std::uint32_t(module));
    }
    static std::int32_t symbolOf(std::int64_t key) { return std::int32_t(std::uint64_t(key) >> 32); }
    static std::int32_t moduleOf(std::int64_t key) { return std::int32_t(std::uint32_t(key)); }
};

bool readSamples(const SqliteDb& db, ScanContext& ctx, SampleScan& out);
bool readCallchains(const SqliteDb& db, ScanContext& ctx, CallchainScan& out);

/// Registers the symbol and module ids of every chunk's functions with @p strings (before StringResolver::resolve).
void needCallchainStrings(StringResolver& strings, const std::vector<CallchainScan*>& chains);

/// Joins the chunks (threads already remapped to the profile's, strings resolved) into @p out, in table order: each
/// sample gets the frames whose id is its id, ordered by stackDepth. Frees the chunks' columns as it goes. Returns
/// the damage it read past, in words for the user (gaps in stackDepth, frames of no sample, frames without a
/// symbol); nothing is dropped silently. Stops early when @p cancel is cancelled (the caller discards the result).
QStringList assembleCpuSamples(CpuSamples& out, const std::vector<SampleScan*>& samples,
    const std::vector<CallchainScan*>& chains, const StringResolver& strings, const CancelToken& cancel);

} // namespace nsw

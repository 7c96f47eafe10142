// SPDX-License-Identifier: GPL-3.0-or-later
// Private to the loader: one scan function per activity table. Scans fill tables with *local* indices (threads,
// processes, strings) that ProfileLoader later remaps to the profile's global ones.
#pragma once

#include "core/profile/profile.h"
#include "core/profile/scancontext.h"

#include <map>
#include <utility>
#include <vector>

namespace nsw {

class SqliteDb;

struct KernelScan
{
    KernelTable table; ///< process = local process index; names = raw string values
    std::vector<LaunchShape> shapes;
};

struct NvtxScan
{
    NvtxTable table; ///< thread = local thread index; domain = index into domains
    struct Domain
    {
        std::int64_t globalPid = 0;
        std::int64_t domainId = 0;
        std::int32_t nameValue = kNoString; ///< raw string value from the domain-create row
    };
    std::vector<Domain> domains;
    std::vector<std::pair<std::int32_t, std::int32_t>> threadNames; ///< (local thread, raw string value)
};

bool readKernels(const SqliteDb& db, ScanContext& ctx, KernelScan& out, unsigned kernelColumns);
bool readMemcpy(const SqliteDb& db, ScanContext& ctx, MemOpTable& out);
bool readMemset(const SqliteDb& db, ScanContext& ctx, MemOpTable& out);
bool readGraphTrace(const SqliteDb& db, ScanContext& ctx, GraphLaunchTable& out);
bool readCudaApi(const SqliteDb& db, ScanContext& ctx, CudaApiTable& out);
bool readNvtx(const SqliteDb& db, ScanContext& ctx, NvtxScan& out);
bool readOsrt(const SqliteDb& db, ScanContext& ctx, OsrtTable& out);

} // namespace nsw

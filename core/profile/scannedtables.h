// SPDX-License-Identifier: GPL-3.0-or-later
// Private to the loader: the tables it scans in chunks, each described once.
#pragma once

#include "core/profile/loadtypes.h"
#include "core/profile/scantask.h"

#include <span>

namespace nsw {

class SqliteDb;

/// One table the loader scans in chunks: the load part that asks for it, its name in the export, the progress text
/// while it is read, and how one chunk of it is read into its task.
struct ScannedTable
{
    TableKind kind;
    unsigned part; ///< a LoadPart; the table belongs to the first stage of a staged load when it is in LoadFirstStage
    const char* table;
    const char* stage;
    bool (*read)(const SqliteDb& db, ScanTask& task, const LoadOptions& options);
};

/// Every table the loader scans, in table order (the order chunks are assembled in), one per TableKind.
std::span<const ScannedTable> scannedTables();
const ScannedTable& scannedTable(TableKind kind);

} // namespace nsw

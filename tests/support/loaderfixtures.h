// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-made exports for the loader tests: every row is written here, so every expected number is known.
#pragma once

#include "sqlitefixture.h"

#include <QString>

namespace nsw::test {

/// globalPid of pid on host key 1 (Linux captures: bits 48-55 = 1).
constexpr qint64 globalPid(qint64 pid)
{
    return (qint64(1) << 48) | (pid << 24);
}
constexpr qint64 globalTid(qint64 pid, qint64 tid)
{
    return globalPid(pid) | tid;
}

/// A 2026-style export: META_DATA_EXPORT, TARGET_INFO_CUDA_DEVICE, mangledName and greenContextId columns, an extra
/// column added by a third-party tool. Two processes (pid 100 on CUDA device 0 -> GPU id 1 "GPU B", pid 200 on CUDA
/// device 0 -> GPU id 0 "GPU A") that both use correlation ids 1 and 2.
bool writeModernExport(const QString& path, QString* error);

/// A 2021-style export: no metadata table, oldest TARGET_INFO_GPU layout (deviceId), no mangledName, no PROCESSES.
bool writeOldExport(const QString& path, QString* error);

} // namespace nsw::test

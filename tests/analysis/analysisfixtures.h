// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-made exports for the analyze rules, every row chosen (and the expected results worked out) in
// tst_analysisrules.cpp. Shared with tst_analyze_nsys, which checks the same expectations hold for the real nsys.
#pragma once

#include <QString>

namespace nsw::test {

/// CUDA API rules: runtime calls (two processes, correlation ids reused across them), memcpys of every kind the
/// rules sort out, memsets, an NVTX push/pop range "step" and the same name in domain "dom".
void writeCudaFixture(const QString& path, const QString& schemaVersion = QStringLiteral("2022.4"));

/// GPU rules: one process, two devices, overlapping kernels and a CUDA profiling overhead inside both device spans
/// (a PROFILER_OVERHEAD table as real exports have it).
void writeGpuFixture(const QString& path, const QString& schemaVersion = QStringLiteral("2026.2"));

/// Runtime calls only (no kernel, memcpy or memset table).
void writeRuntimeOnlyFixture(const QString& path);

} // namespace nsw::test

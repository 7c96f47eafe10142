// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw::test {

// Small hand-made exports (nsys 2022.2 schema) for the corner cases of the nsys stats reports. The expected outputs
// in the tests that use them are what the real `nsys stats` 2022.4 printed for the same rows.

/// NVTX ranges of two threads and a named domain (nesting, a tie between two parents, identical ranges, an
/// unterminated range, ranges without text, start/end ranges ended on another thread), CUDA API calls and kernels
/// (a correlation id shared by two calls of one process and by another process, a kernel without its call), copies
/// and a memset. Written into @p folder; returns the file.
QString writeNvtxKernelFixture(const QString& folder);

/// CPU and GPU page faults and unified memory migrations: addresses with faults only, migrations only, both, a
/// zero-duration migration, an ordinary copy without address.
QString writeUnifiedMemoryFixture(const QString& folder);

/// OpenMP events in four tables (one name in two tables, a name id without string) and OpenACC events of two tables
/// (with and without a source file, a source file id without string).
QString writeDirectiveFixture(const QString& folder);

/// `stats -r REPORT --format csv` of @p path as the CLI computes it: the CSV, or "SKIPPED: message".
QString reportCsvOf(const QString& path, const QString& report);

} // namespace nsw::test

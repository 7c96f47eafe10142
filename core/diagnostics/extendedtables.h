// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnostics.h"

namespace nsw {

/// Appends the tables of issue 36's analyses (diagnosticsTables lists them): stream_concurrency, longest_kernels,
/// h2d_over_time, h2d_load_phases, launch_percentiles, tensor_cores, non_tensor_core_kernels, what_if.
void addExtendedDiagnosticsTables(const DiagnosticsResult& result, std::vector<DiagnosticsTable>& tables);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/mfu.h"

#include <nlohmann/json.hpp>

namespace nsw {

/// "mfu_iterations" and "mfu_ranges" (when asked), raw values: start_ns on the clock of MfuResult::clockOrigin.
std::vector<DiagnosticsTable> mfuTables(const MfuResult& result);
/// The summary line: "median iteration MFU 41.2 % (overall 40.8 %), 408 TFLOP/s of 989.5 x 2 GPUs (bf16)".
QString mfuSummary(const MfuResult& result);
/// The `mfu` command's text: summary, assumptions, then the tables.
QString mfuText(const MfuResult& result);
nlohmann::ordered_json mfuJson(const MfuResult& result);

} // namespace nsw

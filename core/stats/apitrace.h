// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/reporttable.h"

namespace nsw {

/// nsys's cuda_api_trace (2022: cudaapitrace): every CUDA runtime and driver call by start (equal starts in table
/// order), its name cleaned as cuda_api_sum does, return value, correlation id, PID, TID and its thread's
/// ThreadNames priority and name (empty when the thread has no ThreadNames row). Rows are made on demand and read
/// @p profile.
ReportTable cudaApiTrace(const Profile& profile, const FocusRange& focus = {});

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/loadtypes.h"
#include "core/profile/profile.h"

namespace nsw {

/// Fills `api` of kernels, memory operations and graph launches: the CUDA API call with the same correlationId
/// in the same process (correlation ids are unique only within a process, schema doc §4.2).
/// Returns the number of GPU rows that found their call. Stops early once @p cancel is set (the profile is then
/// incomplete and must be dropped).
std::size_t joinCorrelations(Profile& profile, const CancelToken& cancel = CancelToken::never());

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparekeys.h"
#include "core/profile/focusrange.h"
#include "core/profile/profile.h"

#include <vector>

namespace nsw {

/// Per GPU that ran anything, by id: the share of [@p start, @p end) in which it ran no kernel and no memory
/// operation (its busy time is the union of both over all its streams, gpuBusyWithin()), from the kernels and memory
/// operations loaded with their placement columns.
std::vector<GpuIdle> gpuIdleShares(const Profile& profile, TimeNs start, TimeNs end);

} // namespace nsw

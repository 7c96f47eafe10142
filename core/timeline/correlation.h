// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/timeline/timelineevent.h"

#include <vector>

namespace nsw {

/// The other end of a CUDA launch, matched by correlation id within the same process (as joinCorrelations() joins
/// them): for a kernel, memory operation or graph launch, the API call that launched it; for an API call, the GPU
/// operations it launched (the kernels of a CUDA graph all carry the id of its cudaGraphLaunch), at most @p limit of
/// them, in table order. Empty for other events and for operations whose call is not in the profile.
std::vector<EventRef> correlatedEvents(const Profile& profile, EventRef event, std::size_t limit = 64);

} // namespace nsw

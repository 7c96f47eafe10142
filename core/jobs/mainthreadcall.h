// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>

namespace nsw {

/// Runs @p call later on the application object's thread (the GUI thread), from any thread; dropped when there is
/// no application object. The call travels inside a complete posted event that the receiving side acquires on its
/// own address: unlike a queued lambda, nothing is written after the hand-over is announced to ThreadSanitizer.
void postToMainThread(std::function<void()> call);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "coresettings.h"

#include <mutex>

namespace nsw {

namespace {
std::mutex s_mutex;
CoreSettings s_settings;
} // namespace

CoreSettings coreSettings()
{
    std::lock_guard lock(s_mutex);
    return s_settings;
}

void setCoreSettings(const CoreSettings& settings)
{
    std::lock_guard lock(s_mutex);
    s_settings = settings;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

class ProfileSession;

/// The status bar's line about the current profile: "nsys 2024.5 · 2 GPUs (H100) · capture 0.000 s – 12.3 s (12.3 s,
/// GPU, API and NVTX span)", and where its capture span comes from.
struct ProfileStatus
{
    QString text;
    QString toolTip;
};
ProfileStatus profileStatusOf(const ProfileSession& session);

} // namespace nsw

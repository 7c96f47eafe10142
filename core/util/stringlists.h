// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <functional>

namespace nsw {

/// The text @p text gives each of @p items (a member pointer or a function), in their order: "the names of the
/// models".
template <typename Items, typename Text> QStringList textsOf(const Items& items, Text text)
{
    QStringList texts;
    for (const auto& item : items)
        texts << QString(std::invoke(text, item));
    return texts;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <iterator>

namespace nsw {

/// The first of @p items whose @p member equals @p value, or null: the lookup of a short list by its name or id
/// (`findBy(engines, &RuleEngine::name, name)`). Const items give a pointer to const.
template <typename Items, typename Member, typename Value>
auto findBy(Items& items, Member member, const Value& value) -> decltype(&*std::begin(items))
{
    for (auto& item : items)
        if (std::invoke(member, item) == value)
            return &item;
    return nullptr;
}

} // namespace nsw

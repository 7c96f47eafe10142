// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"
#include "core/jobs/result.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace nsw {

/// What analyses derive from a loaded profile whatever the focus (zone maps, per-row device keys, the iteration
/// table), built once on first use and kept as long as the profile: a refocus then costs what the focus holds, not a
/// pass over every row. get()'s values must not hold the profile (that would keep it alive forever).
///
/// One builder at a time per key; the others wait for its value (polling their cancel token) instead of building
/// it again. A builder that returns nullptr (cancelled, failed) stores nothing, so the next caller builds.
class DerivedCache
{
public:
    DerivedCache() = default;
    // A copied profile starts with nothing derived (its rows may be edited before it is shared).
    DerivedCache(const DerivedCache&) { }
    DerivedCache& operator=(const DerivedCache&) { return *this; }

    template <class T, class Build>
    std::shared_ptr<const T> get(const std::string& key, const CancelToken& cancel, Build&& build) const
    {
        return getOrBuild<T>(key, cancel, build, Keep::AsLongAsTheProfile);
    }

    /// As get(), but the value is kept only while some caller still holds it: for large values (an NVTX tree, its
    /// index) that several panes and analyses ask for at about the same time but nobody needs forever. Such values
    /// may hold the profile.
    template <class T, class Build>
    std::shared_ptr<const T> getWhileHeld(const std::string& key, const CancelToken& cancel, Build&& build) const
    {
        return getOrBuild<T>(key, cancel, build, Keep::WhileHeld);
    }

    /// The Result<T> @p compute gives, kept whether a value or an error (a failure that is the file's, such as a
    /// missing table, is as lasting as a value); a cancelled one is not kept and gives nullptr.
    template <class T, class Compute>
    std::shared_ptr<const Result<T>> getResult(
        const std::string& key, const CancelToken& cancel, Compute&& compute) const
    {
        return get<Result<T>>(key, cancel, [&]() -> std::shared_ptr<const Result<T>> {
            auto result = std::make_shared<const Result<T>>(compute());
            return result->isCancelled() ? nullptr : result;
        });
    }

private:
    enum class Keep
    {
        AsLongAsTheProfile,
        WhileHeld
    };

    struct Entry
    {
        std::shared_ptr<const void> value;
        std::weak_ptr<const void> held; ///< Keep::WhileHeld
        std::shared_ptr<std::timed_mutex> building;

        std::shared_ptr<const void> current() const { return value ? value : held.lock(); }
    };

    template <class T, class Build>
    std::shared_ptr<const T> getOrBuild(
        const std::string& key, const CancelToken& cancel, Build& build, Keep keep) const
    {
        std::shared_ptr<std::timed_mutex> building;
        {
            const std::lock_guard lock(m_mutex);
            Entry& e = m_entries[key];
            if (auto value = e.current())
                return std::static_pointer_cast<const T>(value);
            if (!e.building)
                e.building = std::make_shared<std::timed_mutex>();
            building = e.building;
        }
        while (!building->try_lock_for(std::chrono::milliseconds(20)))
            if (cancel.isCancelled())
                return nullptr;
        const std::lock_guard buildLock(*building, std::adopt_lock);
        {
            const std::lock_guard lock(m_mutex);
            if (auto value = m_entries[key].current())
                return std::static_pointer_cast<const T>(value);
        }
        std::shared_ptr<const T> built = build();
        if (built) {
            const std::lock_guard lock(m_mutex);
            Entry& e = m_entries[key];
            if (keep == Keep::WhileHeld)
                e.held = built;
            else
                e.value = built;
        }
        return built;
    }

    mutable std::mutex m_mutex;
    mutable std::map<std::string, Entry> m_entries;
};

} // namespace nsw

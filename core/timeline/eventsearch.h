// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/timeline/timelineevent.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace nsw {

/// What the timeline's search box looks for: a case-insensitive substring, or a regular expression (also
/// case-insensitive), over kernel names (demangled or short), CUDA API call names and NVTX range and mark names.
struct EventSearchQuery
{
    QString text;
    bool regex = false;
};

/// The events a search found, in time order (start, then kernels before API calls before NVTX events, then row).
/// Stores 4 bytes per match; every step (next, previous, "n of m") is a binary search.
class EventMatches
{
public:
    EventMatches() = default;
    explicit EventMatches(ProfilePtr profile)
        : m_profile(std::move(profile))
    { }

    /// Why nothing was searched (an invalid regular expression), else empty.
    QString error;
    bool cancelled = false;

    const ProfilePtr& profile() const { return m_profile; }
    std::size_t count() const { return m_kernels.size() + m_apiCalls.size() + m_nvtx.size(); }
    /// Position of @p event among the matches (0 = earliest), -1 when it is not one.
    std::int64_t ordinalOf(EventRef event) const;
    /// The first match starting at or after @p t; the first match when none does (invalid when there is none).
    EventRef firstFrom(TimeNs t) const;
    /// The match after (before) @p event in time order, wrapping around at the end (start). @p event need not be a
    /// match: the one after (before) its place in time is found.
    EventRef next(EventRef event) const;
    EventRef previous(EventRef event) const;

private:
    friend EventMatches findEvents(const ProfilePtr& profile, const EventSearchQuery& query, const JobContext& job);
    struct Key
    {
        TimeNs start;
        int table;
        std::uint32_t row;
        auto operator<=>(const Key&) const = default;
    };
    Key keyOf(EventTable table, std::uint32_t row) const;
    const std::vector<std::uint32_t>& rowsOf(EventTable table) const;

    ProfilePtr m_profile;
    std::vector<std::uint32_t> m_kernels; ///< Profile::kernels rows, in time order
    std::vector<std::uint32_t> m_apiCalls;
    std::vector<std::uint32_t> m_nvtx;
};

/// Every kernel, CUDA API call and NVTX event whose name matches @p query. An empty text finds nothing. Cost: one
/// match per distinct name, one pass over the name columns and a sort of the matches; cancellable.
EventMatches findEvents(const ProfilePtr& profile, const EventSearchQuery& query, const JobContext& job = {});

} // namespace nsw

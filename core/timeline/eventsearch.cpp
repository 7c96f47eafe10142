// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventsearch.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <algorithm>
#include <limits>

namespace nsw {

namespace {

constexpr EventTable kSearched[] = { EventTable::Kernel, EventTable::CudaApi, EventTable::Nvtx };
constexpr std::size_t kCancelCheckRows = 1 << 20;

/// Sorts @p rows by (start, row) unless they already are (rows of an export mostly come in time order).
void sortByStart(std::vector<std::uint32_t>& rows, const TimeColumn& start)
{
    const auto earlier
        = [&](std::uint32_t a, std::uint32_t b) { return start[a] != start[b] ? start[a] < start[b] : a < b; };
    if (!std::is_sorted(rows.begin(), rows.end(), earlier))
        std::sort(rows.begin(), rows.end(), earlier);
}

} // namespace

EventMatches::Key EventMatches::keyOf(EventTable table, std::uint32_t row) const
{
    return { eventStart(*m_profile, { table, row }), int(table), row };
}

const std::vector<std::uint32_t>& EventMatches::rowsOf(EventTable table) const
{
    return table == EventTable::Kernel ? m_kernels : table == EventTable::CudaApi ? m_apiCalls : m_nvtx;
}

std::int64_t EventMatches::ordinalOf(EventRef event) const
{
    if (!m_profile
        || (event.table != EventTable::Kernel && event.table != EventTable::CudaApi && event.table != EventTable::Nvtx))
        return -1;
    const Key key = keyOf(event.table, event.row);
    std::int64_t before = 0;
    bool found = false;
    for (const EventTable table : kSearched) {
        const std::vector<std::uint32_t>& rows = rowsOf(table);
        const auto it = std::lower_bound(
            rows.begin(), rows.end(), key, [&](std::uint32_t r, const Key& k) { return keyOf(table, r) < k; });
        before += it - rows.begin();
        found = found || (table == event.table && it != rows.end() && *it == event.row);
    }
    return found ? before : -1;
}

EventRef EventMatches::firstFrom(TimeNs t) const
{
    if (!m_profile)
        return {};
    const Key from { t, std::numeric_limits<int>::min(), 0 };
    std::optional<Key> best;
    for (const EventTable table : kSearched) {
        const std::vector<std::uint32_t>& rows = rowsOf(table);
        const auto it = std::lower_bound(
            rows.begin(), rows.end(), from, [&](std::uint32_t r, const Key& k) { return keyOf(table, r) < k; });
        if (it != rows.end() && (!best || keyOf(table, *it) < *best))
            best = keyOf(table, *it);
    }
    if (!best)
        return next({}); // wraps to the first match
    return { EventTable(best->table), best->row };
}

EventRef EventMatches::next(EventRef event) const
{
    if (!m_profile)
        return {};
    const std::optional<Key> key
        = event.valid() ? std::optional<Key>(keyOf(event.table, event.row)) : std::optional<Key>();
    std::optional<Key> best, first;
    for (const EventTable table : kSearched) {
        const std::vector<std::uint32_t>& rows = rowsOf(table);
        if (rows.empty())
            continue;
        if (!first || keyOf(table, rows.front()) < *first)
            first = keyOf(table, rows.front());
        if (!key)
            continue;
        const auto it = std::upper_bound(
            rows.begin(), rows.end(), *key, [&](const Key& k, std::uint32_t r) { return k < keyOf(table, r); });
        if (it != rows.end() && (!best || keyOf(table, *it) < *best))
            best = keyOf(table, *it);
    }
    if (!best)
        best = first;
    return best ? EventRef { EventTable(best->table), best->row } : EventRef {};
}

EventRef EventMatches::previous(EventRef event) const
{
    if (!m_profile)
        return {};
    const std::optional<Key> key
        = event.valid() ? std::optional<Key>(keyOf(event.table, event.row)) : std::optional<Key>();
    std::optional<Key> best, last;
    for (const EventTable table : kSearched) {
        const std::vector<std::uint32_t>& rows = rowsOf(table);
        if (rows.empty())
            continue;
        if (!last || *last < keyOf(table, rows.back()))
            last = keyOf(table, rows.back());
        if (!key)
            continue;
        const auto it = std::lower_bound(
            rows.begin(), rows.end(), *key, [&](std::uint32_t r, const Key& k) { return keyOf(table, r) < k; });
        if (it != rows.begin() && (!best || *best < keyOf(table, *(it - 1))))
            best = keyOf(table, *(it - 1));
    }
    if (!best)
        best = last;
    return best ? EventRef { EventTable(best->table), best->row } : EventRef {};
}

EventMatches findEvents(const ProfilePtr& profile, const EventSearchQuery& query, const JobContext& job)
{
    EventMatches m(profile);
    if (!profile || query.text.isEmpty())
        return m;
    QRegularExpression re;
    if (query.regex) {
        re = QRegularExpression(query.text, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            m.error = QCoreApplication::translate("EventSearch", "invalid regular expression: %1 (at %2)")
                          .arg(re.errorString())
                          .arg(re.patternErrorOffset());
            return m;
        }
    }
    const Profile& p = *profile;
    // Each distinct name is matched once: -1 not yet, 0 no, 1 yes.
    std::vector<std::int8_t> verdict(p.strings.size(), -1);
    const auto matches = [&](StringRef ref) {
        if (ref < 0 || std::size_t(ref) >= verdict.size())
            return false;
        std::int8_t& v = verdict[std::size_t(ref)];
        if (v < 0) {
            const QString& s = p.strings.at(ref);
            v = query.regex ? re.match(s).hasMatch() : s.contains(query.text, Qt::CaseInsensitive);
        }
        return v == 1;
    };
    const std::size_t total = p.kernels.size() + p.cudaApi.size() + p.nvtx.size();
    std::size_t done = 0;
    // Returns false when cancelled.
    const auto scan = [&](std::size_t n, std::vector<std::uint32_t>& out, auto&& isMatch) {
        for (std::size_t r = 0; r < n; ++r) {
            if (r % kCancelCheckRows == 0) {
                if (job.isCancelled())
                    return false;
                job.report(QCoreApplication::translate("EventSearch", "Searching"),
                    total ? double(done + r) / double(total) : 0.0);
            }
            if (isMatch(r))
                out.push_back(std::uint32_t(r));
        }
        done += n;
        return true;
    };
    const bool kernelShortNames = p.kernels.shortName.size() == p.kernels.size();
    const bool complete = scan(p.kernels.demangledName.size(), m.m_kernels, [&](std::size_t r) {
        return matches(p.kernels.demangledName[r]) || (kernelShortNames && matches(p.kernels.shortName[r]));
    }) && scan(p.cudaApi.name.size(), m.m_apiCalls, [&](std::size_t r) {
        return matches(p.cudaApi.name[r]);
    }) && scan(p.nvtx.name.size(), m.m_nvtx, [&](std::size_t r) { return matches(p.nvtx.name[r]); });
    if (!complete || job.isCancelled()) {
        m = EventMatches(profile);
        m.cancelled = true;
        return m;
    }
    sortByStart(m.m_kernels, p.kernels.start);
    sortByStart(m.m_apiCalls, p.cudaApi.start);
    sortByStart(m.m_nvtx, p.nvtx.start);
    return m;
}

} // namespace nsw

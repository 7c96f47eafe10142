// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/nvtx/launchindex.h"
#include "core/profile/focusrange.h"
#include "core/profile/profile.h"

#include <memory>
#include <vector>

namespace nsw {

/// What every NVTX tree of a profile sweeps, whatever its focus and options: each thread's ranges in nesting order
/// (start ascending, end descending, then row) and its launching CUDA API calls in time order, with the GPU work they
/// launched. Built once per profile; a tree keeps the index it was built from, so that the tree for the next focus
/// visits only the ranges and launches near that focus instead of re-sorting 19M events.
class NvtxTreeIndex
{
public:
    /// nullptr when @p job was cancelled.
    static std::shared_ptr<const NvtxTreeIndex> build(const ProfilePtr& profile, const JobContext& job = {});
    /// The index of @p profile that some tree (the NVTX pane's, a Compare entry's) still holds or that another caller
    /// is building, else a new one, which later callers get while it lives: the NVTX pane, the Findings pane and
    /// Compare then share one index (~140 MB and ~2 s on a 4M-kernel export) instead of building their own. nullptr
    /// when @p job was cancelled.
    static std::shared_ptr<const NvtxTreeIndex> shared(const ProfilePtr& profile, const JobContext& job = {});

    /// The profile it indexes (a tree reuses the index only for the same profile, which the index keeps alive so that
    /// no other profile can take its address).
    const Profile* profile() const { return m_profile.get(); }
    std::size_t threadCount() const { return m_rangeBegin.size() - 1; }

    /// The range rows of @p thread (push/pop and start/end, as NvtxTable rows) in nesting order.
    PackedRows::Slice ranges(std::size_t thread) const
    {
        return m_ranges.slice(m_rangeBegin[thread], m_rangeBegin[thread + 1] - m_rangeBegin[thread]);
    }
    /// Every thread's ranges() one after the other.
    PackedRows::Slice allRanges() const { return m_ranges.slice(0, m_ranges.size()); }
    /// Appends to @p out the rows of ranges(@p thread) that overlap @p focus (FocusRange::overlaps, unterminated
    /// ranges ending at NvtxTable::maxTimestamp), in nesting order, skipping the blocks of rows that cannot.
    void appendOverlapping(std::size_t thread, const FocusRange& focus, std::vector<std::uint32_t>& out) const;

    /// The CUDA API rows of @p thread that launched GPU work, by start (then row).
    PackedRows::Slice launches(std::size_t thread) const { return m_launches.threadLaunches(thread); }
    const LaunchIndex& launchIndex() const { return m_launches; }

    /// Marks (instantaneous events) that overlap @p focus.
    qint64 marksIn(const FocusRange& focus) const;
    /// Sorted rows of the start/end ranges that end on another thread than the one that started them.
    const std::vector<std::uint32_t>& crossThreadRows() const { return m_crossRows; }

private:
    explicit NvtxTreeIndex(ProfilePtr profile);

    /// Per block of kBlockRows consecutive positions of m_ranges (the blocks ignore thread boundaries: a block
    /// across two threads only skips less): enough to skip rows that cannot overlap a focus.
    struct Block
    {
        TimeNs minStart;
        TimeNs maxEnd;
        bool anyReversed; ///< a row ending before it starts: FocusRange::overlaps may still take it
    };
    static constexpr std::size_t kBlockRows = 64;

    ProfilePtr m_profile;
    std::vector<std::uint32_t> m_rangeBegin; ///< per thread, size threads + 1
    PackedRows m_ranges; ///< in nesting order within each thread, so rows near one another are close
    std::vector<Block> m_blocks;
    LaunchIndex m_launches;
    std::vector<TimeNs> m_markStarts; ///< sorted
    std::vector<std::uint32_t> m_crossRows;
};

} // namespace nsw

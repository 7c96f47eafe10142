// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/timemodes.h"
#include "core/jobs/cancel.h"
#include "core/profile/focusrange.h"
#include "core/profile/packedrows.h"
#include "core/profile/profile.h"

#include <QString>
#include <QStringList>
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

namespace nsw {

/// What rules see of a profile, computed once per profile and independent of the rules: the distinct names
/// (demangled kernel name + short name, or "[CUDA memcpy <kind>]" / "[CUDA memset]"), every GPU row sorted per
/// device by start, and each name's time per device in every mode. Re-categorising after a rule edit then only
/// classifies the distinct names and adds them up (plus one sweep for the busy mode).
class CategoryTimeline
{
public:
    struct Name
    {
        QString demangled; ///< what gputrc2graph matches (nsys cuda_gpu_trace's Name)
        QString shortName; ///< the kernel's short name; for memory operations the same as demangled
        bool memOp = false;
    };

    /// Null when @p cancel is cancelled (checked between its passes over the rows).
    static std::shared_ptr<const CategoryTimeline> build(
        const ProfilePtr& profile, const CancelToken& cancel = CancelToken::never());
    /// This timeline cut to @p focus: only the rows that overlap it; sum counts their whole durations, the
    /// occupancy modes (busy, exclusive, g2g) their parts inside the range. Names, devices and the per-kernel maps
    /// are shared, not copied; one pass over the rows plus the time modes of the rows kept.
    std::shared_ptr<const CategoryTimeline> focused(const FocusRange& focus) const;
    /// The range this timeline was cut to (inactive: the whole capture).
    const FocusRange& focus() const { return m_focus; }

    const ProfilePtr& profile() const { return m_profile; }
    const std::vector<Name>& names() const { return m_names; }
    QStringList demangledNames() const;
    QStringList shortNames() const;
    /// Device ids (the nsys GPU id when TARGET_INFO_CUDA_DEVICE maps it, else the CUDA ordinal), ascending.
    const std::vector<int>& devices() const { return m_devices; }
    QString deviceLabel(std::size_t device) const;
    std::size_t rowCount() const { return m_source.empty() ? m_rows.size() : m_source.size(); }

    /// Per (device, name) time in @p mode; for Busy the union of each name's own rows.
    const GroupTimes& nameTimes(TimeMode mode) const { return m_nameTimes[std::size_t(mode)]; }
    /// Busy time per (device, group) for a grouping of the names (e.g. categories): one sweep over all rows.
    /// @p groupOfNameB (may be null) is a second grouping computed in the same sweep (e.g. rules).
    GroupTimes busyTimes(const std::vector<std::uint32_t>& groupOfName, std::size_t groupCount,
        const std::vector<std::uint32_t>* groupOfNameB = nullptr, std::size_t groupCountB = 0,
        GroupTimes* resultB = nullptr) const;

    /// Name index of a kernel row (Profile::kernels), for turning a category into kernel rows.
    std::uint32_t nameOfKernel(std::size_t kernelRow) const { return (*m_kernelName)[kernelRow]; }
    /// Dense device index (into devices()) of a kernel row.
    std::size_t deviceOfKernel(std::size_t kernelRow) const { return (*m_kernelDevice)[kernelRow]; }
    /// CUDA graph launches traced at graph level (their kernels are not in the export, so not categorised).
    std::size_t graphLaunches() const { return m_graphLaunches; }

private:
    struct SourceRows;

    /// Start, end and name of a profile row (m_source's numbering: a kernel row, or the kernel count + a memory
    /// operation row).
    TimeNs sourceStart(std::uint32_t s) const
    {
        return s < m_sourceKernels ? m_profile->kernels.start[s] : m_profile->memops.start[s - m_sourceKernels];
    }
    TimeNs sourceEnd(std::uint32_t s) const
    {
        return s < m_sourceKernels ? m_profile->kernels.end[s] : m_profile->memops.end[s - m_sourceKernels];
    }
    std::uint32_t sourceName(std::uint32_t s) const
    {
        return s < m_sourceKernels ? (*m_kernelName)[s]
                                   : m_nameOfCopyKind[m_profile->memops.copyKind[s - m_sourceKernels]];
    }
    /// Start, end and name of the row at position @p p (an end before its start reads as the start).
    TimeNs startAt(std::size_t p) const { return m_source.empty() ? m_rows.start[p] : sourceStart(m_source[p]); }
    TimeNs endAt(std::size_t p) const
    {
        return m_source.empty() ? m_rows.end[p] : std::max(sourceEnd(m_source[p]), startAt(p));
    }
    std::uint32_t nameAt(std::size_t p) const { return m_source.empty() ? m_rows.group[p] : sourceName(m_source[p]); }

    ProfilePtr m_profile;
    std::vector<Name> m_names;
    std::vector<int> m_devices;
    /// A focused timeline's rows clipped to the focus (start, end, name as group), sorted by (device, start, row).
    /// The whole profile's timeline holds none: it reads its rows from the profile through m_source.
    IntervalColumns m_rows;
    /// Whole profile only: the row at each position (a kernel row, or the kernel count + a memory operation row).
    /// Packed: a device's rows by start are a few runs of close rows (kernels, copies, memsets), ~2 bytes each.
    PackedRows m_source;
    std::size_t m_sourceKernels = 0; ///< rows of m_source below it are kernels
    std::vector<std::size_t> m_deviceBegin;
    std::array<GroupTimes, 4> m_nameTimes;
    std::shared_ptr<const IndexColumn<std::uint32_t>> m_kernelName;
    std::shared_ptr<const IndexColumn<std::uint32_t>> m_kernelDevice;
    std::array<std::uint32_t, 256> m_nameOfCopyKind {}; ///< the name of each memory operation's copy kind
    FocusRange m_focus;
    std::size_t m_graphLaunches = 0;
};

/// nsys's short name guessed from a demangled name ("void at::native::foo<int>(T1)" -> "foo"), for names that come
/// without one (the representative set, rule suggestions).
QString shortNameOf(const QString& demangled);

} // namespace nsw

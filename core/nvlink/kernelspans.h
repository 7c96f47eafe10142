// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QStringList>
#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

namespace nsw {

class SqliteDb;

/// The kernels of one device, sorted by start (then row, as `ORDER BY start` returns them), with the name
/// correlate_nsys_nvlink.py uses (shortName, else demangled) and the NCCL flag ("nccl" in the lower-cased name).
struct KernelSpans
{
    int device = 0;
    std::vector<TimeNs> start;
    std::vector<TimeNs> end;
    std::vector<std::uint32_t> stream;
    std::vector<std::uint32_t> row; ///< Profile::kernels row, or the table's rowid when read from the export
    std::vector<StringRef> name; ///< into strings()
    std::vector<char> nccl;
    /// Keeps the names alive: the profile's pool, or one of our own when read from the export.
    ProfilePtr profile;
    std::shared_ptr<StringPool> ownStrings;
    /// The device has kernels in the export at all (a window read keeps only some of them).
    bool deviceHasKernels = false;
    /// What a read from the export skipped or could not name (damaged rows), in the loader's words.
    QStringList warnings;

    std::size_t size() const { return start.size(); }
    const StringPool& strings() const { return ownStrings ? *ownStrings : profile->strings; }
    const QString& nameOf(std::size_t i) const { return strings().at(name[i]); }
    /// Sorted, disjoint time ranges when at least one NCCL kernel runs (the activity band under the plot).
    std::vector<std::pair<TimeNs, TimeNs>> ncclBusy() const;
};

/// All kernels of @p device (Profile::kernels.device, the CUDA ordinal the export records).
std::shared_ptr<const KernelSpans> kernelSpansFromProfile(const ProfilePtr& profile, int device);

struct KernelWindow
{
    TimeNs from = 0;
    TimeNs to = 0;
};

/// Kernels of @p device overlapping any of @p windows (session ns), read straight from the export in one table
/// scan: what the CLI needs when loading millions of kernels into a Profile would cost more than the answer.
/// Returns null and sets @p error on a broken export; an export without kernels gives an empty set.
std::shared_ptr<const KernelSpans> kernelSpansFromExport(
    const SqliteDb& db, int device, std::vector<KernelWindow> windows, QString* error);

/// Finds the kernels overlapping a time range without scanning them all: kernels are bucketed by duration
/// (powers of two), so a bucket only holds kernels starting at most its longest duration before the range.
class KernelOverlapIndex
{
public:
    explicit KernelOverlapIndex(std::shared_ptr<const KernelSpans> spans);
    const KernelSpans& spans() const { return *m_spans; }
    const std::shared_ptr<const KernelSpans>& spansPtr() const { return m_spans; }

    /// Calls @p f(span index) for every kernel with start < to and end > from, in no particular order.
    template <typename F> void forEachOverlapping(TimeNs from, TimeNs to, F&& f) const
    {
        for (const Bucket& b : m_buckets) {
            TimeNs low = 0;
            if (__builtin_sub_overflow(from, b.maxDuration, &low))
                low = std::numeric_limits<TimeNs>::min();
            const auto lo = std::lower_bound(b.start.begin(), b.start.end(), low);
            const auto hi = std::lower_bound(lo, b.start.end(), to);
            for (auto it = lo; it != hi; ++it) {
                const std::uint32_t k = b.span[std::size_t(it - b.start.begin())];
                if (m_spans->end[k] > from)
                    f(k);
            }
        }
    }

private:
    struct Bucket
    {
        TimeNs maxDuration = 0;
        std::vector<TimeNs> start;
        std::vector<std::uint32_t> span;
    };
    std::shared_ptr<const KernelSpans> m_spans;
    std::vector<Bucket> m_buckets;
};

} // namespace nsw

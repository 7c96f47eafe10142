// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QStringList>
#include <map>

namespace nsw::test {

/// Builds a Profile in memory for hand-worked tests: every number is chosen by the test, so expectations can be
/// computed by hand. Correlation ids are assigned per process (1, 2, 3...) unless given, and GPU work is joined to
/// its launching call exactly as the loader does.
class ProfileBuilder
{
public:
    ProfileBuilder();

    ProcessIndex process(int pid, const QString& name = {});
    ThreadIndex thread(ProcessIndex process, int tid, const QString& name = {});
    StringRef str(const QString& text);

    /// A CUDA API call; returns its row.
    std::size_t apiCall(
        ThreadIndex thread, TimeNs start, TimeNs end, const QString& name, std::uint32_t correlation = 0);
    /// A kernel launched by a `cudaLaunchKernel` call on @p launcher from apiStart to apiEnd; returns its row.
    std::size_t kernel(ThreadIndex launcher, TimeNs apiStart, TimeNs apiEnd, TimeNs start, TimeNs end,
        const QString& name, int device = 0, std::uint32_t stream = 7, const QString& shortName = {});
    /// A kernel whose launching call is not in the profile (e.g. cut off by a capture window).
    std::size_t kernelWithoutApi(ProcessIndex process, TimeNs start, TimeNs end, const QString& name, int device = 0,
        std::uint32_t stream = 7, std::uint32_t correlation = 999999);
    /// A memcpy (copyKind per ENUM_CUDA_MEMCPY_OPER) or, with MemOpTable::kMemset, a memset.
    std::size_t memOp(ThreadIndex launcher, TimeNs apiStart, TimeNs apiEnd, TimeNs start, TimeNs end,
        std::uint8_t copyKind, qint64 bytes, int device = 0, std::uint32_t stream = 7);
    int nvtxDomain(ProcessIndex process, qint64 domainId, const QString& name);
    /// An NVTX range (59 push/pop by default). end = kNoTime for an unterminated range.
    std::size_t nvtxRange(ThreadIndex thread, TimeNs start, TimeNs end, const QString& name,
        std::uint8_t type = NvtxTable::kPushPop, int domain = -1, ThreadIndex endThread = kNoIndex);
    std::size_t nvtxMark(ThreadIndex thread, TimeNs time, const QString& name, int domain = -1);
    std::size_t osrtCall(ThreadIndex thread, TimeNs start, TimeNs end, const QString& name);
    void gpu(int id, const QString& name, int cudaDevice = -1);

    Profile& profile() { return *m_profile; }
    /// Joins correlation ids, computes the span, marks the tables present, and hands the profile over.
    ProfilePtr build(const QString& fileName = QStringLiteral("hand-made.sqlite"));

private:
    std::uint32_t nextCorrelation(ProcessIndex process);
    void addActivity(GpuActivityColumns& c, ProcessIndex process, TimeNs start, TimeNs end, int device,
        std::uint32_t stream, std::uint32_t correlation);

    std::shared_ptr<Profile> m_profile;
    std::map<ProcessIndex, std::uint32_t> m_correlation;
};

/// A profile of one thread (pid 100, tid 101) from lines of text, times in ms: "R name start end" is a push/pop NVTX
/// range (the name may hold spaces), "K launch start end" a kernel ("k0", "k1"...) launched by a 10 µs call at
/// `launch`, on device 0.
ProfilePtr nvtxKernelProfile(const QStringList& events);

} // namespace nsw::test

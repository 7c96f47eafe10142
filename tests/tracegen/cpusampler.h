// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "exportwriter.h"

#include <QString>
#include <vector>

namespace nsw::tracegen {

/// A thread the sampler takes samples of.
struct SampledThread
{
    qint64 globalTid = 0;
    /// A launching thread: while its process's GPU work runs it is in the launch path, while the GPU is idle it does
    /// host work (tokenizing, data loading). Otherwise a worker waiting on a condition or decoding.
    bool launcher = true;
};

/// One stack of the sampler's catalogue: frames from the outermost in.
struct SampleStack
{
    struct Frame
    {
        const char* symbol;
        const char* module;
        bool kernel = false;
        bool unresolved = false;
    };
    std::vector<Frame> frames;
    int state = 1; ///< ENUM_SAMPLING_THREAD_STATE: 1 Running, 8 OS runtime
};

/// The stacks the sampler writes (tests name them): 0-1 a launcher while its GPU is busy, 2-4 while it is idle,
/// 5-6 a worker. They hold a kernel-mode frame, an unresolved address and recursion (_PyEval_EvalFrameDefault and
/// tokenizer.encode appear twice on one stack).
const std::vector<SampleStack>& sampleStackCatalogue();

/// Stacks beyond the catalogue, for benchmarks and bad-input tests (issue 35: "a million distinct symbols, recursion
/// 10,000 frames deep").
struct SampleStress
{
    /// > 0: every sample gets one more innermost frame, `host_fn_<k>` of libhostwork.so with k = (id - 1) % this, so
    /// that min(this, samples) distinct functions are sampled.
    qint64 distinctLeaves = 0;
    /// > 0: the samples with id % 10000 == 1 hold this many `recurse` frames (of libhostwork.so) right inside their
    /// outermost frame.
    int recursionDepth = 0;
};

/// Writes COMPOSITE_EVENTS and SAMPLING_CALLCHAINS (when the version has them): @p samples samples spread evenly
/// over [0, @p endNs) across @p threads, ids in time order, each with a stack of the catalogue picked by @p seed and
/// by whether the thread's process had GPU work running at that time (read back from the kernels, memory copies and
/// memsets written so far), changed as @p stress says. Returns the samples written (0 when the version has no
/// sampling tables).
qint64 writeCpuSamples(ExportWriter& w, const std::vector<SampledThread>& threads, qint64 endNs, qint64 samples,
    quint64 seed, const SampleStress& stress = {});

} // namespace nsw::tracegen

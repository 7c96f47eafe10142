// SPDX-License-Identifier: GPL-3.0-or-later
#include "workbenchload.h"

#include "core/profile/profileloader.h"

#include <QElapsedTimer>

namespace nsw {

namespace {
void markCancelled(LoadedProfile& loaded, const QString& path)
{
    loaded.profile.reset();
    loaded.kernelIndex.reset();
    loaded.result.profile.reset();
    loaded.result.cancelled = true;
    loaded.result.error = QStringLiteral("%1: loading cancelled").arg(path);
}

/// The demangled-name index every kernel view starts from; null when cancelled.
std::shared_ptr<const KernelIndex> indexKernels(
    const ProfilePtr& profile, const ProgressCallback& progress, const CancelToken& cancel, LoadResult& result)
{
    QElapsedTimer timer;
    timer.start();
    if (progress)
        progress({ QStringLiteral("Indexing kernels"), 0.99 });
    auto index = std::make_shared<const KernelIndex>(profile, KernelNameMode::Demangled, cancel);
    if (!index->isComplete())
        return nullptr;
    result.timings.push_back({ QStringLiteral("Index kernels"), timer.elapsed(), -1 });
    result.totalMilliseconds += timer.elapsed();
    return index;
}
} // namespace

LoadedProfile loadForWorkbench(
    const QString& path, const ProgressCallback& progress, const CancelToken& cancel, const FirstStageReady& firstStage)
{
    LoadedProfile loaded;
    std::shared_ptr<const KernelIndex> firstIndex;
    StageTiming firstIndexTiming;
    FirstStageCallback onFirstStage;
    if (firstStage)
        onFirstStage = [&](const ProfilePtr& profile, const LoadResult& soFar) {
            auto first = std::make_shared<LoadedProfile>();
            first->result = soFar;
            first->complete = false;
            // Indexed here, on the load's thread, before the second stage starts: the Kernels pane fills at once.
            firstIndex = indexKernels(profile, {}, cancel, first->result);
            if (!firstIndex)
                return;
            firstIndexTiming = first->result.timings.back();
            firstIndexTiming.stage = QStringLiteral("Index kernels (first stage)");
            first->profile = profile;
            first->kernelIndex = firstIndex;
            firstStage(first);
        };
    loaded.result = ProfileLoader::load(path, LoadOptions {}, progress, cancel, onFirstStage);
    loaded.profile = loaded.result.profile;
    if (!loaded.profile)
        return loaded;
    if (cancel.isCancelled()) {
        markCancelled(loaded, path);
        return loaded;
    }
    if (firstIndex) {
        loaded.kernelIndex = firstIndex->reboundTo(loaded.profile);
        loaded.result.timings.push_back(firstIndexTiming);
    }
    if (!loaded.kernelIndex)
        loaded.kernelIndex = indexKernels(loaded.profile, progress, cancel, loaded.result);
    if (!loaded.kernelIndex)
        markCancelled(loaded, path);
    return loaded;
}

} // namespace nsw

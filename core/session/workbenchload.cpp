// SPDX-License-Identifier: GPL-3.0-or-later
#include "workbenchload.h"

#include "core/profile/profileloader.h"
#include "core/profilecache/profilecache.h"
#include "core/timeline/timelinebuild.h"

#include <QElapsedTimer>

namespace nsw {

namespace {
/// The demangled-name index every kernel view starts from, with its timing; null when cancelled. Its whole-profile
/// summary is made here too, off the GUI thread, where the Kernels pane's first view would make it.
std::shared_ptr<const KernelIndex> indexKernels(const ProfilePtr& profile, const JobContext& job, LoadOutcome& load)
{
    QElapsedTimer timer;
    timer.start();
    job.report(QStringLiteral("Indexing kernels"), 0.99);
    auto index = std::make_shared<const KernelIndex>(profile, KernelNameMode::Demangled, job.cancelToken());
    if (!index->isComplete())
        return nullptr;
    index->wholeProfileSummary();
    load.timings.push_back({ QStringLiteral("Index kernels"), timer.elapsed(), -1 });
    load.totalMilliseconds += timer.elapsed();
    return index;
}

/// Writes a profile read from SQLite, with its kernel and timeline indexes, to the cache in the background.
void storeInCache(const QString& path, const LoadedProfile& loaded, const Warnings& warnings,
    const profilecache::Lookup& lookup, const CacheSettings& cache,
    const std::function<void(const Status&)>& writeFailed)
{
    const std::optional<ProfileCacheKey> key
        = profilecache::keyAfterLoad(lookup, path, *loaded.profile, LoadOptions {}, cache);
    if (!key)
        return;
    // The writer first waits for the timeline index the Timeline pane is building (else builds it, on the CPU the panes
    // leave over), then writes the profile's sections and the index after them.
    CachedLoad load { loaded.profile, warnings, loaded.kernelIndex, nullptr,
        [profile = loaded.profile](const CancelToken& hurry) -> TimelineIndexPtr {
            const Result<TimelineIndexPtr> index = sharedTimelineIndex(profile, JobContext(hurry));
            return index ? *index : nullptr;
        } };
    profilecache::storeInBackground(cache, *key, std::move(load), [writeFailed](const Status& s) {
        if (!s && writeFailed)
            writeFailed(s);
    });
}
} // namespace

Result<LoadedProfile> loadForWorkbench(const QString& path, const JobContext& job, const FirstStageReady& firstStage,
    const CacheSettings& cache, const std::function<void(const Status&)>& cacheWriteFailed)
{
    const auto cancelled
        = [&path]() { return Result<LoadedProfile>::cancelled(QStringLiteral("%1: loading cancelled").arg(path)); };
    const profilecache::Lookup lookup = profilecache::lookUp(path, LoadOptions {}, cache, job.cancelToken());
    if (lookup.hit) {
        LoadedProfile loaded;
        loaded.load = **lookup.hit;
        loaded.load.cacheNote = lookup.note;
        loaded.profile = loaded.load.profile;
        loaded.kernelIndex = lookup.kernelIndex;
        loaded.timelineIndex = lookup.timelineIndex;
        if (loaded.kernelIndex)
            loaded.kernelIndex->wholeProfileSummary();
        else
            loaded.kernelIndex = indexKernels(loaded.profile, job, loaded.load);
        if (!loaded.kernelIndex || job.isCancelled())
            return cancelled();
        loaded.profile->devicesUsed();
        return Result<LoadedProfile>(std::move(loaded), lookup.hit->warnings());
    }
    std::shared_ptr<const KernelIndex> firstIndex;
    StageTiming firstIndexTiming;
    FirstStageCallback onFirstStage;
    if (firstStage)
        onFirstStage = [&](const ProfilePtr& profile, const LoadResult& soFar) {
            auto first = std::make_shared<LoadedProfile>();
            first->load = *soFar;
            first->complete = false;
            // Indexed here, on the load's thread, before the second stage starts: the Kernels pane fills at once.
            firstIndex = indexKernels(profile, JobContext(job.cancelToken()), first->load);
            if (!firstIndex)
                return;
            profile->devicesUsed(); // computed here, not by the status bar on the GUI thread
            firstIndexTiming = first->load.timings.back();
            firstIndexTiming.stage = QStringLiteral("Index kernels (first stage)");
            first->profile = profile;
            first->kernelIndex = firstIndex;
            firstStage(first);
        };
    LoadResult load = ProfileLoader::load(path, LoadOptions {}, job, onFirstStage);
    if (!load)
        return load.failureAs<LoadedProfile>();
    if (job.isCancelled())
        return cancelled();
    LoadedProfile loaded;
    loaded.profile = load->profile;
    loaded.load = std::move(*load);
    if (firstIndex) {
        loaded.kernelIndex = firstIndex->reboundTo(loaded.profile);
        loaded.load.timings.push_back(firstIndexTiming);
    }
    if (!loaded.kernelIndex)
        loaded.kernelIndex = indexKernels(loaded.profile, job, loaded.load);
    if (!loaded.kernelIndex)
        return cancelled();
    loaded.load.cacheNote = lookup.note;
    loaded.profile->devicesUsed();
    storeInCache(path, loaded, load.warnings(), lookup, cache, cacheWriteFailed);
    return Result<LoadedProfile>(std::move(loaded), load.warnings());
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "workbenchload.h"

#include "core/profile/profileloader.h"

#include <QElapsedTimer>

namespace nsw {

LoadedProfile loadForWorkbench(const QString& path, const ProgressCallback& progress, const CancelToken& cancel)
{
    LoadedProfile loaded;
    loaded.result = ProfileLoader::load(path, LoadOptions {}, progress, cancel);
    loaded.profile = loaded.result.profile;
    if (!loaded.profile)
        return loaded;
    if (cancel.isCancelled()) {
        loaded.profile.reset();
        loaded.result.profile.reset();
        loaded.result.cancelled = true;
        loaded.result.error = QStringLiteral("%1: loading cancelled").arg(path);
        return loaded;
    }
    QElapsedTimer timer;
    timer.start();
    if (progress)
        progress({ QStringLiteral("Indexing kernels"), 0.99 });
    auto index = std::make_shared<const KernelIndex>(loaded.profile, KernelNameMode::Demangled, cancel);
    if (!index->isComplete()) {
        loaded.profile.reset();
        loaded.result.profile.reset();
        loaded.result.cancelled = true;
        loaded.result.error = QStringLiteral("%1: loading cancelled").arg(path);
        return loaded;
    }
    loaded.kernelIndex = std::move(index);
    loaded.result.timings.push_back({ QStringLiteral("Index kernels"), timer.elapsed(), -1 });
    loaded.result.totalMilliseconds += timer.elapsed();
    return loaded;
}

} // namespace nsw

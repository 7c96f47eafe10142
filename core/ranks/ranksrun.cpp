// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ranks/ranksrun.h"

#include "core/nsys/reportexport.h"
#include "core/profile/profileloader.h"
#include "core/ranks/rankextract.h"
#include "core/ranks/rankmerge.h"
#include "core/ranks/summaryfile.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <thread>

namespace nsw {

namespace {

QString markerText(const QString& marker)
{
    return marker.isEmpty() ? QStringLiteral("automatic") : QStringLiteral("'%1'").arg(marker);
}

/// Reads @p paths on up to as many threads as cores (this thread one of them, reporting the progress).
std::vector<std::optional<Result<RankFile>>> readAll(
    const QStringList& paths, const QString& marker, const JobContext& job)
{
    std::vector<std::optional<Result<RankFile>>> results(std::size_t(paths.size()));
    std::atomic<std::size_t> next { 0 };
    std::atomic<std::size_t> done { 0 };
    // One export load already uses every core; summaries are small, so read several at once.
    auto work = [&](bool reporting) {
        for (std::size_t i = next++; i < results.size(); i = next++) {
            if (job.isCancelled())
                return;
            results[i] = readRankInput(paths[qsizetype(i)], marker, JobContext(job.cancelToken()));
            const std::size_t finished = ++done;
            if (reporting)
                job.report(QStringLiteral("Reading ranks"), double(finished) / double(results.size()),
                    QStringLiteral("%1/%2").arg(finished).arg(results.size()));
        }
    };
    const std::size_t threads
        = std::min<std::size_t>(std::max(QThread::idealThreadCount(), 1), std::max<std::size_t>(results.size(), 1));
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < threads; ++t)
        helpers.emplace_back(work, false);
    work(true);
    for (std::thread& t : helpers)
        t.join();
    return results;
}

} // namespace

QStringList expandRankInputs(const QStringList& inputs, std::vector<RankProblem>& problems)
{
    QStringList files;
    for (const QString& input : inputs) {
        const QFileInfo info(input);
        if (info.isDir()) {
            QStringList found;
            const QDir dir(input);
            const QString summaries = QStringLiteral("*.") + QLatin1String(kRankSummarySuffix);
            for (const QFileInfo& f : dir.entryInfoList({ summaries }, QDir::Files, QDir::Name))
                found << f.absoluteFilePath();
            found << profilesInFolder(input);
            if (found.isEmpty())
                problems.push_back({ { input },
                    QStringLiteral("%1: a folder without exports or rank summaries (*.sqlite, *.nsys-rep, *.%2)")
                        .arg(input, QLatin1String(kRankSummarySuffix)) });
            files << found;
        } else if (!info.exists()) {
            problems.push_back({ { input }, QStringLiteral("%1: no such file or folder").arg(input) });
        } else if (!info.isFile()) {
            problems.push_back({ { input }, QStringLiteral("%1: not a regular file").arg(input) });
        } else {
            files << input;
        }
    }
    return files;
}

Result<RankFile> readRankInput(const QString& path, const QString& iterationMarker, const JobContext& job)
{
    if (isRankSummaryFile(path)) {
        Result<RankFile> file = readRankSummary(path);
        if (file && file->iterationMarker != iterationMarker)
            return Result<RankFile>::failure(ErrorKind::Usage,
                QStringLiteral("%1: summarized with the %2 iteration marker, not %3 (summarize %4 again with "
                               "--iteration-marker, or ask for the same marker)")
                    .arg(path, markerText(file->iterationMarker), markerText(iterationMarker), file->exportPath));
        return file;
    }
    return summarizeTrace({ path, iterationMarker }, job);
}

Result<RankFile> summarizeTrace(const SummarizeRequest& request, const JobContext& job)
{
    job.report(QStringLiteral("Loading"), 0);
    // Absolute, so that what names the file reads the same whoever typed the path how (ranks over summaries made on
    // a cluster and over the exports give the same output).
    const QString trace = QFileInfo(request.trace).absoluteFilePath();
    const LoadResult load = ProfileLoader::load(trace, rankLoadOptions(), job.slice(0, 0.7));
    if (!load)
        return load.failureAs<RankFile>();
    QStringList warnings;
    for (const QString& w : load.warnings())
        warnings << QStringLiteral("%1: %2").arg(trace, w);
    return summarizeProfile(load->profile, request.iterationMarker, warnings, job.slice(0.7, 1));
}

Result<RanksResult> computeRanks(const RanksRequest& request, const JobContext& job)
{
    std::vector<RankProblem> problems;
    const QStringList paths = expandRankInputs(request.inputs, problems);
    auto read = readAll(paths, request.iterationMarker, job.slice(0, 0.8));
    if (job.isCancelled())
        return Result<RanksResult>::cancelled();
    std::vector<std::shared_ptr<const RankFile>> files;
    bool anyRead = false;
    for (std::size_t i = 0; i < read.size(); ++i) {
        Result<RankFile>& r = *read[i];
        if (r.isCancelled())
            return Result<RanksResult>::cancelled();
        anyRead = anyRead || r.ok() || r.error().kind == ErrorKind::NoData;
        if (r)
            files.push_back(std::make_shared<const RankFile>(std::move(*r)));
        else
            problems.push_back({ { paths[qsizetype(i)] }, r.errorMessage() });
    }
    Result<RanksResult> merged
        = mergeRanks(std::move(files), std::move(problems), request.iterationMarker, job.slice(0.8, 1));
    if (!merged && !merged.isCancelled() && !anyRead)
        return Result<RanksResult>::failure(ErrorKind::Input, merged.errorMessage());
    return merged;
}

} // namespace nsw

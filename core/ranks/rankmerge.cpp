// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ranks/rankmerge.h"

#include "core/iterations/iterations.h"
#include "core/ranks/rankalign.h"
#include "core/ranks/rankextract.h"
#include "core/ranks/rankfindings.h"
#include "core/util/timeformat.h"

#include <QDateTime>
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>

namespace nsw {

namespace {

QString utcText(TimeNs epochNs)
{
    return QDateTime::fromMSecsSinceEpoch(epochNs / 1'000'000, Qt::UTC).toString(Qt::ISODate);
}

/// The groups of files whose captures started within kSameRunWindowNs of the previous one, by start.
std::vector<std::vector<std::size_t>> startGroups(const std::vector<std::shared_ptr<const RankFile>>& files)
{
    std::vector<std::size_t> timed;
    for (std::size_t i = 0; i < files.size(); ++i)
        if (files[i]->sessionStartUtcNs != kNoTime)
            timed.push_back(i);
    std::stable_sort(timed.begin(), timed.end(),
        [&](std::size_t a, std::size_t b) { return files[a]->sessionStartUtcNs < files[b]->sessionStartUtcNs; });
    std::vector<std::vector<std::size_t>> groups;
    for (const std::size_t i : timed) {
        if (groups.empty()
            || files[i]->sessionStartUtcNs - files[groups.back().back()]->sessionStartUtcNs > kSameRunWindowNs)
            groups.emplace_back();
        groups.back().push_back(i);
    }
    return groups;
}

void fillCells(RanksResult& result)
{
    for (RankRow& row : result.ranks) {
        const RankSummary& rank = result.summaryOf(row);
        std::vector<TimeNs> durations;
        for (std::size_t i = 0; i < rank.iterations.size(); ++i) {
            const RankIteration& it = rank.iterations[i];
            RankIterationCell cell;
            cell.iteration = int(i);
            cell.start = it.start;
            cell.end = it.end;
            cell.computeNs = it.computeNs;
            cell.communicationNs = it.communicationNs;
            cell.memoryNs = it.memoryNs;
            cell.idleNs = it.idleNs();
            row.iterations.push_back(cell);
            durations.push_back(it.duration());
        }
        const std::vector<bool> outliers = robustOutliers(durations);
        for (std::size_t i = 0; i < outliers.size(); ++i)
            row.iterations[i].outlier = outliers[i];
    }
}

} // namespace

void dropRepeatedAndForeignFiles(
    std::vector<std::shared_ptr<const RankFile>>& files, std::vector<RankProblem>& problems)
{
    std::vector<char> keep(files.size(), 1);
    std::map<QString, std::size_t> firstOfExport;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto [it, added] = firstOfExport.try_emplace(files[i]->exportPath, i);
        if (added)
            continue;
        keep[i] = 0;
        const RankFile& first = *files[it->second];
        problems.push_back({ { first.inputPath(), files[i]->inputPath() },
            QStringLiteral("%1 holds the same ranks as %2 (both of %3): %1 left out")
                .arg(files[i]->inputPath(), first.inputPath(), files[i]->exportPath) });
    }
    std::vector<std::vector<std::size_t>> groups = startGroups(files);
    if (groups.size() > 1) {
        auto run = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
            return a.size() != b.size() ? a.size() < b.size()
                                        : *std::min_element(a.begin(), a.end()) > *std::min_element(b.begin(), b.end());
        });
        const TimeNs runStart = files[run->front()]->sessionStartUtcNs;
        for (auto g = groups.begin(); g != groups.end(); ++g) {
            if (g == run)
                continue;
            for (const std::size_t i : *g) {
                if (!keep[i])
                    continue;
                keep[i] = 0;
                const TimeNs apart = std::abs(files[i]->sessionStartUtcNs - runStart);
                problems.push_back({ { files[i]->inputPath() },
                    QStringLiteral("%1: from another run: its capture started at %2, %3 from the run of the other "
                                   "%4 input(s) (the first started at %5); left out")
                        .arg(files[i]->inputPath(), utcText(files[i]->sessionStartUtcNs), formatDuration(apart))
                        .arg(run->size())
                        .arg(utcText(runStart)) });
            }
        }
    }
    std::vector<std::shared_ptr<const RankFile>> kept;
    for (std::size_t i = 0; i < files.size(); ++i)
        if (keep[i])
            kept.push_back(std::move(files[i]));
    files = std::move(kept);
}

namespace {

RankRow rankRow(int rank, std::size_t file, std::size_t indexInFile)
{
    RankRow row;
    row.rank = rank;
    row.file = int(file);
    row.indexInFile = int(indexInFile);
    return row;
}

} // namespace

std::vector<RankRow> numberRanks(
    const std::vector<std::shared_ptr<const RankFile>>& files, std::vector<RankProblem>& problems)
{
    const bool fromNames = std::all_of(files.begin(), files.end(),
        [](const auto& f) { return f->ranks.size() == 1 && f->ranks.front().rankFromName >= 0; });
    std::vector<RankRow> rows;
    if (fromNames) {
        for (std::size_t f = 0; f < files.size(); ++f)
            rows.push_back(rankRow(files[f]->ranks.front().rankFromName, f, 0));
    } else {
        std::vector<std::size_t> order(files.size());
        for (std::size_t f = 0; f < files.size(); ++f)
            order[f] = f;
        auto number = [&](std::size_t f) {
            const int n = rankFromFileName(files[f]->exportPath);
            return n < 0 ? std::numeric_limits<int>::max() : n;
        };
        std::stable_sort(
            order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return number(a) < number(b); });
        int next = 0;
        for (const std::size_t f : order)
            for (std::size_t r = 0; r < files[f]->ranks.size(); ++r)
                rows.push_back(rankRow(next++, f, r));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const RankRow& a, const RankRow& b) { return a.rank < b.rank; });
    std::vector<RankRow> unique;
    for (RankRow& row : rows) {
        if (!unique.empty() && unique.back().rank == row.rank) {
            const QString first = files[std::size_t(unique.back().file)]->inputPath();
            const QString again = files[std::size_t(row.file)]->inputPath();
            problems.push_back({ { first, again },
                QStringLiteral("rank %1 twice: %2 and %3 both name it; %3 left out").arg(row.rank).arg(first, again) });
            continue;
        }
        unique.push_back(std::move(row));
    }
    return unique;
}

Result<RanksResult> mergeRanks(std::vector<std::shared_ptr<const RankFile>> files, std::vector<RankProblem> problems,
    const QString& iterationMarker, const JobContext& job)
{
    RanksResult result;
    result.iterationMarker = iterationMarker;
    dropRepeatedAndForeignFiles(files, problems);
    result.files = std::move(files);
    result.problems = std::move(problems);
    result.ranks = numberRanks(result.files, result.problems);
    if (result.ranks.empty()) {
        QStringList why;
        for (const RankProblem& p : result.problems)
            why << p.message;
        return Result<RanksResult>::failure(ErrorKind::NoData,
            why.isEmpty() ? QStringLiteral("no ranks: no input holds a process that ran kernels")
                          : QStringLiteral("no rank can be analysed: ") + why.join(QStringLiteral("; ")));
    }
    job.report(QStringLiteral("Matching collectives"), 0.1);
    fillCells(result);
    CollectiveMatch match = matchCollectives(result);
    alignRankClocks(result, match);
    job.report(QStringLiteral("Measuring waits"), 0.4);
    measureCollectives(result, match, job.slice(0.4, 0.9));
    if (job.isCancelled())
        return Result<RanksResult>::cancelled();
    job.report(QStringLiteral("Findings"), 0.9);
    result.findings = rankFindings(result);
    return result;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/profile/loadtypes.h"
#include "core/profile/metadatareader.h"
#include "core/profile/profileloader.h"
#include "core/profile/scantask.h"

#include <QElapsedTimer>
#include <QString>
#include <algorithm>
#include <memory>
#include <vector>

namespace nsw {

class SqliteDb;

/// One load of one SQLite export: open and check it, plan the chunks of its tables, scan them (scanscheduler.h), join
/// them into a Profile (chunkassembly.h), link GPU rows to their calls. ProfileLoader::load() is its entry point.
class LoadRun
{
public:
    LoadRun(const QString& path, const LoadOptions& options, const JobContext& job);
    ~LoadRun();

    /// The .nsys-rep the file was exported from (kept in the profile's metadata).
    void setReportPath(const QString& reportPath) { m_reportPath = reportPath; }
    LoadResult run();
    /// The same load in two stages: kernels, memory operations and graph launches first, handed to @p firstStage;
    /// then CUDA API calls, NVTX and OS runtime into a profile that shares the first stage's columns.
    LoadResult runStaged(const FirstStageCallback& firstStage);

private:
    /// @p fraction of the current stage, mapped onto the whole load.
    void report(const QString& stage, double fraction)
    {
        m_job.report(stage, std::clamp(m_progressBase + m_progressSpan * fraction, 0.0, 1.0));
    }
    /// Starts the clocks, opens the file and plans the chunks of its tables.
    bool openAndPlan(QElapsedTimer& stage);
    /// Scans the planned tables and joins their chunks into the profile.
    bool readTables(QElapsedTimer& stage);
    /// Links GPU rows to their launching calls, then hands the profile over.
    LoadResult joinAndFinish(QElapsedTimer& stage);
    /// Moves the tables of the second stage out of m_tasks; returns the first stage's share of the rows.
    double setAsideSecondStage();
    void time(const QString& stage, QElapsedTimer& timer, qint64 rows = -1)
    {
        m_outcome.timings.push_back({ stage, timer.restart(), rows });
    }
    bool addTable(unsigned part, TableKind kind, const char* table, const QString& stage);
    bool addTables();
    bool stopped() const { return m_cancel.isCancelled(); }
    /// Damage the load tolerated: in LoadResult::warnings (printed by the CLI) and in the profile's notes.
    void addWarning(const QString& warning)
    {
        if (!m_warnings.contains(warning))
            m_warnings.append(warning);
        if (!m_profile->meta.warnings.contains(warning))
            m_profile->meta.warnings.append(warning);
    }
    bool scanTables();
    void recordTimings();
    /// Joins the chunks into the profile (chunkassembly.h): ids, strings and names, NVTX domains, launch shapes, then
    /// the columns.
    void assemble();
    /// The names of ThreadNames rows (none in a staged load's first stage).
    Result<std::vector<RawThreadName>> threadNames();
    bool open();
    void noteMissingKernels();
    void finish();
    bool failWith(const QString& error)
    {
        m_failure = { loadErrorKind(error), error };
        return false;
    }
    bool failed() const { return !m_failure.message.isEmpty(); }
    LoadResult cancelled() const
    {
        return LoadResult(
            Error { ErrorKind::Cancelled, QStringLiteral("%1: loading cancelled").arg(m_path) }, m_warnings);
    }
    /// The failure recorded (failWith(), a scan's error or exception), or the cancel.
    LoadResult failure() const { return stopped() || !failed() ? cancelled() : LoadResult(m_failure, m_warnings); }
    LoadResult loaded()
    {
        m_outcome.profile = std::move(m_profile);
        m_outcome.totalMilliseconds = m_total.elapsed();
        return LoadResult(std::move(m_outcome), m_warnings);
    }

    QString m_path;
    QString m_reportPath;
    LoadOptions m_options;
    JobContext m_job;
    CancelToken m_cancel;
    CancelToken m_stop; ///< cancelled with m_cancel, or alone by a failed scan: stops the other scans
    QElapsedTimer m_total;
    LoadOutcome m_outcome; ///< the timings and access so far; the profile once whole
    Warnings m_warnings;
    Error m_failure; ///< empty message: none
    std::unique_ptr<SqliteDb> m_db;
    std::shared_ptr<Profile> m_profile;
    std::vector<std::unique_ptr<ScanTask>> m_tasks; ///< in table order, chunks in rowid order
    std::vector<std::unique_ptr<ScanTask>> m_secondStageTasks; ///< of a staged load, while the first stage runs
    bool m_readThreadNames = true; ///< false in a staged load's first stage: no table of it references threads
    double m_progressBase = 0;
    double m_progressSpan = 1;
};

} // namespace nsw

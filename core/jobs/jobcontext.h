// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"

#include <QString>
#include <algorithm>
#include <functional>

namespace nsw {

/// Where a job is: a stage ("kernels 1.2M/4.0M", "NVTX 45 %") and, when known, how far the whole job is.
struct Progress
{
    QString stage;
    double fraction = -1; ///< 0..1 over the whole job, -1 when unknown
    QString detail; ///< "1.2M/4.0M", shown after the stage
};

/// Called from the thread that runs the job, never concurrently for one job.
using ProgressFn = std::function<void(const Progress&)>;

/// What every core function from a request to a result receives: a cancel token it polls in every loop that can
/// run longer than ~50 ms, and a progress sink. A default JobContext never cancels and reports nowhere.
class JobContext
{
public:
    JobContext() = default;
    explicit JobContext(CancelToken cancel, ProgressFn progress = {})
        : m_cancel(std::move(cancel))
        , m_progress(std::move(progress))
    { }

    const CancelToken& cancelToken() const { return m_cancel; }
    bool isCancelled() const { return m_cancel.isCancelled(); }

    /// @p fraction is within this job's own 0..1 (mapped onto the caller's range by slice()).
    void report(const QString& stage, double fraction = -1, const QString& detail = {}) const
    {
        if (!m_progress)
            return;
        const double mapped = fraction < 0 ? -1 : m_from + (m_to - m_from) * std::clamp(fraction, 0.0, 1.0);
        m_progress({ stage, mapped, detail });
    }

    /// The same job seen as a step that covers [from, to] of this job's progress.
    JobContext slice(double from, double to) const
    {
        JobContext c = *this;
        c.m_from = m_from + (m_to - m_from) * from;
        c.m_to = m_from + (m_to - m_from) * to;
        return c;
    }

    /// The same progress sink with a child token: cancelling it stops this step only.
    JobContext withChildToken() const
    {
        JobContext c = *this;
        c.m_cancel = m_cancel.child();
        return c;
    }

private:
    CancelToken m_cancel;
    ProgressFn m_progress;
    double m_from = 0;
    double m_to = 1;
};

} // namespace nsw

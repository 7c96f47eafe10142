// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/jobs/handoff.h"

#include <QCoreApplication>
#include <QThreadPool>

namespace nsw {

QThreadPool* jobThreadPool()
{
    // Our own pool, not QThreadPool::globalInstance(): Qt's raster paint engine splits large fills across the global
    // pool and waits for them on the GUI thread, so analyses queued there for seconds froze the window (the load
    // strip stood still for 6 s after a 4M-kernel load while the panes' first analyses ran).
    static QThreadPool pool;
    static const bool drained = [] {
        // As Qt drains its global pool: jobs end while the application object still exists, not during static
        // destruction, when what they use may be gone.
        qAddPostRoutine([] { pool.waitForDone(); });
        return true;
    }();
    Q_UNUSED(drained);
    return &pool;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/jobs/handoff.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <sys/resource.h>
#include <unistd.h>

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

void yieldTheCpuToTheGuiThread()
{
    // The analyses share as few as two cores with the GUI thread: at nice 5 the GUI thread wins the CPU when both want
    // it, and the analyses lose nothing while the GUI is idle. Linux keeps a nice value per thread. The loader's
    // threads are not pool threads and keep their weight (niced, they slowed the load by a quarter). The command line
    // has no GUI thread: its jobs keep the weight of the process.
    static const bool window
        = QCoreApplication::instance() && QCoreApplication::instance()->inherits("QGuiApplication");
    thread_local const bool lowered = window && setpriority(PRIO_PROCESS, id_t(gettid()), 5) == 0;
    Q_UNUSED(lowered);
}

void runThisThreadOnLeftoverCpu()
{
    setpriority(PRIO_PROCESS, id_t(gettid()), 19);
}

} // namespace nsw

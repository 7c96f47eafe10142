// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/jobs/handoff.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <sched.h>
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

namespace {

/// In the window, the threads' nice values make a ladder of CPU weights on as few as two cores (Linux keeps a nice
/// value per thread, and a thread starts with its creator's): the GUI thread (nice 0, weight 1024) wins the CPU over
/// the load (nice 10, weight 110) 9 to 1 when both want it, the load wins over the panes' analyses (nice 15, weight 36)
/// 3 to 1, and the profile cache writer (SCHED_IDLE, weight 3) runs on what is left. Nobody loses anything while the
/// others are idle. With the load at the GUI thread's weight, showing the first stage of a 4M-kernel export took the
/// GUI thread 120 ms of CPU but 300 ms of wall time (issue 33); with the load at nice 5 (weight 335, a quarter of a
/// shared core left to it), 72 ms of CPU still took 112 ms. The command line has no GUI thread: its threads keep the
/// process's weight.
void lowerThisThreadInTheWindow(int nice)
{
    static const bool window
        = QCoreApplication::instance() && QCoreApplication::instance()->inherits("QGuiApplication");
    if (window)
        setpriority(PRIO_PROCESS, id_t(gettid()), nice);
}

} // namespace

void yieldTheCpuToTheGuiThread()
{
    thread_local const bool lowered = (lowerThisThreadInTheWindow(15), true);
    Q_UNUSED(lowered);
}

void runTheLoadBelowTheGuiThread()
{
    lowerThisThreadInTheWindow(10);
}

void runThisThreadOnLeftoverCpu()
{
    // At nice 19 (weight 15) the writer still took a fifth of the CPU between the end of a 4M-kernel load and the
    // last pane filled, on two cores: the panes waited for a file nobody waits for.
    const sched_param none {};
    if (sched_setscheduler(pid_t(gettid()), SCHED_IDLE, &none) != 0)
        setpriority(PRIO_PROCESS, id_t(gettid()), 19);
}

} // namespace nsw

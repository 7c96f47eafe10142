// SPDX-License-Identifier: GPL-3.0-or-later
// The jobs' thread pool: painting never waits for it (Qt 6.4's raster engine spreads large fills over
// QThreadPool::globalInstance() and waits for them on the painting thread: a 4M-kernel load froze the window ~6 s), and
// in the window its threads and the load's run below the GUI thread.
#include "core/jobs/cancel.h"
#include "core/jobs/handoff.h"

#include <QGuiApplication>
#include <QImage>
#include <QLinearGradient>
#include <QPainter>
#include <QSemaphore>
#include <QTest>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <sched.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

using namespace nsw;

namespace {

int niceOfThisThread()
{
    return getpriority(PRIO_PROCESS, id_t(gettid()));
}

} // namespace

class TestJobPool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void paintingDoesNotWaitForBusyJobs()
    {
        // Every worker of the jobs' pool busy until told to stop, as long analyses keep it.
        const int workers = jobThreadPool()->maxThreadCount();
        const CancelToken stop;
        QSemaphore started;
        std::atomic<int> finished { 0 };
        for (int i = 0; i < workers; ++i)
            startInPool([&started, &finished, stop] {
                started.release();
                while (!stop.isCancelled())
                    std::this_thread::yield();
                ++finished;
            });
        QVERIFY(started.tryAcquire(workers, 5000));

        // A watchdog that ends the jobs after 30 s (a loaded CI machine paints slowly), should the paint below wait for
        // them: it then finds them ended.
        std::mutex mutex;
        std::condition_variable painted;
        bool done = false;
        std::thread watchdog([&] {
            std::unique_lock lock(mutex);
            painted.wait_for(lock, std::chrono::seconds(30), [&] { return done; });
            stop.cancel();
        });

        QImage image(3840, 2160, QImage::Format_ARGB32_Premultiplied);
        QPainter painter(&image);
        QLinearGradient gradient(0, 0, 3840, 2160);
        gradient.setColorAt(0, Qt::white);
        gradient.setColorAt(1, Qt::darkBlue);
        for (int i = 0; i < 4; ++i)
            painter.fillRect(image.rect(), gradient);
        painter.end();
        const int finishedWhilePainting = finished.load();
        {
            const std::lock_guard lock(mutex);
            done = true;
        }
        painted.notify_one();
        watchdog.join();
        QTRY_COMPARE(finished.load(), workers);
        QCOMPARE(finishedWhilePainting, 0); // the paint did not need the jobs' workers
        QCOMPARE(image.pixelColor(0, 0), QColor(Qt::white)); // and it painted
    }

    void threadsRunBelowTheGuiThread()
    {
        // The ladder of CPU weights in the window: GUI thread, then the load and the threads it starts (its scan
        // workers), then the analyses. (A thread can lower its own weight, never raise it: under a process niced
        // further, every thread keeps the process's value.)
        const int gui = niceOfThisThread();
        int load = -100, scanWorker = -100;
        std::thread([&] {
            runTheLoadBelowTheGuiThread();
            load = niceOfThisThread();
            std::thread([&] { scanWorker = niceOfThisThread(); }).join();
        }).join();
        std::atomic<int> analysis { -100 };
        startInPool([&] { analysis = niceOfThisThread(); });
        QTRY_VERIFY(analysis.load() != -100);
        QCOMPARE(load, std::max(gui, 10));
        QCOMPARE(scanWorker, load);
        QCOMPARE(analysis.load(), std::max(gui, 15));
        QCOMPARE(niceOfThisThread(), gui);
    }

    void cacheWriterRunsOnlyOnIdleCpu()
    {
        // The profile cache writer at nice 19 still took a fifth of the CPU from the panes after a 4M-kernel load: it
        // runs under SCHED_IDLE, and its thread alone.
        int writer = -1;
        std::thread([&] {
            runThisThreadOnLeftoverCpu();
            writer = sched_getscheduler(0);
        }).join();
        QCOMPARE(writer, SCHED_IDLE);
        QCOMPARE(sched_getscheduler(0), SCHED_OTHER);
    }
};

QTEST_MAIN(TestJobPool)
#include "tst_jobpool.moc"

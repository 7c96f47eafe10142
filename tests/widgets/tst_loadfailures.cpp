// SPDX-License-Identifier: GPL-3.0-or-later
// Failures never take the window down (issue 38 §3): an exception inside a load (std::bad_alloc, a bug) is the
// load's error, shown in a banner while the open profiles stay; and a real out-of-memory load, in a child process
// whose address space is limited (RLIMIT_AS) below what a generated export needs, ends in the banner "Not enough
// memory to load X: it needs about N GB" in the window and in exit code 5 from the command line.
#include "app/cli/cli.h"
#include "app/mainwindow.h"
#include "core/session/loadjob.h"
#include "core/session/workbench.h"
#include "generator.h"
#include "loaderfixtures.h"
#include "widgets/shell/loaderrorbanners.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <stdexcept>
#include <sys/resource.h>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {
const char* const kWindowChild = "--window-under-address-limit";
const char* const kCliChild = "--cli-under-address-limit";
/// What the limited child may allocate beyond what it has mapped when the limit is set: the load's threads' stacks
/// (8 MiB each) and some working memory, far below what the big export needs (about 0.37 times its size).
constexpr qint64 kHeadroomBytes = 64ll << 20;

qint64 mappedBytes()
{
    QFile statm(u"/proc/self/statm"_s);
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    return statm.readAll().split(' ').value(0).toLongLong() * qint64(getpagesize());
}

/// Limits this process's address space to what it maps now plus kHeadroomBytes.
bool limitAddressSpace()
{
    const rlim_t limit = rlim_t(mappedBytes() + kHeadroomBytes);
    const rlimit r { limit, limit };
    return setrlimit(RLIMIT_AS, &r) == 0;
}

/// The child of addressSpaceLimitIsABannerAndTheOpenProfileStays: opens @p small, limits its address space, opens
/// @p big; prints what the window shows.
int windowChild(int argc, char** argv)
{
    QApplication app(argc, argv);
    MainWindow w(true);
    w.resize(1200, 800);
    w.show();
    QSignalSpy ended(&w, &MainWindow::loadEnded);
    w.openFiles({ QString::fromLocal8Bit(argv[2]) });
    if (!ended.wait(60000) || !ended.front().at(1).toBool())
        return 10;
    ended.clear();
    if (!limitAddressSpace())
        return 11;
    w.openFiles({ QString::fromLocal8Bit(argv[3]) });
    if (!ended.wait(120000))
        return 12;
    QTextStream out(stdout);
    out << "open profiles: " << w.workbench()->sessions().size() << "\n";
    for (std::size_t i = 0; i < w.errorBanners()->errors().size(); ++i) {
        const QLabel* label = w.errorBanners()->banner(int(i))->findChild<QLabel*>(u"loadErrorText"_s);
        out << "banner: " << (label && label->isVisibleTo(&w) ? label->text() : u"(hidden)"_s) << "\n";
    }
    return 0;
}

/// The child of commandLineSaysOutOfMemory: `info --load BIG` once the address space is limited.
int cliChild(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (!limitAddressSpace())
        return 11;
    return cli::run({ u"info"_s, u"--load"_s, QString::fromLocal8Bit(argv[2]) });
}
} // namespace

class TestLoadFailures : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_small;
    QString m_big;

    /// A generated export a limited process cannot load (about 130 MB of columns and more while loading).
    QString bigExport()
    {
        if (m_big.isEmpty()) {
            tracegen::GeneratorConfig c;
            c.outPath = m_dir.filePath(u"big.sqlite"_s);
            c.kernels = 600000;
            c.layers = 4;
            tracegen::generateExport(c);
            m_big = c.outPath;
        }
        return m_big;
    }

    struct ChildRun
    {
        int exitCode = -1;
        QString out;
        QString err;
    };
    ChildRun runChild(const QStringList& args)
    {
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"MALLOC_ARENA_MAX"_s, u"1"_s); // one heap: no 64 MiB arena reservation per thread
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(), args);
        if (!child.waitForFinished(180000))
            return {};
        return { child.exitStatus() == QProcess::NormalExit ? child.exitCode() : -2,
            QString::fromLocal8Bit(child.readAllStandardOutput()),
            QString::fromLocal8Bit(child.readAllStandardError()) };
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_small = m_dir.filePath(u"small.sqlite"_s);
        QString error;
        QVERIFY2(test::writeModernExport(m_small, &error), qPrintable(error));
    }

    void cleanup()
    {
        LoadJob::setProgressHookForTesting({});
        QVERIFY(LoadJob::waitForDetachedLoads(20000));
    }

    void exceptionInALoadIsItsBanner_data()
    {
        QTest::addColumn<bool>("outOfMemory");
        QTest::addColumn<QString>("banner");
        QTest::newRow("std::bad_alloc while reading the kernels")
            << true << u"Not enough memory to load <b>modern.sqlite</b>: it needs about 0.1 GB"_s;
        QTest::newRow("an internal error while reading the kernels")
            << false << u"Could not open <b>modern.sqlite</b>: loading %1 failed: internal error: a bug"_s;
    }

    void exceptionInALoadIsItsBanner()
    {
        QFETCH(bool, outOfMemory);
        QFETCH(QString, banner);
        const QString failing = m_dir.filePath(u"modern.sqlite"_s);
        if (!QFile::exists(failing))
            QVERIFY(QFile::copy(m_small, failing));
        MainWindow w(true);
        w.resize(1200, 800);
        w.show();
        QSignalSpy ended(&w, &MainWindow::loadEnded);
        w.openFiles({ m_small });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        LoadJob::setProgressHookForTesting([&](const QString& path, const QString& stage, const CancelToken&) {
            if (path == QFileInfo(failing).absoluteFilePath() && stage.startsWith(u"Reading"_s)) {
                if (outOfMemory)
                    throw std::bad_alloc();
                throw std::runtime_error("a bug");
            }
        });
        w.openFiles({ failing });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 20000);
        QCOMPARE(ended.at(1).at(1).toBool(), false);
        QCOMPARE(int(w.errorBanners()->errors().size()), 1);
        QCOMPARE(w.errorBanners()->errors().front().kind, outOfMemory ? ErrorKind::OutOfMemory : ErrorKind::Internal);
        const QLabel* label = w.errorBanners()->banner(0)->findChild<QLabel*>(u"loadErrorText"_s);
        QVERIFY(label && label->isVisibleTo(&w));
        QVERIFY2(label->text().startsWith(QString(banner).replace(u"%1"_s, QFileInfo(failing).absoluteFilePath())),
            qPrintable(label->text()));
        QCOMPARE(w.workbench()->sessions().size(), std::size_t(1)); // the open profile stays
        QCOMPARE(w.workbench()->current()->path(), QFileInfo(m_small).absoluteFilePath());
    }

#ifndef NSW_SANITIZED // a sanitizer maps terabytes of shadow and aborts on a failed allocation instead of throwing
    void addressSpaceLimitIsABannerAndTheOpenProfileStays()
    {
        const ChildRun run = runChild({ QString::fromLatin1(kWindowChild), m_small, bigExport() });
        QVERIFY2(run.exitCode == 0, qPrintable(u"exit %1\n%2\n%3"_s.arg(run.exitCode).arg(run.out, run.err)));
        QVERIFY2(run.out.contains(u"open profiles: 1\n"_s), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"banner: Not enough memory to load <b>big.sqlite</b>: it needs about "_s),
            qPrintable(run.out + run.err));
    }

    void commandLineSaysOutOfMemory()
    {
        const ChildRun run = runChild({ QString::fromLatin1(kCliChild), bigExport() });
        QCOMPARE(run.exitCode, int(cli::ExitOutOfMemory));
        QVERIFY2(
            run.err.contains(u"not enough memory to load %1: it needs about "_s.arg(bigExport())), qPrintable(run.err));
    }
#endif
};

int main(int argc, char** argv)
{
    if (argc == 4 && qstrcmp(argv[1], kWindowChild) == 0)
        return windowChild(argc, argv);
    if (argc == 3 && qstrcmp(argv[1], kCliChild) == 0)
        return cliChild(argc, argv);
    QApplication app(argc, argv);
    TestLoadFailures test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_loadfailures.moc"

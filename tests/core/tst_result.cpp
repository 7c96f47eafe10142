// SPDX-License-Identifier: GPL-3.0-or-later
// Result<T>: reading the value of a failed result stops the program with the error it did not check (never undefined
// behaviour). Each access runs in a child process of this test, which must crash with that error on stderr.
#include "core/jobs/result.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTest>

using namespace nsw;

namespace {
const char* const kChildFlag = "--read-failed-result";

struct Point
{
    int x = 0;
};

/// The child: reads the value of a failed result the way @p access names. Never returns normally.
int readFailedResult(const QByteArray& access)
{
    Result<Point> failed = Result<Point>::failure(ErrorKind::Input, QStringLiteral("x.sqlite: no such table: Kernels"));
    int x = -1;
    if (access == "value")
        x = failed.value().x;
    else if (access == "star")
        x = (*failed).x;
    else if (access == "arrow")
        x = failed->x;
    else if (access == "const arrow")
        x = std::as_const(failed)->x;
    else if (access == "moved value")
        x = std::move(failed).value().x;
    return x == -1 ? 3 : 4;
}
} // namespace

class TestResult : public QObject
{
    Q_OBJECT

private slots:
    void valueOfAnOkResult()
    {
        Result<Point> ok(Point { 7 });
        QVERIFY(ok.ok());
        QCOMPARE(ok.value().x, 7);
        QCOMPARE(ok->x, 7);
        QCOMPARE((*ok).x, 7);
    }

    void readingAFailedResultStopsWithItsError_data()
    {
        QTest::addColumn<QByteArray>("access");
        for (const char* access : { "value", "star", "arrow", "const arrow", "moved value" })
            QTest::newRow(access) << QByteArray(access);
    }

    void readingAFailedResultStopsWithItsError()
    {
        QFETCH(QByteArray, access);
        QProcess child;
        child.start(
            QCoreApplication::applicationFilePath(), { QString::fromLatin1(kChildFlag), QString::fromLatin1(access) });
        QVERIFY(child.waitForFinished(20000));
        const QString err = QString::fromLocal8Bit(child.readAllStandardError());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        QVERIFY2(err.contains(QLatin1String("the value of a failed result was read without checking it; its error: "
                                            "x.sqlite: no such table: Kernels")),
            qPrintable(err));
    }
};

int main(int argc, char** argv)
{
    if (argc == 3 && qstrcmp(argv[1], kChildFlag) == 0)
        return readFailedResult(QByteArray(argv[2]));
    QCoreApplication app(argc, argv);
    TestResult test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_result.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The FLOPs-per-NVTX-range file `mfu --ranges` reads and the MFU dialog's table saves: what loads, what is refused
// (with the file's name), and a save read back as written.
#include "core/diagnostics/rangeflops.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

namespace {

QString write(const QTemporaryDir& dir, const QByteArray& bytes)
{
    const QString path = dir.filePath(QStringLiteral("ranges.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(bytes);
    return path;
}

} // namespace

class TestRangeFlops : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void load_data();
    void load();
    void saveReadsBack();
    void saveRefuses_data();
    void saveRefuses();
};

void TestRangeFlops::load_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error"); ///< empty: loads
    QTest::newRow("numbers and objects") << QByteArray(
        R"({"fwd": 2e11, "re:layer_\\d+": {"flops": 1e9, "bytes": 4e6}})")
                                         << QString();
    QTest::newRow("not JSON") << QByteArray("fwd = 2") << QStringLiteral("not a JSON object");
    QTest::newRow("zero FLOPs") << QByteArray(R"({"fwd": 0})") << QStringLiteral("\"fwd\": FLOPs must be a number > 0");
    QTest::newRow("FLOPs as a string") << QByteArray(R"({"fwd": "2e11"})")
                                       << QStringLiteral("\"fwd\": FLOPs must be a number > 0");
    QTest::newRow("bytes as a string") << QByteArray(R"({"fwd": {"flops": 1, "bytes": "4e6"}})")
                                       << QStringLiteral("\"fwd\": bytes must be a number >= 0");
    QTest::newRow("bad regex") << QByteArray(R"({"re:(": 1})") << QStringLiteral("not a valid regular expression");
    QTest::newRow("empty") << QByteArray("{}") << QStringLiteral("no ranges");
}

void TestRangeFlops::load()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const QString path = write(dir, json);
    const Result<std::vector<RangeFlops>> r = loadRangeFlops(path);
    if (error.isEmpty()) {
        QVERIFY2(r, qPrintable(r.errorMessage()));
        QCOMPARE(r->size(), std::size_t(2));
        QCOMPARE((*r)[0].pattern, QStringLiteral("fwd"));
        QCOMPARE((*r)[0].flops, 2e11);
        QCOMPARE((*r)[1].pattern, QStringLiteral("re:layer_\\d+"));
        QCOMPARE((*r)[1].bytes, 4e6);
        return;
    }
    QVERIFY(!r);
    QVERIFY2(r.errorMessage().startsWith(path), qPrintable(r.errorMessage()));
    QVERIFY2(r.errorMessage().contains(error), qPrintable(r.errorMessage()));
}

void TestRangeFlops::saveReadsBack()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("flops.json"));
    const std::vector<RangeFlops> ranges { { QStringLiteral("re:layer_\\d+"), 1.25e9, 4e6 },
        { QStringLiteral("attention"), 3e11, 0 } };
    const Status saved = saveRangeFlops(path, ranges);
    QVERIFY2(saved, qPrintable(saved.errorMessage()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    // As a user would write it: a number without bytes, an object with them; JSON escapes the backslash.
    const QByteArray text = f.readAll();
    QVERIFY2(text.contains(R"("attention": 300000000000)"), text.constData());
    QVERIFY2(text.contains(R"("re:layer_\\d+": {)"), text.constData());
    const Result<std::vector<RangeFlops>> back = loadRangeFlops(path);
    QVERIFY2(back, qPrintable(back.errorMessage()));
    QCOMPARE(back->size(), std::size_t(2));
    QCOMPARE((*back)[0].pattern, QStringLiteral("attention")); // JSON objects keep their keys in name order
    QCOMPARE((*back)[0].flops, 3e11);
    QCOMPARE((*back)[0].bytes, 0.0);
    QCOMPARE((*back)[1].pattern, QStringLiteral("re:layer_\\d+"));
    QCOMPARE((*back)[1].flops, 1.25e9);
    QCOMPARE((*back)[1].bytes, 4e6);
    // Saved again over itself: a ranges file may be replaced.
    QVERIFY(saveRangeFlops(path, { { QStringLiteral("fwd"), 1, 0 } }));
    QCOMPARE(loadRangeFlops(path)->size(), std::size_t(1));
}

void TestRangeFlops::saveRefuses_data()
{
    QTest::addColumn<QString>("target"); ///< "file" (a trace-like file), "dir", "dev"
    QTest::addColumn<QString>("ranges"); ///< "twice", "zero", "good"
    QTest::addColumn<QString>("error");
    QTest::newRow("a range twice") << QString() << QStringLiteral("twice") << QStringLiteral("\"fwd\" twice");
    QTest::newRow("zero FLOPs") << QString() << QStringLiteral("zero") << QStringLiteral("FLOPs must be a number > 0");
    QTest::newRow("over a file that is not a ranges file")
        << QStringLiteral("file") << QStringLiteral("good") << QStringLiteral("not overwritten");
    QTest::newRow("a folder") << QStringLiteral("dir") << QStringLiteral("good")
                              << QStringLiteral("not a regular file");
    QTest::newRow("a device") << QStringLiteral("dev") << QStringLiteral("good")
                              << QStringLiteral("not a regular file");
}

void TestRangeFlops::saveRefuses()
{
    QFETCH(QString, target);
    QFETCH(QString, ranges);
    QFETCH(QString, error);
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("out.json"));
    const QByteArray trace("SQLite format 3\0 not JSON", 25);
    if (target == QLatin1String("file"))
        path = write(dir, trace);
    else if (target == QLatin1String("dir"))
        path = dir.path();
    else if (target == QLatin1String("dev"))
        path = QStringLiteral("/dev/null");
    std::vector<RangeFlops> list { { QStringLiteral("fwd"), ranges == QLatin1String("zero") ? 0.0 : 1e9, 0 } };
    if (ranges == QLatin1String("twice"))
        list.push_back(list.front());
    const Status saved = saveRangeFlops(path, list);
    QVERIFY(!saved);
    QVERIFY2(saved.errorMessage().startsWith(path) && saved.errorMessage().contains(error),
        qPrintable(saved.errorMessage()));
    if (target == QLatin1String("file")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), trace); // untouched
    }
}

QTEST_GUILESS_MAIN(TestRangeFlops)
#include "tst_rangeflops.moc"

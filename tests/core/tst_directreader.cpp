// SPDX-License-Identifier: GPL-3.0-or-later
// DirectReader: reads around the page cache, in blocks, with the next block read ahead. Every byte read is checked
// against the formula that wrote the file; the file lives next to the test binary, on the build's disk (a tmpfs may
// refuse O_DIRECT).
#include "core/sqlite/directreader.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cstdint>
#include <unistd.h>
#include <vector>

using namespace nsw;

namespace {

constexpr std::int64_t kBlock = DirectReader::kBlockBytes;
/// Four whole blocks and part of a fifth: reads cross block edges and end in a short last block.
constexpr std::int64_t kFileBytes = 4 * kBlock + 12345;

char byteAt(std::int64_t offset)
{
    return char(std::uint32_t(offset * 2654435761u) >> 13);
}

QString writePatternFile(const QTemporaryDir& dir, std::int64_t bytes)
{
    const QString path = dir.filePath(QStringLiteral("pattern.bin"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    std::vector<char> data(static_cast<std::size_t>(bytes));
    for (std::int64_t i = 0; i < bytes; ++i)
        data[std::size_t(i)] = byteAt(i);
    return file.write(data.data(), bytes) == bytes ? path : QString();
}

/// Where the first byte of @p got differs from the file's formula (or from zeros past @p fileBytes); -1 when none.
std::int64_t firstWrongByte(const std::vector<char>& got, std::int64_t offset, std::int64_t fileBytes)
{
    for (std::size_t i = 0; i < got.size(); ++i) {
        const std::int64_t at = offset + std::int64_t(i);
        if (got[i] != (at < fileBytes ? byteAt(at) : char(0)))
            return at;
    }
    return -1;
}

struct Fixture
{
    QTemporaryDir dir { QCoreApplication::applicationDirPath() + QStringLiteral("/directreader-XXXXXX") };
    QString path = writePatternFile(dir, kFileBytes);
    std::unique_ptr<DirectReader> reader = DirectReader::open(QFile::encodeName(path).constData());
};

} // namespace

class TestDirectReader : public QObject
{
    Q_OBJECT

private slots:
    void opensRegularFiles()
    {
        Fixture f;
        QVERIFY(!f.path.isEmpty());
        QVERIFY2(f.reader, "O_DIRECT refused on the build's disk");
        QCOMPARE(f.reader->size(), kFileBytes);
        QVERIFY(!DirectReader::open(QFile::encodeName(f.dir.path()).constData())); // a directory
        QVERIFY(!DirectReader::open("/dev/null"));
        QVERIFY(!DirectReader::open(QFile::encodeName(f.dir.filePath(QStringLiteral("missing"))).constData()));
        QFile empty(f.dir.filePath(QStringLiteral("empty")));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        QVERIFY(!DirectReader::open(QFile::encodeName(empty.fileName()).constData()));
    }

    void readsWhatTheFileHolds_data()
    {
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<int>("amount");
        QTest::addColumn<int>("outcome");
        const int whole = int(DirectReader::Outcome::Whole);
        const int shortRead = int(DirectReader::Outcome::Short);
        QTest::newRow("first page") << qint64(0) << 4096 << whole;
        QTest::newRow("SQLite's header, 100 bytes") << qint64(0) << 100 << whole;
        QTest::newRow("unaligned, inside a block") << qint64(kBlock + 77) << 5000 << whole;
        QTest::newRow("across a block edge") << qint64(2 * kBlock - 1000) << 4096 << whole;
        QTest::newRow("across two block edges") << qint64(kBlock - 10) << int(kBlock + 20) << whole;
        QTest::newRow("the last page, short block") << qint64(kFileBytes - 4096) << 4096 << whole;
        QTest::newRow("over the end: zeros after it") << qint64(kFileBytes - 100) << 4096 << shortRead;
        QTest::newRow("past the end") << qint64(kFileBytes + 4096) << 4096 << shortRead;
    }

    void readsWhatTheFileHolds()
    {
        QFETCH(qint64, offset);
        QFETCH(int, amount);
        QFETCH(int, outcome);
        Fixture f;
        QVERIFY(f.reader);
        std::vector<char> got(std::size_t(amount), char(0x5a));
        QCOMPARE(int(f.reader->read(got.data(), amount, offset)), outcome);
        QCOMPARE(firstWrongByte(got, offset, kFileBytes), qint64(-1));
    }

    /// Page after page, forward (blocks are read ahead) and then backward (each read when needed).
    void scansEveryPage_data()
    {
        QTest::addColumn<bool>("forward");
        QTest::newRow("forward") << true;
        QTest::newRow("backward") << false;
    }

    void scansEveryPage()
    {
        QFETCH(bool, forward);
        Fixture f;
        QVERIFY(f.reader);
        const std::int64_t pages = (kFileBytes + 4095) / 4096;
        std::vector<char> page(4096);
        for (std::int64_t i = 0; i < pages; ++i) {
            const std::int64_t offset = 4096 * (forward ? i : pages - 1 - i);
            const auto outcome = f.reader->read(page.data(), 4096, offset);
            QCOMPARE(
                outcome, offset + 4096 <= kFileBytes ? DirectReader::Outcome::Whole : DirectReader::Outcome::Short);
            QCOMPARE(firstWrongByte(page, offset, kFileBytes), qint64(-1));
        }
    }

    /// A file cut short after it was opened: what is gone reads as zeros with a short read, never garbage.
    void fileTruncatedAfterOpen()
    {
        Fixture f;
        QVERIFY(f.reader);
        std::vector<char> page(4096);
        QCOMPARE(f.reader->read(page.data(), 4096, 0), DirectReader::Outcome::Whole); // block 0 held
        const std::int64_t remaining = kBlock + 8192;
        QCOMPARE(::truncate(QFile::encodeName(f.path).constData(), remaining), 0);
        QCOMPARE(f.reader->read(page.data(), 4096, 2 * kBlock), DirectReader::Outcome::Short);
        QCOMPARE(firstWrongByte(page, 2 * kBlock, remaining), qint64(-1));
        QCOMPARE(f.reader->read(page.data(), 4096, kBlock + 4096), DirectReader::Outcome::Whole);
        QCOMPARE(firstWrongByte(page, kBlock + 4096, remaining), qint64(-1));
    }
};

QTEST_GUILESS_MAIN(TestDirectReader)
#include "tst_directreader.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The profile cache's container (core/profilecache/cachefile.h): sections written and read back; a file cut short,
// grown, damaged or crafted (sizes past the end, a huge directory, a symlink to a device, a FIFO) refused before
// anything is mapped; temporary files until commit, and two writers that never mix.
#include "core/profilecache/cachefile.h"
#include "core/profilecache/checksum.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace nsw;
using namespace nsw::cachefile;

namespace {

// The layout the file format documents (cachefile.h): a 128-byte header whose last 8 bytes are the checksum of the
// 120 before them, directory offset at byte 32, directory count at 40, directory checksum at 48; 96-byte entries
// (name[64], offset, bytes, checksum, elementSize, reserved).
constexpr int kHeaderBytes = 128;
constexpr int kEntryBytes = 96;

template <typename T> T readAt(const QByteArray& bytes, qsizetype at)
{
    T v;
    std::memcpy(&v, bytes.constData() + at, sizeof v);
    return v;
}
template <typename T> void writeAt(QByteArray& bytes, qsizetype at, T v)
{
    std::memcpy(bytes.data() + at, &v, sizeof v);
}

/// Recomputes the directory's and the header's checksums, as a forger would.
void reseal(QByteArray& bytes)
{
    const auto directory = qsizetype(readAt<std::uint64_t>(bytes, 32));
    const auto count = qsizetype(readAt<std::uint64_t>(bytes, 40));
    writeAt<std::uint64_t>(bytes, 48, Checksum::of(bytes.constData() + directory, std::size_t(count * kEntryBytes)));
    writeAt<std::uint64_t>(bytes, kHeaderBytes - 8, Checksum::of(bytes.constData(), kHeaderBytes - 8));
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile::remove(path);
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

const std::vector<std::int32_t> kIndices = { 0, 3, -1, 2, 1 };
const QByteArray kText = "a small section";

/// A valid file: "indices" (int32 values 0..3 or -1) and "text".
bool writeSample(const QString& path)
{
    Result<std::unique_ptr<Writer>> w = Writer::create(path);
    return w && (*w)->add("indices", kIndices.data(), kIndices.size() * 4, 4)
        && (*w)->add("text", kText.constData(), std::size_t(kText.size()), 1) && (*w)->commit().ok();
}

} // namespace

class TestCacheFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void sectionsReadBackAsWritten()
    {
        const QString path = m_dir.filePath(QStringLiteral("sample.bin"));
        QVERIFY(writeSample(path));
        Result<std::unique_ptr<Reader>> r = Reader::open(path);
        QVERIFY2(r, qPrintable(r.errorMessage()));
        QCOMPARE((*r)->sections().size(), std::size_t(2));
        const Section* indices = (*r)->find("indices");
        QVERIFY(indices);
        QCOMPARE(indices->count(), std::uint64_t(kIndices.size()));
        QCOMPARE(indices->offset % kAlignment, std::uint64_t(0));
        QCOMPARE(*(*r)->read("text"), kText);
        const std::map<QByteArray, ValueCheck> checks { { "indices", { ValueCheck::Type::Int32, -1, 3, {} } } };
        const Status verified = (*r)->verify(checks, CancelToken::never());
        QVERIFY2(verified, qPrintable(verified.errorMessage()));
        Result<std::shared_ptr<const Mapping>> mapping = (*r)->map();
        QVERIFY(mapping);
        std::vector<std::int32_t> mapped(kIndices.size());
        std::memcpy(mapped.data(), (*mapping)->at(indices->offset), indices->bytes);
        QCOMPARE(mapped, kIndices);
    }

    void sectionMadeInPartsReadsBackWhole_data()
    {
        QTest::addColumn<qint64>("values");
        QTest::newRow("empty") << qint64(0);
        QTest::newRow("under one part") << qint64(1000);
        // 4 MiB parts: 2.5 parts, the last one partial.
        QTest::newRow("several parts") << qint64(5 << 19);
    }
    void sectionMadeInPartsReadsBackWhole()
    {
        QFETCH(qint64, values);
        const QString path = m_dir.filePath(QStringLiteral("parts.bin"));
        const auto valueAt = [](std::uint64_t i) { return std::uint32_t(i * 2654435761u); };
        {
            Result<std::unique_ptr<Writer>> w = Writer::create(path);
            QVERIFY(w);
            QVERIFY((*w)->add("text", kText.constData(), std::size_t(kText.size()), 1)); // not at offset 0
            std::uint64_t expectedOffset = 0;
            QVERIFY(
                (*w)->add("values", std::uint64_t(values) * 4, 4, [&](std::uint64_t offset, char* out, std::size_t n) {
                    QCOMPARE(offset, expectedOffset); // in order, whole values
                    QCOMPARE(n % 4, std::size_t(0));
                    for (std::size_t k = 0; k < n / 4; ++k) {
                        const std::uint32_t v = valueAt(offset / 4 + k);
                        std::memcpy(out + 4 * k, &v, 4);
                    }
                    expectedOffset += n;
                }));
            QCOMPARE(expectedOffset, std::uint64_t(values) * 4);
            QVERIFY((*w)->commit());
        }
        Result<std::unique_ptr<Reader>> r = Reader::open(path);
        QVERIFY2(r, qPrintable(r.errorMessage()));
        const Section* section = (*r)->find("values");
        QVERIFY(section);
        QCOMPARE(section->count(), std::uint64_t(values));
        QCOMPARE(section->offset % kAlignment, std::uint64_t(0));
        const Status verified = (*r)->verify({}, CancelToken::never()); // the checksum of the parts is the section's
        QVERIFY2(verified, qPrintable(verified.errorMessage()));
        const Result<QByteArray> bytes = (*r)->read("values");
        QVERIFY(bytes);
        for (qint64 i = 0; i < values; ++i) {
            std::uint32_t v;
            std::memcpy(&v, bytes->constData() + 4 * i, 4);
            if (v != valueAt(std::uint64_t(i)))
                QFAIL(qPrintable(QStringLiteral("value %1 differs").arg(i)));
        }
    }

    void nothingUnderTheFinalNameUntilCommit()
    {
        const QString path = m_dir.filePath(QStringLiteral("pending.bin"));
        {
            Result<std::unique_ptr<Writer>> w = Writer::create(path);
            QVERIFY(w);
            QVERIFY((*w)->add("text", kText.constData(), std::size_t(kText.size()), 1));
            QVERIFY(!QFileInfo::exists(path));
            // A writer that stops without committing (a crash would leave the temporary file: it never has the final
            // name, and the cache removes such files once they are an hour old) removes its temporary file.
        }
        QVERIFY(!QFileInfo::exists(path));
        QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("pending.bin*") }, QDir::Files), QStringList());
    }

    void refusesBrokenAndCraftedFiles_data()
    {
        QTest::addColumn<int>("damage");
        QTest::addColumn<QString>("says");
        QTest::addColumn<bool>("atOpen"); // refused by open(), else by verify()
        QTest::addRow("cut short by one byte") << 0 << QStringLiteral("cut short") << true;
        QTest::addRow("grown by one byte") << 1 << QStringLiteral("cut short or grown") << true;
        QTest::addRow("a byte of a section flipped") << 2 << QStringLiteral("damaged section text") << false;
        QTest::addRow("a byte of the header flipped") << 3 << QStringLiteral("damaged header") << true;
        QTest::addRow("crafted: a section running past the directory")
            << 4 << QStringLiteral("outside the file") << true;
        QTest::addRow("crafted: a section starting past the end") << 5 << QStringLiteral("outside the file") << true;
        QTest::addRow("crafted: a billion sections") << 6 << QStringLiteral("directory is not where") << true;
        QTest::addRow("crafted: element size 0") << 7 << QStringLiteral("malformed") << true;
        QTest::addRow("crafted: an index out of range, checksums right")
            << 8 << QStringLiteral("index out of range") << false;
        QTest::addRow("crafted: sizes summing past 2^64") << 9 << QStringLiteral("outside the file") << true;
        QTest::addRow("not a cache file") << 10 << QStringLiteral("not a profile cache file") << true;
        QTest::addRow("empty file") << 11 << QStringLiteral("shorter than") << true;
        QTest::addRow("crafted: a section name without its end") << 12 << QStringLiteral("proper name") << true;
    }
    void refusesBrokenAndCraftedFiles()
    {
        QFETCH(int, damage);
        QFETCH(QString, says);
        QFETCH(bool, atOpen);
        const QString path = m_dir.filePath(QStringLiteral("damaged-%1.bin").arg(damage));
        QVERIFY(writeSample(path));
        QByteArray bytes = fileBytes(path);
        const auto directory = qsizetype(readAt<std::uint64_t>(bytes, 32));
        const qsizetype first = directory; // entries are in the order written: "indices", then "text"
        const qsizetype second = directory + kEntryBytes;
        switch (damage) {
        case 0:
            bytes.chop(1);
            break;
        case 1:
            bytes.append('x');
            break;
        case 2:
            bytes[qsizetype(readAt<std::uint64_t>(bytes, second + 64))] ^= 1;
            break;
        case 3:
            bytes[20] ^= 1;
            break;
        case 4:
            writeAt<std::uint64_t>(bytes, second + 72, std::uint64_t(directory)); // bytes = the whole directory offset
            reseal(bytes);
            break;
        case 5:
            writeAt<std::uint64_t>(bytes, second + 64, std::uint64_t(bytes.size()) * 2);
            reseal(bytes);
            break;
        case 6:
            writeAt<std::uint64_t>(bytes, 40, std::uint64_t(1) << 30);
            writeAt<std::uint64_t>(bytes, kHeaderBytes - 8, Checksum::of(bytes.constData(), kHeaderBytes - 8));
            break;
        case 7:
            writeAt<std::uint32_t>(bytes, first + 88, 0);
            reseal(bytes);
            break;
        case 8: {
            const auto at = qsizetype(readAt<std::uint64_t>(bytes, first + 64));
            writeAt<std::int32_t>(bytes, at + 4, 4); // one past the table's last row
            writeAt<std::uint64_t>(bytes, first + 80, Checksum::of(bytes.constData() + at, kIndices.size() * 4));
            reseal(bytes);
            break;
        }
        case 9:
            writeAt<std::uint64_t>(bytes, second + 72, ~std::uint64_t(0) - 100);
            reseal(bytes);
            break;
        case 10:
            bytes[0] = 'X';
            break;
        case 11:
            bytes.clear();
            break;
        case 12:
            std::memset(bytes.data() + first, 'n', 64);
            reseal(bytes);
            break;
        }
        QVERIFY(writeBytes(path, bytes));
        Result<std::unique_ptr<Reader>> r = Reader::open(path);
        if (atOpen) {
            QVERIFY(!r);
            QVERIFY2(r.errorMessage().contains(says), qPrintable(r.errorMessage()));
            QVERIFY(r.errorMessage().startsWith(path));
            return;
        }
        QVERIFY2(r, qPrintable(r.errorMessage()));
        const std::map<QByteArray, ValueCheck> checks { { "indices", { ValueCheck::Type::Int32, -1, 3, {} } } };
        const Status verified = (*r)->verify(checks, CancelToken::never());
        QVERIFY(!verified);
        QVERIFY2(verified.errorMessage().contains(says), qPrintable(verified.errorMessage()));
    }

    void refusesSpecialFiles_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("says");
        QTest::addRow("symlink to a device") << QStringLiteral("device link") << QStringLiteral("symbolic link");
        QTest::addRow("symlink to a valid cache file")
            << QStringLiteral("file link") << QStringLiteral("symbolic link");
        QTest::addRow("FIFO") << QStringLiteral("fifo") << QStringLiteral("not a regular file");
        QTest::addRow("directory") << QStringLiteral("directory") << QStringLiteral("not a regular file");
    }
    void refusesSpecialFiles()
    {
        QFETCH(QString, kind);
        QFETCH(QString, says);
        const QString path = m_dir.filePath(kind);
        const QByteArray native = QFile::encodeName(path);
        if (kind == QLatin1String("device link")) {
            QVERIFY(::symlink("/dev/zero", native.constData()) == 0);
        } else if (kind == QLatin1String("file link")) {
            const QString target = m_dir.filePath(QStringLiteral("target.bin"));
            QVERIFY(writeSample(target));
            QVERIFY(::symlink(QFile::encodeName(target).constData(), native.constData()) == 0);
        } else if (kind == QLatin1String("fifo")) {
            QVERIFY(::mkfifo(native.constData(), 0600) == 0);
        } else {
            QVERIFY(QDir().mkpath(path));
        }
        Result<std::unique_ptr<Reader>> r = Reader::open(path); // returns at once (a FIFO is never waited on)
        QVERIFY(!r);
        QVERIFY2(r.errorMessage().contains(says), qPrintable(r.errorMessage()));
    }

    void twoWritersOfOneFileNeverMix()
    {
        const QString path = m_dir.filePath(QStringLiteral("shared.bin"));
        const QByteArray a(100000, 'a');
        const QByteArray b(50000, 'b');
        Result<std::unique_ptr<Writer>> first = Writer::create(path);
        Result<std::unique_ptr<Writer>> second = Writer::create(path);
        QVERIFY(first && second);
        // Interleaved: each writes its own temporary file.
        QVERIFY((*first)->add("data", a.constData(), std::size_t(a.size()), 1));
        QVERIFY((*second)->add("data", b.constData(), std::size_t(b.size()), 1));
        QVERIFY((*second)->add("more", b.constData(), 10, 1));
        QVERIFY((*first)->commit());
        QVERIFY((*second)->commit()); // the last rename wins, whole
        Result<std::unique_ptr<Reader>> r = Reader::open(path);
        QVERIFY2(r, qPrintable(r.errorMessage()));
        QVERIFY((*r)->verify({}, CancelToken::never()));
        QCOMPARE(*(*r)->read("data"), b);
        QVERIFY((*r)->find("more"));
    }

    void unwritableFolderIsAnError()
    {
        // A regular file where the folder should be: no one can create a file under it, root included.
        const QString notAFolder = m_dir.filePath(QStringLiteral("not-a-folder"));
        {
            QFile f(notAFolder);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        Result<std::unique_ptr<Writer>> w = Writer::create(notAFolder + QStringLiteral("/x.bin"));
        QVERIFY(!w);
        QVERIFY2(w.errorMessage().contains(QStringLiteral("cannot create")), qPrintable(w.errorMessage()));
    }

    void fullDiskFailsTheWriteAndLeavesNothing()
    {
        // /dev/full fails every write with ENOSPC; a writer whose temporary file is on a full disk fails the same
        // way. Stand in for it with a file size limit of 64 KiB (RLIMIT_FSIZE), which fails writes past it (EFBIG).
        const QString path = m_dir.filePath(QStringLiteral("big.bin"));
        Result<std::unique_ptr<Writer>> w = Writer::create(path);
        QVERIFY(w);
        const QByteArray big(1 << 20, 'z');
        rlimit old {};
        QVERIFY(::getrlimit(RLIMIT_FSIZE, &old) == 0);
        rlimit small = old;
        small.rlim_cur = 64 * 1024;
        std::signal(SIGXFSZ, SIG_IGN);
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        const bool added = (*w)->add("big", big.constData(), std::size_t(big.size()), 1);
        ::setrlimit(RLIMIT_FSIZE, &old);
        QVERIFY(!added);
        QVERIFY(!(*w)->commit());
        w = Result<std::unique_ptr<Writer>>::failure(ErrorKind::Input, QString()); // destroys the writer
        QVERIFY(!QFileInfo::exists(path));
        QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("big.bin*") }, QDir::Files), QStringList());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestCacheFile)
#include "tst_cachefile.moc"

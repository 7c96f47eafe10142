// SPDX-License-Identifier: GPL-3.0-or-later
// The rank summary format (docs/rank-summary.md): every field survives a round trip, the bytes are those the document
// describes, and a damaged summary is refused with a message naming the file and what is wrong.
#include "core/ranks/summaryfile.h"

#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

RankFile sample()
{
    RankFile f;
    f.exportPath = u"/data/run_3.sqlite"_s;
    f.exportSize = 123456789;
    f.nsysVersion = u"2026.2.1.210"_s;
    f.sessionStartUtcNs = 1'767'225'600'123'456'789;
    f.host = u"node-ü"_s;
    f.iterationMarker = u"ProfilerStep#1"_s;
    f.warnings = { u"/data/run_3.sqlite: 2 rows skipped"_s };
    f.names = { u"ncclDevKernel_AllReduce"_s, u"gemm"_s };
    RankSummary r;
    r.rankFromName = 3;
    r.pid = 4242;
    r.processName = u"python3"_s;
    r.gpu = 5;
    r.gpuLabel = u"GPU 5 (NVIDIA H100)"_s;
    r.iterationsGuessed = true;
    r.iterationDetection = u"a guess"_s;
    r.iterations = { { -500, 1000, 300, 200, 50 }, { 1000, 2600, 700, 0, 0 } };
    r.collectives = { { -100, 50, 0, 1 }, { -100, 20, 0, 0 }, { 2000, 2500, 0, 1 } };
    r.kernelSums = { { 0, 3, 670 }, { 1, 12, 9'000'000'000 } };
    f.ranks = { r, RankSummary {} };
    return f;
}

QByteArray withVersion(QByteArray bytes, char version)
{
    bytes[8] = version;
    return bytes;
}

QByteArray flipped(QByteArray bytes, qsizetype at)
{
    bytes[at] = char(bytes[at] ^ 0x40);
    return bytes;
}

} // namespace

class TestRankSummaryFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip();
    void headerLayout();
    void refused_data();
    void refused();
};

void TestRankSummaryFile::roundTrip()
{
    const RankFile f = sample();
    const Result<RankFile> back = decodeRankSummary(encodeRankSummary(f), u"s.nswsum"_s);
    QVERIFY2(back.ok(), qPrintable(back.errorMessage()));
    QCOMPARE(back->summaryPath, u"s.nswsum"_s);
    QCOMPARE(back->exportPath, f.exportPath);
    QCOMPARE(back->exportSize, f.exportSize);
    QCOMPARE(back->nsysVersion, f.nsysVersion);
    QCOMPARE(back->sessionStartUtcNs, f.sessionStartUtcNs);
    QCOMPARE(back->host, f.host);
    QCOMPARE(back->iterationMarker, f.iterationMarker);
    QCOMPARE(back->warnings, f.warnings);
    QCOMPARE(back->names, f.names);
    QCOMPARE(back->ranks.size(), 2u);
    const RankSummary& a = f.ranks[0];
    const RankSummary& b = back->ranks[0];
    QCOMPARE(b.rankFromName, 3);
    QCOMPARE(b.pid, a.pid);
    QCOMPARE(b.processName, a.processName);
    QCOMPARE(b.gpu, a.gpu);
    QCOMPARE(b.gpuLabel, a.gpuLabel);
    QCOMPARE(b.iterationsGuessed, true);
    QCOMPARE(b.iterationDetection, a.iterationDetection);
    QCOMPARE(b.iterations.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        QCOMPARE(b.iterations[i].start, a.iterations[i].start);
        QCOMPARE(b.iterations[i].end, a.iterations[i].end);
        QCOMPARE(b.iterations[i].computeNs, a.iterations[i].computeNs);
        QCOMPARE(b.iterations[i].communicationNs, a.iterations[i].communicationNs);
        QCOMPARE(b.iterations[i].memoryNs, a.iterations[i].memoryNs);
    }
    QCOMPARE(b.collectives.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(b.collectives[i].start, a.collectives[i].start);
        QCOMPARE(b.collectives[i].end, a.collectives[i].end);
        QCOMPARE(b.collectives[i].name, a.collectives[i].name);
        QCOMPARE(b.collectives[i].stream, a.collectives[i].stream);
    }
    QCOMPARE(b.kernelSums.size(), 2u);
    QCOMPARE(b.kernelSums[1].count, 12);
    QCOMPARE(b.kernelSums[1].totalNs, 9'000'000'000);
    QCOMPARE(back->ranks[1].rankFromName, -1);
    QCOMPARE(encodeRankSummary(*back), encodeRankSummary(f));
}

void TestRankSummaryFile::headerLayout()
{
    // docs/rank-summary.md: "NSWRANKS", u32 LE version, u64 LE payload length, payload, u64 LE FNV-1a 64 of the
    // payload.
    RankFile f;
    f.ranks.push_back({});
    const QByteArray bytes = encodeRankSummary(f);
    QCOMPARE(bytes.left(8), QByteArray("NSWRANKS"));
    QCOMPARE(bytes.mid(8, 4), QByteArray("\x01\x00\x00\x00", 4));
    const qsizetype payload = bytes.size() - 20 - 8;
    QCOMPARE(quint8(bytes[12]), quint8(payload));
    QCOMPARE(bytes.mid(13, 7), QByteArray(7, '\0'));
    // Export path "", size 0, version "", start kNoTime (zigzag of INT64_MIN: 2^64 - 1, ten bytes), host "", marker "",
    // no warnings, no names, one rank: rankFromName -1 (zigzag 1), pid 0, name "", gpu -1 (1), label "", not guessed,
    // detection "", no iterations, collectives or kernel sums.
    const QByteArray expected = QByteArray("\x00\x00\x00", 3) + QByteArray(9, '\xff') + QByteArray("\x01", 1)
        + QByteArray("\x00\x00\x00\x00\x01", 5) + QByteArray("\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00", 10);
    QCOMPARE(bytes.mid(20, payload), expected);
    std::uint64_t h = 14695981039346656037ULL; // FNV-1a 64, worked here independently of the reader
    for (const char c : expected) {
        h ^= std::uint8_t(c);
        h *= 1099511628211ULL;
    }
    QByteArray checksum;
    for (int i = 0; i < 8; ++i)
        checksum.append(char((h >> (8 * i)) & 0xFF));
    QCOMPARE(bytes.right(8), checksum);
}

void TestRankSummaryFile::refused_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const QByteArray good = encodeRankSummary(sample());
    QTest::newRow("not a summary") << QByteArray("SQLite format 3\0", 16)
                                   << u"x.nswsum: not an nsys-workbench rank summary (no NSWRANKS header)"_s;
    QTest::newRow("empty") << QByteArray() << u"x.nswsum: not an nsys-workbench rank summary (no NSWRANKS header)"_s;
    QTest::newRow("header cut") << good.left(15)
                                << u"x.nswsum: a truncated rank summary (15 bytes, the header alone takes 20)"_s;
    QTest::newRow("another version") << withVersion(good, 2)
                                     << u"x.nswsum: a rank summary of format version 2; this nsys-workbench reads "
                                        "version 1 (summarize the export again with this version)"_s;
    QTest::newRow("truncated") << good.left(good.size() - 30)
                               << u"x.nswsum: a truncated rank summary (%1 bytes, its header announces %2)"_s
                                      .arg(good.size() - 30)
                                      .arg(good.size());
    QTest::newRow("a flipped bit") << flipped(good, 40)
                                   << u"x.nswsum: a damaged rank summary (its checksum does not match its contents)"_s;
    QTest::newRow("bytes after the end") << good + QByteArray("xx")
                                         << u"x.nswsum: a damaged rank summary (bytes after its end)"_s;
}

void TestRankSummaryFile::refused()
{
    QFETCH(QByteArray, bytes);
    const Result<RankFile> r = decodeRankSummary(bytes, u"x.nswsum"_s);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Input);
    QTEST(r.errorMessage(), "message");
}

QTEST_GUILESS_MAIN(TestRankSummaryFile)
#include "tst_ranksummaryfile.moc"

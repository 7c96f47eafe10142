// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvlink/nvf1reader.h"
#include "nvf1bytes.h"

#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>

using namespace nsw;
using namespace nsw::test;

namespace {

constexpr std::int64_t kT0 = 1700000000000000; // NVML wall µs of the first poll

const ThroughputSeries* findSeries(const Nvf1Recording& r, int link, LinkDirection dir)
{
    for (const ThroughputSeries& s : r.links)
        if (s.link == link && s.direction == dir)
            return &s;
    return nullptr;
}

/// Two links, six polls 1 ms apart; the deltas (KiB) are chosen per interval (see the comments).
QByteArray twoLinkRecording()
{
    Nvf1Builder b;
    // link0 tx: +100, 0, +1000, 0, 0   link0 rx: 0, +50, 0, 0, +500
    // link1 tx: 0, 0, +2000, 0, 0      link1 rx: +10 each
    const std::uint64_t l0tx[] = { 0, 100, 100, 1100, 1100, 1100 };
    const std::uint64_t l0rx[] = { 0, 0, 50, 50, 50, 550 };
    const std::uint64_t l1tx[] = { 0, 0, 0, 2000, 2000, 2000 };
    const std::uint64_t l1rx[] = { 0, 10, 20, 30, 40, 50 };
    for (int p = 0; p < 6; ++p)
        b.poll(kT0 + p * 1000, { { l0tx[p], l0rx[p] }, { l1tx[p], l1rx[p] } });
    return b.bytes;
}

} // namespace

class TestNvf1Reader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void seriesAndDeltas()
    {
        const Nvf1ReadResult r = parseNvf1Bytes(
            twoLinkRecording().constData(), std::size_t(twoLinkRecording().size()), QStringLiteral("two.bin"), 3);
        QVERIFY2(r.recording, qPrintable(r.error));
        const Nvf1Recording& rec = *r.recording;
        QCOMPARE(rec.stats.records, 24);
        QCOMPARE(rec.stats.usedRecords, 24);
        QCOMPARE(rec.stats.polls, 6);
        QVERIFY(rec.stats.regularLayout);
        QCOMPARE(rec.links.size(), std::size_t(4));
        // First-appearance order: link0 TX, link0 RX, link1 TX, link1 RX.
        QCOMPARE(rec.links[0].link, 0);
        QCOMPARE(rec.links[0].direction, LinkDirection::Tx);
        QCOMPARE(rec.links[1].direction, LinkDirection::Rx);
        QCOMPARE(rec.links[2].link, 1);
        QCOMPARE(rec.linkCount(), 2);
        QCOMPARE(rec.originUs, kT0);
        QCOMPARE(rec.firstUs, kT0);
        QCOMPARE(rec.lastUs, kT0 + 5000);
        const ThroughputSeries* l1tx = findSeries(rec, 1, LinkDirection::Tx);
        QVERIFY(l1tx);
        QCOMPARE(l1tx->gpu, 3);
        QCOMPARE(vec(l1tx->time), (std::vector<TimeNs> { 0, 1000000, 2000000, 3000000, 4000000, 5000000 }));
        QCOMPARE(vec(l1tx->bytes), (std::vector<qint64> { 0, 0, 2000 * 1024, 0, 0 }));
        QCOMPARE(l1tx->wallUs(2), kT0 + 2000);
        // 2,048,000 bytes in 1000 µs = 2.048 GB/s.
        QCOMPARE(l1tx->gbps(2), 2.048);
        const ThroughputSeries* l0rx = findSeries(rec, 0, LinkDirection::Rx);
        QCOMPARE(vec(l0rx->bytes), (std::vector<qint64> { 0, 50 * 1024, 0, 0, 500 * 1024 }));

        // Per-poll sums over links.
        QCOMPARE(rec.totals.size(), std::size_t(2));
        QCOMPARE(rec.totals[0].direction, LinkDirection::Tx);
        QCOMPARE(rec.totals[0].link, kAllLinks);
        QCOMPARE(vec(rec.totals[0].bytes), (std::vector<qint64> { 100 * 1024, 0, 3000 * 1024, 0, 0 }));
        QCOMPARE(
            vec(rec.totals[1].bytes), (std::vector<qint64> { 10 * 1024, 60 * 1024, 10 * 1024, 10 * 1024, 510 * 1024 }));
        QVERIFY(!rec.linksIdentical);
        QVERIFY(rec.warnings.isEmpty());
    }

    void headerFaults_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QByteArray record;
        appendRecord(record, { 1, 138, 0, kT0, 0, 3, 0, 5 });
        QTest::newRow("empty file") << QByteArray() << QStringLiteral("too short for an NVF1 header (0 bytes");
        QTest::newRow("5 bytes") << QByteArray("NVF1\x01", 5)
                                 << QStringLiteral("too short for an NVF1 header (5 bytes");
        QTest::newRow("bad magic") << nvf1Header("NVF0") + record
                                   << QStringLiteral("not an NVF1 NVLink recording (magic 'NVF0', expected 'NVF1')");
        QTest::newRow("binary magic") << nvf1Header("\x7f"
                                                    "ELF")
                + record << QStringLiteral("magic '\\x7fELF'");
        QTest::newRow("version 2") << nvf1Header("NVF1", 2) + record
                                   << QStringLiteral("unsupported NVF1 version 2 (only version 1 exists)");
        QTest::newRow("version 0") << nvf1Header("NVF1", 0) + record << QStringLiteral("unsupported NVF1 version 0");
        QTest::newRow("field size 32 (32-bit NVML)") << nvf1Header("NVF1", 1, 32)
                + record << QStringLiteral("NVF1 field size 32 is not a 64-bit nvmlFieldValue_t");
        QTest::newRow("field size 41 (one byte more)") << nvf1Header("NVF1", 1, 41)
                + record << QStringLiteral("NVF1 field size 41 is not a 64-bit nvmlFieldValue_t");
        QTest::newRow("field size 4096") << nvf1Header("NVF1", 1, 4096) + record
                                         << QStringLiteral("NVF1 field size 4096");
        QTest::newRow("field size 65535")
            << nvf1Header("NVF1", 1, 65535) + record << QStringLiteral("NVF1 field size 65535");
        QTest::newRow("host timestamp size 4")
            << nvf1Header("NVF1", 1, 40, 4) + record << QStringLiteral("NVF1 host timestamp size 4 is not supported");
        QTest::newRow("host timestamp size -8")
            << nvf1Header("NVF1", 1, 40, -8) + record << QStringLiteral("NVF1 host timestamp size -8");
    }
    void headerFaults()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const Nvf1ReadResult r = parseNvf1Bytes(bytes.constData(), std::size_t(bytes.size()), QStringLiteral("x.bin"));
        QVERIFY(!r.recording);
        QVERIFY2(r.error.startsWith(QLatin1String("x.bin: ")), qPrintable(r.error));
        QVERIFY2(r.error.contains(expected), qPrintable(r.error));

        // The same through the file reader, whose message names the path.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fault.bin"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        const Nvf1ReadResult fr = readNvf1File(path);
        QVERIFY(!fr.recording);
        QVERIFY2(fr.error.startsWith(path + QLatin1String(": ")), qPrintable(fr.error));
        QVERIFY2(fr.error.contains(expected), qPrintable(fr.error));
        QCOMPARE(checkNvf1Header(path), fr.error);
    }

    void missingFile()
    {
        const Nvf1ReadResult r = readNvf1File(QStringLiteral("/nonexistent/nvlink.bin"));
        QVERIFY(!r.recording);
        QVERIFY(r.error.startsWith(QLatin1String("/nonexistent/nvlink.bin: ")));
    }

    void truncatedLastRecord()
    {
        QByteArray bytes = twoLinkRecording();
        bytes.chop(20); // the recorder killed in the middle of the last record
        const Nvf1ReadResult r = parseNvf1Bytes(bytes.constData(), std::size_t(bytes.size()), QStringLiteral("t.bin"));
        QVERIFY(r.recording);
        QCOMPARE(r.recording->stats.records, 23);
        QCOMPARE(r.recording->stats.partialTailBytes, 28);
        QVERIFY(r.recording->warnings.join(QLatin1Char('\n')).contains(QLatin1String("incomplete (28 of 48 bytes)")));
        // Link 1 RX lost its last sample: 5 samples, 4 intervals.
        QCOMPARE(findSeries(*r.recording, 1, LinkDirection::Rx)->intervalCount(), std::size_t(4));
        QCOMPARE(findSeries(*r.recording, 1, LinkDirection::Tx)->intervalCount(), std::size_t(5));
    }

    void headerOnly()
    {
        const QByteArray bytes = nvf1Header();
        const Nvf1ReadResult r = parseNvf1Bytes(bytes.constData(), 12, QStringLiteral("h.bin"));
        QVERIFY(r.recording);
        QCOMPARE(r.recording->stats.records, 0);
        QVERIFY(r.recording->links.empty());
    }

    void failedFieldsAreSkipped()
    {
        // A failed field carries garbage: read as a value it would be an absurd peak (what the old tool reports).
        Nvf1Builder b;
        b.record({ 1, 138, 0, kT0, 0, 3, 0, 1000 });
        b.record({ 2, 138, 0, kT0 + 1000, 0, 3, 3 /* NVML_ERROR_NOT_SUPPORTED */, 0xDEADBEEFCAFEF00DULL });
        b.record({ 3, 138, 0, kT0 + 2000, 0, 3, 0, 1100 });
        b.record({ 4, 138, 0, kT0 + 3000, 0, 3, 0, 1300 });
        const Nvf1ReadResult r
            = parseNvf1Bytes(b.bytes.constData(), std::size_t(b.bytes.size()), QStringLiteral("f.bin"));
        QVERIFY(r.recording);
        QCOMPARE(r.recording->stats.failedRecords, 1);
        QCOMPARE(r.recording->stats.usedRecords, 3);
        const ThroughputSeries& s = r.recording->links.at(0);
        QCOMPARE(vec(s.time), (std::vector<TimeNs> { 0, 2000000, 3000000 }));
        QCOMPARE(vec(s.bytes), (std::vector<qint64> { 100 * 1024, 200 * 1024 }));
        QCOMPARE(s.resets.size(), std::size_t(0));
        QVERIFY(r.recording->warnings.join(QLatin1Char('\n'))
                    .contains(QLatin1String("1 of 4 records have nvmlReturn != 0")));
    }

    void counterReset()
    {
        Nvf1Builder b;
        const std::uint64_t values[] = { 100, 200, 50, 150 };
        for (int p = 0; p < 4; ++p)
            b.record({ std::uint64_t(p + 1), 139, 2, kT0 + p * 1000, 0, 3, 0, values[p] });
        const Nvf1ReadResult r
            = parseNvf1Bytes(b.bytes.constData(), std::size_t(b.bytes.size()), QStringLiteral("r.bin"));
        QVERIFY(r.recording);
        const ThroughputSeries& s = r.recording->links.at(0);
        QCOMPARE(s.link, 2);
        QCOMPARE(s.direction, LinkDirection::Rx);
        // 100 KiB, then the reset interval counts 0 (not -150 KiB, not 2^64 - 150), then 100 KiB again.
        QCOMPARE(vec(s.bytes), (std::vector<qint64> { 100 * 1024, 0, 100 * 1024 }));
        QCOMPARE(s.resets, (std::vector<std::uint32_t> { 1 }));
        QCOMPARE(r.recording->stats.counterResets, 1);
        QVERIFY(r.recording->warnings.join(QLatin1Char('\n')).contains(QLatin1String("1 counter resets")));
    }

    void valueTypes_data()
    {
        QTest::addColumn<quint32>("valueType");
        QTest::addColumn<quint64>("raw1");
        QTest::addColumn<quint64>("raw2");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<qint64>("skipped");
        const quint64 junk = 0xABCD000000000000ULL; // upper bytes of the union that a 32-bit value leaves alone
        QTest::newRow("ulonglong") << 3u << quint64(10) << quint64(30) << qint64(20 * 1024) << qint64(0);
        QTest::newRow("ulong") << 2u << quint64(10) << quint64(30) << qint64(20 * 1024) << qint64(0);
        QTest::newRow("uint ignores upper bytes") << 1u << (junk | 10) << (junk | 30) << qint64(20 * 1024) << qint64(0);
        QTest::newRow("ushort") << 6u << (junk | 10) << (junk | 30) << qint64(20 * 1024) << qint64(0);
        QTest::newRow("sint") << 5u << (junk | 10) << (junk | 30) << qint64(20 * 1024) << qint64(0);
        double a = 10.0, b = 30.0;
        quint64 da = 0, db = 0;
        std::memcpy(&da, &a, 8);
        std::memcpy(&db, &b, 8);
        QTest::newRow("double") << 0u << da << db << qint64(20 * 1024) << qint64(0);
        QTest::newRow("negative sll is skipped") << 4u << quint64(-5LL) << quint64(30) << qint64(-1) << qint64(1);
        QTest::newRow("unknown type is skipped") << 9u << quint64(10) << quint64(30) << qint64(-1) << qint64(2);
    }
    void valueTypes()
    {
        QFETCH(quint32, valueType);
        QFETCH(quint64, raw1);
        QFETCH(quint64, raw2);
        QFETCH(qint64, bytes);
        QFETCH(qint64, skipped);
        Nvf1Builder b;
        b.record({ 1, 138, 0, kT0, 0, valueType, 0, raw1 });
        b.record({ 2, 138, 0, kT0 + 1000, 0, valueType, 0, raw2 });
        const Nvf1ReadResult r
            = parseNvf1Bytes(b.bytes.constData(), std::size_t(b.bytes.size()), QStringLiteral("v.bin"));
        QVERIFY(r.recording);
        QCOMPARE(r.recording->stats.badValueRecords, skipped);
        if (bytes >= 0)
            QCOMPARE(vec(r.recording->links.at(0).bytes), std::vector<qint64> { bytes });
        else
            QVERIFY(r.recording->links.empty() || r.recording->links.at(0).bytes.empty());
    }

    void otherFieldsAndOrder()
    {
        Nvf1Builder b;
        b.record({ 1, 140, 0, kT0, 0, 3, 0, 1 }); // raw TX throughput: not what the recorder polls
        // Out of file order: sorted by NVML time (stable), as the tools sort each series.
        b.record({ 1, 138, 0, kT0 + 2000, 0, 3, 0, 300 });
        b.record({ 2, 138, 0, kT0, 0, 3, 0, 100 });
        b.record({ 3, 138, 0, kT0 + 1000, 0, 3, 0, 200 });
        const Nvf1ReadResult r
            = parseNvf1Bytes(b.bytes.constData(), std::size_t(b.bytes.size()), QStringLiteral("o.bin"));
        QVERIFY(r.recording);
        QCOMPARE(r.recording->stats.otherFieldRecords, 1);
        QCOMPARE(r.recording->stats.reorderedSeries, 1);
        const ThroughputSeries& s = r.recording->links.at(0);
        QCOMPARE(vec(s.time), (std::vector<TimeNs> { -2000000, -1000000, 0 }));
        QCOMPARE(vec(s.bytes), (std::vector<qint64> { 100 * 1024, 100 * 1024 }));
        QCOMPARE(r.recording->firstUs, kT0);
        QCOMPARE(r.recording->lastUs, kT0 + 2000);
    }

    void absurdTimestampSkipped()
    {
        Nvf1Builder b;
        b.record({ 1, 138, 0, kT0, 0, 3, 0, 1 });
        b.record({ 2, 138, 0, std::numeric_limits<std::int64_t>::min(), 0, 3, 0, 2 });
        b.record({ 3, 138, 0, kT0 + 1000, 0, 3, 0, 3 });
        const Nvf1ReadResult r
            = parseNvf1Bytes(b.bytes.constData(), std::size_t(b.bytes.size()), QStringLiteral("a.bin"));
        QVERIFY(r.recording);
        QCOMPARE(r.recording->stats.badTimestampRecords, 1);
        QCOMPARE(vec(r.recording->links.at(0).bytes), std::vector<qint64> { 2 * 1024 });
    }

    void identicalLinksAreNotSummed()
    {
        Nvf1Builder b;
        for (int p = 0; p < 3; ++p)
            b.poll(kT0 + p * 1000, { { 100u * p, 7u * p }, { 100u * p, 7u * p }, { 100u * p, 7u * p } });
        const Nvf1ReadResult r
            = parseNvf1Bytes(b.bytes.constData(), std::size_t(b.bytes.size()), QStringLiteral("i.bin"));
        QVERIFY(r.recording->linksIdentical);
        QCOMPARE(vec(r.recording->totals[0].bytes), (std::vector<qint64> { 100 * 1024, 100 * 1024 }));
        QVERIFY(r.recording->warnings.join(QLatin1Char('\n')).contains(QLatin1String("GPU-wide")));
    }

    void fileReadAcrossBlocks()
    {
        // More records than one 8 MiB read block: 100,000 polls of one link (200,000 records), +3 KiB TX per poll,
        // a 1 ms period, so every TX interval is 3 KiB / 1 ms and the TX total is 99,999 × 3 KiB.
        Nvf1Builder b;
        b.bytes.reserve(12 + 200000 * 48);
        for (int p = 0; p < 100000; ++p)
            b.poll(kT0 + p * 1000, { { 3u * std::uint64_t(p), 0 } });
        b.bytes.append("partial", 7);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gpu1_nvlink.bin"));
        QVERIFY(b.write(path));
        const Nvf1ReadResult r = readNvf1File(path, 1);
        QVERIFY2(r.recording, qPrintable(r.error));
        QCOMPARE(r.recording->stats.records, 200000);
        QCOMPARE(r.recording->stats.partialTailBytes, 7);
        QCOMPARE(r.recording->stats.fileBytes, qint64(12 + 200000 * 48 + 7));
        const ThroughputSeries& tx = r.recording->links.at(0);
        QCOMPARE(tx.intervalCount(), std::size_t(99999));
        qint64 total = 0;
        for (const qint64 v : tx.bytes.toVector()) {
            QCOMPARE(v, qint64(3 * 1024));
            total += v;
        }
        QCOMPARE(total, qint64(99999) * 3 * 1024);
        QCOMPARE(tx.time.back(), TimeNs(99999) * 1000000);
        QCOMPARE(r.recording->totals[0].bytes.size(), std::size_t(99999));
    }

    void fastAndGeneralPathsAgree_data()
    {
        QTest::addColumn<bool>("forceGeneral");
        QTest::newRow("recorder layout (fast path, two halves)") << false;
        QTest::newRow("a stray record forces the general path") << true;
    }
    void fastAndGeneralPathsAgree()
    {
        // 3 links, 10,000 full polls plus a last poll cut after link 0. Link 1 TX resets at poll 5000, link 2 RX
        // jumps by 5e9 KiB (over 4 TiB: kept exactly) at poll 7000, link 0 RX is stamped 3 µs after its poll from
        // poll 6000 on. Every expectation is computed here from the same generating rules.
        QFETCH(bool, forceGeneral);
        constexpr int kPolls = 10000, kLinks = 3;
        auto pollTime = [](int p) { return kT0 + std::int64_t(p) * 1000 + p % 7; };
        auto fieldTime
            = [&](int p, int link, int dir) { return pollTime(p) + (link == 0 && dir == 1 && p >= 6000 ? 3 : 0); };
        std::uint64_t value[kLinks][2] = {};
        std::vector<std::uint64_t> history[kLinks][2];
        Nvf1Builder b;
        b.bytes.reserve(12 + (kPolls * 6 + 2) * 48);
        for (int p = 0; p <= kPolls; ++p)
            for (int l = 0; l < kLinks; ++l)
                for (int d = 0; d < 2; ++d) {
                    if (p == kPolls && l > 0)
                        continue; // the recorder was stopped in the middle of the poll
                    std::uint64_t& v = value[l][d];
                    if (l == 1 && d == 0 && p == 5000)
                        v = 10;
                    else if (l == 2 && d == 1 && p == 7000)
                        v += 5000000000ULL;
                    else
                        v += std::uint64_t((p * 31 + l * 7 + d * 3) % 100);
                    history[l][d].push_back(v);
                    b.record({ std::uint64_t(p + 1), std::uint32_t(138 + d), std::uint32_t(l), fieldTime(p, l, d), 7, 3,
                        0, v });
                }
        if (forceGeneral)
            b.record({ std::uint64_t(kPolls + 1), 140, 0, pollTime(kPolls), 7, 3, 0, 1 });
        const Nvf1ReadResult r
            = parseNvf1Bytes(b.bytes.constData(), std::size_t(b.bytes.size()), QStringLiteral("p.bin"), 2);
        QVERIFY(r.recording);
        const Nvf1Recording& rec = *r.recording;
        QCOMPARE(rec.links.size(), std::size_t(6));
        QCOMPARE(rec.stats.polls, qint64(kPolls + 1));
        QCOMPARE(rec.stats.counterResets, 1);
        QCOMPARE(rec.stats.otherFieldRecords, forceGeneral ? 1 : 0);
        QCOMPARE(rec.stats.regularLayout, !forceGeneral);
        std::vector<qint64> expectedTotal[2];
        for (auto& t : expectedTotal)
            t.assign(kPolls, 0);
        for (int l = 0; l < kLinks; ++l)
            for (int d = 0; d < 2; ++d) {
                const ThroughputSeries* s = findSeries(rec, l, LinkDirection(d));
                QVERIFY(s);
                QCOMPARE(s->gpu, 2);
                const std::vector<std::uint64_t>& h = history[l][d];
                std::vector<TimeNs> times;
                std::vector<qint64> bytes;
                for (std::size_t i = 0; i < h.size(); ++i) {
                    times.push_back((fieldTime(int(i), l, d) - kT0) * 1000);
                    if (i > 0) {
                        bytes.push_back(h[i] < h[i - 1] ? 0 : qint64(h[i] - h[i - 1]) * 1024);
                        expectedTotal[d][i - 1] += bytes.back();
                    }
                }
                QCOMPARE(vec(s->time), times);
                QCOMPARE(vec(s->bytes), bytes);
                QCOMPARE(s->resets,
                    (l == 1 && d == 0 ? std::vector<std::uint32_t> { 4999 } : std::vector<std::uint32_t> {}));
            }
        QCOMPARE(findSeries(rec, 2, LinkDirection::Rx)->bytes[6999], qint64(5000000000LL) * 1024);
        for (int d = 0; d < 2; ++d) {
            std::vector<TimeNs> pollTimes;
            for (int p = 0; p <= kPolls; ++p)
                pollTimes.push_back((pollTime(p) - kT0) * 1000);
            QCOMPARE(vec(rec.totals[std::size_t(d)].time), pollTimes);
            QCOMPARE(vec(rec.totals[std::size_t(d)].bytes), expectedTotal[d]);
        }
        QCOMPARE(rec.firstUs, kT0);
        QCOMPARE(rec.lastUs, fieldTime(kPolls, 0, 1));
    }

    void specialFilesAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("FIFO (open would wait for a writer)") << QStringLiteral("fifo");
        QTest::newRow("folder") << QStringLiteral("folder");
        QTest::newRow("device") << QStringLiteral("device");
    }
    void specialFilesAreRefused()
    {
        QFETCH(QString, kind);
        QTemporaryDir dir;
        QString path = QStringLiteral("/dev/zero");
        if (kind == QLatin1String("fifo")) {
            path = dir.filePath(QStringLiteral("link.bin"));
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        } else if (kind == QLatin1String("folder")) {
            path = dir.path();
        }
        const Nvf1ReadResult r = readNvf1File(path, 0);
        QVERIFY(!r.recording);
        QCOMPARE(r.error, QStringLiteral("%1: not a regular file").arg(path));
    }

    void cancel()
    {
        Nvf1Builder b;
        b.poll(kT0, { { 1, 1 } });
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.bin"));
        QVERIFY(b.write(path));
        CancelToken cancel;
        cancel.cancel();
        const Nvf1ReadResult r = readNvf1File(path, 0, cancel);
        QVERIFY(r.cancelled);
        QVERIFY(!r.recording);
    }
};

QTEST_GUILESS_MAIN(TestNvf1Reader)
#include "tst_nvf1reader.moc"

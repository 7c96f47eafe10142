// SPDX-License-Identifier: GPL-3.0-or-later
// NVF1 recordings read back with an independent minimal reader (nvlink-inputs.md §1), including every fault option.
#include "generator.h"
#include "nvf1writer.h"
#include "sqltestutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace nsw::tracegen;
using nsw::tracegen::test::Db;

namespace {

struct Header
{
    QByteArray magic;
    quint16 version = 0;
    quint16 fieldSize = 0;
    qint32 hostTsSize = 0;
};

struct Record
{
    quint64 hostTs;
    quint32 fieldId, scopeId;
    qint64 timestampUs, latencyUs;
    quint32 valueType, nvmlReturn;
    quint64 value;
};

template <typename T> T le(const char* p)
{
    quint64 v = 0;
    for (int i = int(sizeof(T)) - 1; i >= 0; --i)
        v = (v << 8) | quint8(p[i]);
    return T(v);
}

/// Reads like the CCL-Bench tools: header "<4sHHi", then host_ts + field records, stopping at a partial record.
QList<Record> readNvf1(const QString& path, Header* header = nullptr, qint64* trailing = nullptr)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray data = f.readAll();
    Header h;
    h.magic = data.left(4);
    h.version = le<quint16>(data.constData() + 4);
    h.fieldSize = le<quint16>(data.constData() + 6);
    h.hostTsSize = le<qint32>(data.constData() + 8);
    if (header)
        *header = h;
    const qsizetype stride = h.hostTsSize + h.fieldSize;
    QList<Record> out;
    qsizetype at = 12;
    for (; at + stride <= data.size(); at += stride) {
        const char* p = data.constData() + at;
        out.append({ le<quint64>(p), le<quint32>(p + 8), le<quint32>(p + 12), le<qint64>(p + 16), le<qint64>(p + 24),
            le<quint32>(p + 32), le<quint32>(p + 36), le<quint64>(p + 40) });
    }
    if (trailing)
        *trailing = data.size() - at;
    return out;
}

GeneratorConfig withNvlink(const QString& out, const QString& bin)
{
    GeneratorConfig c;
    c.outPath = out;
    c.nvlinkPath = bin;
    c.workload = Workload::Training; // reduce-scatters of ~1 ms fill whole polling intervals
    c.gpus = 2;
    c.kernels = 1500;
    c.layers = 3;
    c.seed = 4;
    return c;
}

} // namespace

class TestTracegenNvf1 : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void roundTrip()
    {
        const QString path = m_dir.filePath(QStringLiteral("rt.bin"));
        Nvf1Writer w(path);
        w.write({ 0x0102030405060708ULL, 138, 11, -5, 7, 3, 0, 0xFFFFFFFFFFFFFFF0ULL });
        w.write({ 42, 139, 0, 1767225600123456LL, 0, 3, 0, 123456789 });
        w.close();
        QCOMPARE(QFile(path).size(), qint64(12 + 2 * 48));
        Header h;
        const QList<Record> r = readNvf1(path, &h);
        QCOMPARE(h.magic, QByteArray("NVF1"));
        QCOMPARE(h.version, quint16(1));
        QCOMPARE(h.fieldSize, quint16(40));
        QCOMPARE(h.hostTsSize, qint32(8));
        QCOMPARE(r.size(), 2);
        QCOMPARE(r[0].hostTs, 0x0102030405060708ULL);
        QCOMPARE(r[0].fieldId, 138u);
        QCOMPARE(r[0].scopeId, 11u);
        QCOMPARE(r[0].timestampUs, qint64(-5));
        QCOMPARE(r[0].latencyUs, qint64(7));
        QCOMPARE(r[0].valueType, 3u);
        QCOMPARE(r[0].value, 0xFFFFFFFFFFFFFFF0ULL);
        QCOMPARE(r[1].fieldId, 139u);
        QCOMPARE(r[1].timestampUs, 1767225600123456LL);
        QCOMPARE(r[1].value, 123456789ULL);
    }

    void faults_data()
    {
        QTest::addColumn<bool>("badMagic");
        QTest::addColumn<bool>("truncate");
        QTest::addColumn<int>("badReturnEvery");
        QTest::newRow("bad magic") << true << false << 0;
        QTest::newRow("truncated last record") << false << true << 0;
        QTest::newRow("nvmlReturn != 0 every 7th") << false << false << 7;
        QTest::newRow("all three") << true << true << 3;
    }

    void faults()
    {
        QFETCH(bool, badMagic);
        QFETCH(bool, truncate);
        QFETCH(int, badReturnEvery);
        const QString path = m_dir.filePath(QStringLiteral("fault.bin"));
        Nvf1Faults f;
        f.badMagic = badMagic;
        f.truncateLast = truncate;
        f.badReturnEvery = badReturnEvery;
        Nvf1Writer w(path, f);
        for (int i = 0; i < 50; ++i)
            w.write({ quint64(i), quint32(138 + i % 2), quint32(i / 2), i, 0, 3, 0, quint64(i) * 100 });
        w.close();
        QCOMPARE(QFile(path).size(), qint64(12 + 50 * 48 - (truncate ? 24 : 0)));
        Header h;
        qint64 trailing = -1;
        const QList<Record> r = readNvf1(path, &h, &trailing);
        QCOMPARE(h.magic, badMagic ? QByteArray("NVF0") : QByteArray("NVF1"));
        QCOMPARE(r.size(), truncate ? 49 : 50);
        QCOMPARE(trailing, truncate ? qint64(24) : qint64(0));
        for (int i = 0; i < r.size(); ++i) {
            const bool expectBad = badReturnEvery > 0 && (i + 1) % badReturnEvery == 0;
            QCOMPARE(r[i].nvmlReturn != 0, expectBad);
            if (expectBad)
                QVERIFY(r[i].value != quint64(i) * 100);
            else
                QCOMPARE(r[i].value, quint64(i) * 100);
        }
        QCOMPARE(int(w.badReturnRecords()), badReturnEvery ? 50 / badReturnEvery : 0);
    }

    // The recording written with an export: 1 ms polls over the session, TX/RX per link in the recorder's order,
    // NVML wall clock aligned to utcEpochNs, counters that climb fast exactly while NCCL kernels run on that GPU.
    void alignedToExport()
    {
        const QString out = m_dir.filePath(QStringLiteral("n.sqlite"));
        const QString bin = m_dir.filePath(QStringLiteral("n.bin"));
        generateExport(withNvlink(out, bin));
        Db db(out);
        const qint64 epoch = db.integer(QStringLiteral("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"));
        const qint64 duration = db.integer(QStringLiteral("SELECT duration FROM ANALYSIS_DETAILS"));
        const QList<Record> r = readNvf1(bin);
        const qint64 polls = duration / 1000000;
        QCOMPARE(qint64(r.size()), polls * 24);
        std::map<std::pair<quint32, quint32>, quint64> last;
        for (qint64 p = 0; p < polls; ++p) {
            const Record& first = r[p * 24];
            // Poll p reports the interval ending at (p + 1) ms, read up to 40 µs late.
            const qint64 sessionUs = first.timestampUs - epoch / 1000;
            QVERIFY2(sessionUs >= (p + 1) * 1000 - 1 && sessionUs <= (p + 1) * 1000 + 41,
                qPrintable(QString::number(sessionUs)));
            for (int i = 0; i < 24; ++i) {
                const Record& x = r[p * 24 + i];
                QCOMPARE(x.fieldId, i % 2 ? 139u : 138u);
                QCOMPARE(x.scopeId, quint32(i / 2));
                QCOMPARE(x.hostTs, first.hostTs);
                QCOMPARE(x.timestampUs, first.timestampUs);
                QCOMPARE(x.valueType, 3u);
                QCOMPARE(x.nvmlReturn, 0u);
                const auto key = std::make_pair(x.fieldId, x.scopeId);
                if (last.count(key))
                    QVERIFY(x.value >= last[key]);
                last[key] = x.value;
            }
        }
        // Per poll, the KiB link 0 moved (TX) against whether NCCL kernels covered that millisecond on GPU 0.
        const QList<QVariantList> nccl = db.rows(QStringLiteral(
            "SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE "
            "k.deviceId = 0 AND s.value LIKE 'ncclDevKernel%' ORDER BY k.start"));
        QVERIFY(nccl.size() > 10);
        auto ncclNs = [&](qint64 lo, qint64 hi) {
            qint64 sum = 0;
            for (const QVariantList& k : nccl)
                sum += std::max<qint64>(0, std::min(hi, k[1].toLongLong()) - std::max(lo, k[0].toLongLong()));
            return sum;
        };
        int busy = 0, idle = 0;
        for (qint64 p = 1; p < polls; ++p) {
            const quint64 delta = r[p * 24].value - r[(p - 1) * 24].value;
            const qint64 covered = ncclNs(p * 1000000, (p + 1) * 1000000);
            if (covered >= 500000) {
                QVERIFY2(delta > 8000, qPrintable(QString::number(delta))); // ≥ ~10 GB/s while NCCL runs
                ++busy;
            } else if (covered == 0) {
                QVERIFY2(delta < 100, qPrintable(QString::number(delta)));
                ++idle;
            }
        }
        QVERIFY(busy > 0);
        QVERIFY(idle > 0);
    }

    void counterReset()
    {
        GeneratorConfig c
            = withNvlink(m_dir.filePath(QStringLiteral("r.sqlite")), m_dir.filePath(QStringLiteral("r.bin")));
        c.nvlinkCounterReset = true;
        c.nvlinkLinks = 4;
        generateExport(c);
        const QList<Record> r = readNvf1(c.nvlinkPath);
        QCOMPARE(r.size() % 8, 0);
        // Exactly one drop per series, at the same poll in every series.
        QSet<int> dropPolls;
        for (int s = 0; s < 8; ++s) {
            int drops = 0;
            for (int p = 1; p < r.size() / 8; ++p) {
                if (r[p * 8 + s].value < r[(p - 1) * 8 + s].value) {
                    ++drops;
                    dropPolls.insert(p);
                }
            }
            QCOMPARE(drops, 1);
        }
        QCOMPARE(dropPolls.size(), 1);
    }

    void standalone_data()
    {
        QTest::addColumn<int>("links");
        QTest::addColumn<bool>("reset");
        QTest::newRow("12 links") << 12 << false;
        QTest::newRow("18 links with reset") << 18 << true;
    }

    void standalone()
    {
        QFETCH(int, links);
        QFETCH(bool, reset);
        NvlinkOnlyConfig c;
        c.path = m_dir.filePath(QStringLiteral("s.bin"));
        c.durationNs = 2000LL * 1000000;
        c.utcEpochNs = 1779782330176752435LL;
        c.startOffsetNs = 60111430336LL;
        c.links = links;
        c.counterReset = reset;
        QCOMPARE(writeSyntheticNvlink(c), qint64(2000) * links * 2);
        const QList<Record> r = readNvf1(c.path);
        QCOMPARE(r.size(), 2000 * links * 2);
        const qint64 firstUs = (c.utcEpochNs + c.startOffsetNs) / 1000 + 1000;
        QVERIFY(r.first().timestampUs >= firstUs && r.first().timestampUs <= firstUs + 40);
        QVERIFY(r.last().timestampUs >= firstUs + 1999 * 1000);
        qint64 drops = 0, maxDelta = 0;
        for (int i = 2 * links; i < r.size(); ++i) {
            if (r[i].value < r[i - 2 * links].value)
                ++drops;
            else
                maxDelta = std::max<qint64>(maxDelta, qint64(r[i].value - r[i - 2 * links].value));
        }
        QCOMPARE(drops, reset ? qint64(2 * links) : 0);
        QVERIFY(maxDelta > 15000); // bursts near the 24414 KiB/ms a 25 GB/s link moves
    }
};

QTEST_GUILESS_MAIN(TestTracegenNvf1)
#include "tst_tracegen_nvf1.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// PackedRows: every value reads back exactly as the plain list it was made of, whatever the spread of each block of
// 64; a block spanning less than 256 takes 1 byte a value, less than 65,536 2 bytes, one of at most 4 clusters each
// spanning less than 16,384 12 bytes and 2 a value, any other 4 a value.
#include "core/profile/packedrows.h"

#include <QTest>
#include <algorithm>
#include <memory>

using namespace nsw;

Q_DECLARE_METATYPE(std::vector<std::uint32_t>)

namespace {

std::vector<std::uint32_t> stepping(std::size_t n, std::uint32_t from, std::uint32_t step)
{
    std::vector<std::uint32_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = from + std::uint32_t(i) * step;
    return v;
}

} // namespace

class TestPackedRows : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsBackEveryValue_data()
    {
        QTest::addColumn<std::vector<std::uint32_t>>("values");
        // Bytes of the values alone: 1 a value in a block spanning < 256, 2 in one spanning < 65,536, 12 and 2 a value
        // in one of at most 4 clusters each spanning < 16,384, 4 a value in any other (an independent count).
        QTest::addColumn<int>("valueBytes");
        QTest::newRow("empty") << std::vector<std::uint32_t> {} << 0;
        QTest::newRow("one value") << std::vector<std::uint32_t> { 7 } << 1;
        QTest::newRow("a block spanning 255: a byte a value")
            << std::vector<std::uint32_t> { 100, 100 + 255, 100 + 3 } << 3;
        QTest::newRow("a block spanning 256: two bytes a value")
            << std::vector<std::uint32_t> { 100, 100 + 256, 100 + 3 } << 6;
        QTest::newRow("a block spanning 65,535: narrow")
            << std::vector<std::uint32_t> { 100, 100 + 65535, 100 + 3 } << 6;
        QTest::newRow("a block spanning 65,536: two clusters")
            << std::vector<std::uint32_t> { 100, 100 + 65536, 100 + 3 } << 12 + 3 * 2;
        QTest::newRow("the largest rows: two clusters")
            << std::vector<std::uint32_t> { 0xFFFFFFFFu, 0xFFFFFFF0u, 0 } << 12 + 3 * 2;
        // The partial block's 5 values span 28: a byte each.
        QTest::newRow("two full narrow blocks and a partial one") << stepping(64 * 2 + 5, 1000, 7) << 64 * 2 * 2 + 5;
        QTest::newRow("two full byte blocks and a partial one") << stepping(64 * 2 + 5, 1000, 4) << 64 * 2 + 5;
        // Steps of 2,000: the first 33 values of a block span 64,000 (< 65,536) but 64 values span 126,000.
        QTest::newRow("blocks that must keep whole values") << stepping(64 * 3, 5, 2000) << 64 * 3 * 4;
        std::vector<std::uint32_t> mixed = stepping(64, 0, 5); // narrow
        const std::vector<std::uint32_t> far = stepping(64, 0x40000000u, 1 << 20); // whole
        mixed.insert(mixed.end(), far.begin(), far.end());
        const std::vector<std::uint32_t> close = stepping(64, 70000, 3); // a byte each
        mixed.insert(mixed.end(), close.begin(), close.end());
        mixed.push_back(3); // a last block of one: a byte
        QTest::newRow("narrow, whole, bytes, a byte") << mixed << 64 * 2 + 64 * 4 + 64 + 1;
        std::vector<std::uint32_t> gpuStream; // a GPU stream's kernels, memory copies and memsets, gpuop-coded
        for (std::uint32_t i = 0; i < 64 + 10; ++i)
            gpuStream.push_back(i % 5 == 0 ? 0x40000000u + i : i % 7 == 0 ? 0x400F0000u + i : 2 * i);
        QTest::newRow("three clusters: their bases and 2 bytes a value") << gpuStream << (12 + 64 * 2) + (12 + 10 * 2);
        const std::vector<std::uint32_t> fourAtLimit { 9, 9 + 0x3FFF, 0x1000000u, 0x20000000u, 0x20000000u + 0x3FFF,
            0xFFFFFFFFu };
        QTest::newRow("four clusters each spanning 16,383") << fourAtLimit << 12 + 6 * 2;
        const std::vector<std::uint32_t> fiveClusters { 0, 0x10000, 0x20000, 0x30000, 0x40000 };
        QTest::newRow("five clusters: whole values") << fiveClusters << 5 * 4;
        const std::vector<std::uint32_t> spanningTooMuch { 0, 0x4000, 0x8000, 0xC000, 0x10000 };
        QTest::newRow("values 16,384 apart in a span of 65,536: whole values") << spanningTooMuch << 5 * 4;
        std::vector<std::uint32_t> descending = stepping(200, 0, 3);
        std::reverse(descending.begin(), descending.end());
        QTest::newRow("descending rows") << descending << 200;
    }
    void readsBackEveryValue()
    {
        QFETCH(std::vector<std::uint32_t>, values);
        QFETCH(int, valueBytes);
        const PackedRows rows(values);
        QCOMPARE(rows.size(), values.size());
        QCOMPARE(rows.empty(), values.empty());
        for (std::size_t i = 0; i < values.size(); ++i)
            QCOMPARE(rows[i], values[i]);
        QVERIFY(rows.toVector() == values);
        const std::size_t blocks = (values.size() + 63) / 64;
        const std::size_t spareBytes = values.empty() ? 0 : 3; // a 4-byte read of the last value stays inside
        QCOMPARE(rows.memoryBytes(), std::size_t(valueBytes) + spareBytes + blocks * 8);
    }

    /// Packing a plain list it may drop gives that list's pages back 2 MiB (524,288 rows) at a time as it goes: the
    /// rows read back exactly on both sides of every such step (a page given back too early would read as zero).
    void packingAListItMayDropReadsBackEveryValue_data()
    {
        QTest::addColumn<int>("rows");
        QTest::newRow("less than one step") << 1000;
        QTest::newRow("exactly one step") << 524288;
        QTest::newRow("two steps and a part, narrow and whole blocks") << 2 * 524288 + 777;
    }
    void packingAListItMayDropReadsBackEveryValue()
    {
        QFETCH(int, rows);
        std::vector<std::uint32_t> values(static_cast<std::size_t>(rows));
        for (std::size_t i = 0; i < values.size(); ++i) // every third block of 64 spans more than 65,535
            values[i] = (i / 64) % 3 == 2 ? std::uint32_t(i * 70000) : std::uint32_t(i + 1);
        std::vector<std::uint32_t> dropped = values;
        const PackedRows packed(std::move(dropped));
        QVERIFY(dropped.empty());
        QCOMPARE(packed.size(), values.size());
        QVERIFY(packed.toVector() == values);
        QCOMPARE(packed.memoryBytes(), PackedRows(values).memoryBytes());
    }

    void slicesReadTheirRows_data()
    {
        QTest::addColumn<int>("begin");
        QTest::addColumn<int>("count");
        QTest::newRow("inside one block") << 3 << 10;
        QTest::newRow("across blocks") << 60 << 100;
        QTest::newRow("to the end") << 150 << 50;
        QTest::newRow("empty") << 64 << 0;
    }
    void slicesReadTheirRows()
    {
        QFETCH(int, begin);
        QFETCH(int, count);
        std::vector<std::uint32_t> values = stepping(200, 10, 5);
        values[100] = 0x80000001u; // a block of whole values in the middle
        const PackedRows rows(values);
        const PackedRows::Slice slice = rows.slice(std::size_t(begin), std::size_t(count));
        QCOMPARE(slice.size(), std::size_t(count));
        const std::vector<std::uint32_t> expected(values.begin() + begin, values.begin() + begin + count);
        QVERIFY(std::vector<std::uint32_t>(slice.begin(), slice.end()) == expected);
        // Iterators outlive the slice they came from (they read the PackedRows).
        const auto first = rows.slice(std::size_t(begin), std::size_t(count)).begin();
        const auto last = rows.slice(std::size_t(begin), std::size_t(count)).end();
        QVERIFY(std::vector<std::uint32_t>(first, last) == expected);
        if (count > 0) {
            QCOMPARE(slice.front(), expected.front());
            QCOMPARE(slice.back(), expected.back());
        }
    }

    void plainReadsItsColumnInPlace()
    {
        const std::vector<std::uint32_t> values { 5, 0xFFFFFFFFu, 0, 70000, 3 };
        const PackedRows owned = PackedRows::plain(Column<std::uint32_t>(values));
        QVERIFY(owned.toVector() == values);
        QVERIFY(!owned.isView());
        auto keep = std::make_shared<std::vector<std::uint32_t>>(values);
        const PackedRows view = PackedRows::plain(Column<std::uint32_t>::view(keep, keep->data(), keep->size()));
        QVERIFY(view.isView());
        QCOMPARE(view.memoryBytes(), std::size_t(0)); // the mapped file's, not its own
        QVERIFY(view.toVector() == values);
        QVERIFY(!PackedRows(values).isView());
    }

    void copyToWritesTheValues_data()
    {
        QTest::addColumn<bool>("plain");
        QTest::newRow("packed") << false;
        QTest::newRow("plain") << true;
    }
    void copyToWritesTheValues()
    {
        QFETCH(bool, plain);
        std::vector<std::uint32_t> values = stepping(300, 9, 11);
        values[130] = 0xF0000000u; // a block of whole values
        const PackedRows rows = plain ? PackedRows::plain(Column<std::uint32_t>(values)) : PackedRows(values);
        std::vector<std::uint32_t> out(150, 0);
        rows.copyTo(100, out.size(), out.data());
        QVERIFY(std::equal(out.begin(), out.end(), values.begin() + 100));
    }

    void copiesShareTheirValues()
    {
        const std::vector<std::uint32_t> values = stepping(1000, 1, 1);
        const PackedRows rows(values);
        const PackedRows copy = rows; // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
        QVERIFY(copy.toVector() == values);
        QCOMPARE(copy.memoryBytes(), rows.memoryBytes());
        QCOMPARE(rows.memoryBytes(), std::size_t(1000 + 3 + 16 * 8));
    }

    void searchesLikeASortedVector()
    {
        const std::vector<std::uint32_t> values = stepping(1000, 3, 4); // 3, 7, 11, ...
        const PackedRows rows(values);
        for (const std::uint32_t x : { 0u, 3u, 4u, 2000u, 3999u, 4000u }) {
            const auto expected = std::lower_bound(values.begin(), values.end(), x) - values.begin();
            QCOMPARE(std::lower_bound(rows.begin(), rows.end(), x) - rows.begin(), expected);
        }
    }
};

QTEST_GUILESS_MAIN(TestPackedRows)
#include "tst_packedrows.moc"

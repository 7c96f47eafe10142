// SPDX-License-Identifier: GPL-3.0-or-later
// ByteWriter/ByteReader's fields, list and map: one visit function writes and reads a record. The expected bytes are
// written out by hand (little-endian; a string is its UTF-8 length as 4 bytes, then the bytes).
#include "core/profilecache/bytecodec.h"

#include <QTest>
#include <map>
#include <vector>

using namespace nsw;

namespace {

struct Item
{
    std::int16_t id = 0;
    QString name;
    bool operator==(const Item&) const = default;
};

struct Record
{
    std::int32_t number = 0;
    bool flag = false;
    QString text;
    QStringList texts;
    std::vector<Item> items;
    std::map<int, QString> labels;
    bool operator==(const Record&) const = default;
};

template <class Io, class R> void visit(Io& io, R& r)
{
    io.fields(r.number, r.flag, r.text, r.texts);
    io.list(r.items, 6, [&](auto& item) { io.fields(item.id, item.name); });
    io.map(r.labels, 8);
}

QByteArray written(const Record& r)
{
    ByteWriter w;
    visit(w, r);
    return w.bytes();
}

} // namespace

Q_DECLARE_METATYPE(Record)

class TestByteCodec : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void writesAndReadsBack_data()
    {
        QTest::addColumn<Record>("record");
        QTest::addColumn<QByteArray>("bytes");
        // QByteArray::fromHex skips the spaces: one value a group.
        const QByteArray emptyLists = QByteArray::fromHex("00000000 00000000 00000000");
        QTest::addRow("zeros and empty lists") << Record {} << QByteArray::fromHex("00000000 00 00000000") + emptyLists;
        QTest::addRow("a negative number, a set flag, text") << Record { -2, true, QStringLiteral("é"), {}, {},
            {} } << QByteArray::fromHex("feffffff 01 02000000 c3a9") + emptyLists;
        QTest::addRow("a text list, two items, two labels in key order")
            << Record { 1, false, QString(), { QStringLiteral("a"), QString() },
                   { { 3, QStringLiteral("x") }, { -1, {} } },
                   { { 9, QStringLiteral("n") }, { 2, QStringLiteral("m") } } }
            << QByteArray::fromHex("01000000 00 00000000" // number, flag, text
                                   " 02000000 01000000 61 00000000" // texts: "a", ""
                                   " 02000000 0300 01000000 78 ffff 00000000" // items: (3, "x"), (-1, "")
                                   " 02000000 02000000 01000000 6d 09000000 01000000 6e"); // labels: 2 "m", 9 "n"
    }
    void writesAndReadsBack()
    {
        QFETCH(Record, record);
        QFETCH(QByteArray, bytes);
        QCOMPARE(written(record).toHex(), bytes.toHex());
        ByteReader reader(bytes);
        Record read;
        visit(reader, read);
        QVERIFY(!reader.failed());
        QVERIFY(reader.atEnd());
        QVERIFY(read == record);
    }

    void refusesWhatIsCutShort_data()
    {
        QTest::addColumn<int>("cut");
        const QByteArray whole
            = written(Record { 1, true, QStringLiteral("abc"), {}, { { 1, QStringLiteral("y") } }, {} });
        for (int keep = 0; keep < int(whole.size()); keep += 3)
            QTest::addRow("first %d of %d bytes", keep, int(whole.size())) << keep;
    }
    void refusesWhatIsCutShort()
    {
        QFETCH(int, cut);
        const QByteArray bytes
            = written(Record { 1, true, QStringLiteral("abc"), {}, { { 1, QStringLiteral("y") } }, {} }).left(cut);
        ByteReader reader(bytes);
        Record read;
        visit(reader, read);
        QVERIFY(reader.failed());
    }

    void refusesACountPastTheEnd()
    {
        // 1000 items of at least 6 bytes cannot follow in the 4 bytes left: no item is read.
        const QByteArray bytes = QByteArray::fromHex("e8030000 00000000");
        ByteReader reader(bytes);
        std::vector<Item> items;
        reader.list(items, 6, [&](Item& item) { reader.fields(item.id, item.name); });
        QVERIFY(reader.failed());
        QVERIFY(items.empty());
    }
};

QTEST_GUILESS_MAIN(TestByteCodec)
#include "tst_bytecodec.moc"

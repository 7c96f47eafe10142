// SPDX-License-Identifier: GPL-3.0-or-later
// Checksum is XXH64: the expected values are the reference implementation's (libxxhash 0.8.1, XXH64(data, len, seed)).
#include "core/profilecache/checksum.h"

#include <QTest>

using namespace nsw;

class TestChecksum : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchesTheReferenceImplementation_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<quint64>("seed0");
        QTest::addColumn<quint64>("seed7");
        QByteArray bytes;
        for (int i = 0; i < 1280; ++i)
            bytes.append(char(i % 256));
        QTest::addRow("empty") << QByteArray() << quint64(0xef46db3751d8e999) << quint64(0x95f0626f6f0a4409);
        QTest::addRow("three bytes") << QByteArray("abc") << quint64(0x44bc2cf5ad770999) << quint64(0x9e755206156676d7);
        QTest::addRow("31 bytes, one short of a stripe")
            << QByteArray(31, 'a') << quint64(0xfe47067cda802916) << quint64(0x7684245686935331);
        QTest::addRow("one 32-byte stripe")
            << QByteArray(32, 'a') << quint64(0x856e843298f99ad7) << quint64(0xfdb8f8ed1c947329);
        QTest::addRow("129 bytes of text") << QByteArray("The quick brown fox jumps over the lazy dog").repeated(3)
                                           << quint64(0xc652b4dbfcd6b853) << quint64(0x77d8aa7bc210e644);
        QTest::addRow("1280 bytes, every byte value")
            << bytes << quint64(0xafc184ad7938a354) << quint64(0x133cf6ca9d1c1256);
    }
    void matchesTheReferenceImplementation()
    {
        QFETCH(QByteArray, data);
        QFETCH(quint64, seed0);
        QFETCH(quint64, seed7);
        QCOMPARE(quint64(Checksum::of(data.constData(), std::size_t(data.size()))), seed0);
        QCOMPARE(quint64(Checksum::of(data.constData(), std::size_t(data.size()), 7)), seed7);
    }

    void piecewiseEqualsWhole_data()
    {
        QTest::addColumn<int>("piece");
        for (const int piece : { 1, 3, 31, 32, 33, 100, 1000 })
            QTest::addRow("pieces of %d bytes", piece) << piece;
    }
    void piecewiseEqualsWhole()
    {
        QFETCH(int, piece);
        const QByteArray data = QByteArray("The quick brown fox jumps over the lazy dog").repeated(30);
        Checksum sum;
        for (qsizetype at = 0; at < data.size(); at += piece)
            sum.add(data.constData() + at, std::size_t(std::min<qsizetype>(piece, data.size() - at)));
        QCOMPARE(sum.value(), Checksum::of(data.constData(), std::size_t(data.size())));
    }
};

QTEST_GUILESS_MAIN(TestChecksum)
#include "tst_checksum.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// InlineTexts: NVTX texts stored inline in each row, deduplicated per scan chunk.
#include "core/profile/scancontext.h"

#include <QTest>
#include <string>

using namespace nsw;

class TestInlineTexts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void equalTextsShareOneIndexInFirstSeenOrder_data()
    {
        QTest::addColumn<int>("distinct");
        QTest::addColumn<int>("repeats");
        QTest::addRow("one text") << 1 << 5;
        QTest::addRow("a few texts, many times") << 7 << 300;
        QTest::addRow("more texts than the first table holds") << 5000 << 3;
    }
    void equalTextsShareOneIndexInFirstSeenOrder()
    {
        QFETCH(int, distinct);
        QFETCH(int, repeats);
        InlineTexts texts;
        auto textOf = [](int i) { return "range_" + std::to_string(i * 7919 % 100003); };
        for (int r = 0; r < repeats; ++r)
            for (int i = 0; i < distinct; ++i) {
                const std::int32_t value = texts.add(textOf(i));
                QVERIFY(value < -1); // never kNoString or a StringIds id
                QCOMPARE(InlineTexts::decode(value), i);
            }
        QCOMPARE(int(texts.texts().size()), distinct);
        for (int i = 0; i < distinct; ++i)
            QCOMPARE(texts.texts()[std::size_t(i)], textOf(i));
    }

    void textsDifferingOnlyInLengthOrCaseAreDistinct()
    {
        InlineTexts texts;
        const std::int32_t a = texts.add("step");
        const std::int32_t b = texts.add("Step");
        const std::int32_t c = texts.add("step ");
        const std::int32_t d = texts.add("");
        QCOMPARE(texts.add("step"), a);
        QCOMPARE(texts.add(""), d);
        QCOMPARE(texts.texts().size(), std::size_t(4));
        QVERIFY(a != b && b != c && c != d);
    }
};

QTEST_GUILESS_MAIN(TestInlineTexts)
#include "tst_inlinetexts.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Column: shared storage between copies, copied on the first write to a shared one, never through const access; or a
// view of memory kept alive by someone else (a mapped profile cache file), copied on the first write.
#include "core/profile/column.h"

#include <QTest>
#include <utility>

using namespace nsw;

class TestColumn : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emptyColumnReadsAsEmpty()
    {
        const Column<int> c;
        QCOMPARE(c.size(), std::size_t(0));
        QVERIFY(c.empty());
        QVERIFY(c.begin() == c.end());
        QVERIFY(c.toVector().empty());
        QVERIFY(!c.sharesStorageWith(c)); // no storage to share
    }

    void aCopySharesTheStorage()
    {
        Column<int> a { 1, 2, 3 };
        const Column<int> b = a;
        QVERIFY(b.sharesStorageWith(a));
        QCOMPARE(b.data(), std::as_const(a).data());
        QCOMPARE(b[2], 3);
    }

    void readingThroughConstAccessNeverCopies()
    {
        Column<int> a { 4, 5 };
        const Column<int> b = a;
        const Column<int>& readOnly = a;
        int sum = 0;
        for (const int v : readOnly)
            sum += v;
        sum += readOnly[0] + int(readOnly.size()) + readOnly.back();
        QCOMPARE(sum, 4 + 5 + 4 + 2 + 5);
        QVERIFY(a.sharesStorageWith(b));
    }

    void writingToASharedColumnCopiesIt_data()
    {
        QTest::addColumn<int>("write");
        QTest::addRow("push_back") << 0;
        QTest::addRow("element assignment") << 1;
        QTest::addRow("assign") << 2;
        QTest::addRow("resize") << 3;
        QTest::addRow("mutable iteration") << 4;
    }
    void writingToASharedColumnCopiesIt()
    {
        QFETCH(int, write);
        Column<int> a { 7, 8, 9 };
        const Column<int> first = a;
        switch (write) {
        case 0:
            a.push_back(10);
            break;
        case 1:
            a[0] = 70;
            break;
        case 2:
            a.assign(2, 1);
            break;
        case 3:
            a.resize(1);
            break;
        case 4:
            for (int& v : a)
                v *= 2;
            break;
        }
        QVERIFY(!a.sharesStorageWith(first));
        QCOMPARE(first.toVector(), (std::vector<int> { 7, 8, 9 })); // the other copy never changes
        QVERIFY(a.toVector() != first.toVector());
    }

    void writingToAnUnsharedColumnKeepsItsStorage()
    {
        Column<int> a { 1, 2 };
        a.reserve(16);
        const int* before = std::as_const(a).data();
        a.push_back(3);
        a[0] = 5;
        QCOMPARE(std::as_const(a).data(), before);
        QCOMPARE(a.toVector(), (std::vector<int> { 5, 2, 3 }));
    }

    void releaseFreesOnlyThisCopy()
    {
        Column<int> a { 1, 2 };
        Column<int> b = a;
        a.release();
        QVERIFY(a.empty());
        QCOMPARE(b.toVector(), (std::vector<int> { 1, 2 }));
        QVERIFY(!b.sharesStorageWith(a));
    }

    void aViewReadsInPlaceAndKeepsItsOwnerAlive()
    {
        auto owner = std::make_shared<std::vector<int>>(std::vector<int> { 3, 1, 4, 1, 5 });
        const std::weak_ptr<std::vector<int>> watch = owner;
        Column<int> view = Column<int>::view(owner, owner->data() + 1, 3);
        const int* in = owner->data() + 1;
        owner.reset();
        QVERIFY(!watch.expired()); // the view keeps its memory alive
        QVERIFY(view.isView());
        QCOMPARE(std::as_const(view).data(), in);
        QCOMPARE(view.toVector(), (std::vector<int> { 1, 4, 1 }));
        QCOMPARE(view.capacity(), std::size_t(0)); // holds no heap of its own
        const Column<int> copy = view;
        QVERIFY(copy.sharesStorageWith(view));
        view.release();
        QVERIFY(!watch.expired()); // the copy still reads it
    }

    void writingToAViewCopiesIt_data()
    {
        QTest::addColumn<int>("write");
        QTest::addRow("push_back") << 0;
        QTest::addRow("element assignment") << 1;
        QTest::addRow("mutable iteration") << 2;
    }
    void writingToAViewCopiesIt()
    {
        QFETCH(int, write);
        auto owner = std::make_shared<const std::vector<int>>(std::vector<int> { 7, 8, 9 });
        Column<int> a = Column<int>::view(owner, owner->data(), owner->size());
        switch (write) {
        case 0:
            a.push_back(10);
            QCOMPARE(a.toVector(), (std::vector<int> { 7, 8, 9, 10 }));
            break;
        case 1:
            a[0] = 70;
            QCOMPARE(a.toVector(), (std::vector<int> { 70, 8, 9 }));
            break;
        case 2:
            for (int& v : a)
                v *= 2;
            QCOMPARE(a.toVector(), (std::vector<int> { 14, 16, 18 }));
            break;
        }
        QVERIFY(!a.isView());
        QCOMPARE(*owner, (std::vector<int> { 7, 8, 9 })); // the mapped memory is never written
    }

    void aMovedFromColumnIsEmpty()
    {
        Column<int> a { 1, 2, 3 };
        Column<int> b = std::move(a);
        QCOMPARE(b.size(), std::size_t(3));
        QVERIFY(a.empty()); // NOLINT(bugprone-use-after-move): what a move leaves is part of the contract
        QVERIFY(a.begin() == a.end());
    }

    void equalityComparesValues()
    {
        const Column<int> a { 1, 2 };
        const Column<int> b(std::vector<int> { 1, 2 });
        QVERIFY(a == b);
        QVERIFY(!a.sharesStorageWith(b));
        QVERIFY(a == (std::vector<int> { 1, 2 }));
        QVERIFY(!(a == Column<int> { 1 }));
    }
};

QTEST_GUILESS_MAIN(TestColumn)
#include "tst_column.moc"

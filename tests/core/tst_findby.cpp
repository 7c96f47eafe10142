// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/findby.h"

#include <QString>
#include <QTest>
#include <vector>

using namespace nsw;

namespace {
struct Named
{
    QString name;
    int id = 0;
    QString label() const { return name + QString::number(id); }
};
const std::vector<Named> kItems
    = { { QStringLiteral("a"), 1 }, { QStringLiteral("b"), 2 }, { QStringLiteral("a"), 3 } };
} // namespace

class TestFindBy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void found_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("index"); // -1: none
        QTest::addRow("the first of two with the name") << QStringLiteral("a") << 0;
        QTest::addRow("one in the middle") << QStringLiteral("b") << 1;
        QTest::addRow("none with the name") << QStringLiteral("c") << -1;
        QTest::addRow("an empty name matches none") << QString() << -1;
    }
    void found()
    {
        QFETCH(QString, name);
        QFETCH(int, index);
        const Named* f = findBy(kItems, &Named::name, name);
        QCOMPARE(f, index < 0 ? nullptr : &kItems[std::size_t(index)]);
    }

    void byMemberFunctionAndOnMutableItems()
    {
        std::vector<Named> items = kItems;
        Named* f = findBy(items, &Named::label, QStringLiteral("a3"));
        QCOMPARE(f, &items[2]);
        f->id = 4; // a pointer into the list, not a copy
        QCOMPARE(items[2].id, 4);
        QCOMPARE(findBy(items, &Named::id, 9), nullptr);
        const std::vector<Named> none;
        QCOMPARE(findBy(none, &Named::id, 1), nullptr);
    }
};

QTEST_GUILESS_MAIN(TestFindBy)
#include "tst_findby.moc"

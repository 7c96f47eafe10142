// SPDX-License-Identifier: GPL-3.0-or-later
// The column-described table model on a hand-made table of two people: what each role of a cell and a header gives.
#include "core/models/columntablemodel.h"
#include "core/models/modelroles.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {
struct Person
{
    QString name;
    qint64 waitNs = 0;
};

/// Name (left-aligned, no text of its own, a tooltip) and wait (a duration, its unit in the raw header).
class PeopleModel : public ColumnTableModel
{
public:
    PeopleModel()
        : ColumnTableModel(nullptr)
    {
        setColumns({
            { .header = u"Name"_s,
                .raw = [this](int r) { return m_people[std::size_t(r)].name; },
                .toolTip = [this](int r) { return QString(u"who: "_s + m_people[std::size_t(r)].name); },
                .alignment = kLeft },
            { .header = u"Wait"_s,
                .rawHeader = u"Wait (ns)"_s,
                .raw = [this](int r) { return m_people[std::size_t(r)].waitNs; },
                .text = durationText(),
                .headerToolTip = u"time spent waiting"_s },
        });
    }

protected:
    int rows() const override { return int(m_people.size()); }
    QVariant rowData(int row, int role) const override
    {
        return role == IdentityRole ? QVariant(row * 10) : QVariant();
    }

private:
    std::vector<Person> m_people { { u"ada"_s, 1500 }, { u"bob"_s, 2000000 } };
};
} // namespace

class TestColumnTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cells_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("role");
        QTest::addColumn<QVariant>("value");
        const QVariant left = QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        const QVariant right = QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        QTest::addRow("a column without text shows its raw value")
            << 0 << 0 << int(Qt::DisplayRole) << QVariant(u"ada"_s);
        QTest::addRow("a column's text") << 0 << 1 << int(Qt::DisplayRole) << QVariant(u"1.50 µs"_s);
        QTest::addRow("sort role: the raw value") << 1 << 1 << int(SortRole) << QVariant(qint64(2000000));
        QTest::addRow("raw value role: the raw value") << 1 << 1 << int(RawValueRole) << QVariant(qint64(2000000));
        QTest::addRow("tooltip of a column with one") << 1 << 0 << int(Qt::ToolTipRole) << QVariant(u"who: bob"_s);
        QTest::addRow("no tooltip elsewhere") << 1 << 1 << int(Qt::ToolTipRole) << QVariant();
        QTest::addRow("left-aligned column") << 0 << 0 << int(Qt::TextAlignmentRole) << left;
        QTest::addRow("right-aligned by default") << 0 << 1 << int(Qt::TextAlignmentRole) << right;
        QTest::addRow("a row's own role") << 1 << 0 << int(IdentityRole) << QVariant(10);
        QTest::addRow("a role nobody answers") << 1 << 0 << int(KernelNameRole) << QVariant();
    }
    void cells()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(int, role);
        QFETCH(QVariant, value);
        PeopleModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 2);
        QCOMPARE(model.rowCount(model.index(0, 0)), 0);
        QCOMPARE(model.index(row, column).data(role), value);
    }

    void headers_data()
    {
        QTest::addColumn<int>("section");
        QTest::addColumn<int>("role");
        QTest::addColumn<QVariant>("value");
        QTest::addRow("shown header") << 1 << int(Qt::DisplayRole) << QVariant(u"Wait"_s);
        QTest::addRow("raw header with its unit") << 1 << int(RawValueRole) << QVariant(u"Wait (ns)"_s);
        QTest::addRow("raw header defaults to the shown one") << 0 << int(RawValueRole) << QVariant(u"Name"_s);
        QTest::addRow("header tooltip") << 1 << int(Qt::ToolTipRole) << QVariant(u"time spent waiting"_s);
        QTest::addRow("no header tooltip") << 0 << int(Qt::ToolTipRole) << QVariant();
    }
    void headers()
    {
        QFETCH(int, section);
        QFETCH(int, role);
        QFETCH(QVariant, value);
        PeopleModel model;
        QCOMPARE(model.headerData(section, Qt::Horizontal, role), value);
    }
};

QTEST_GUILESS_MAIN(TestColumnTableModel)
#include "tst_columntablemodel.moc"

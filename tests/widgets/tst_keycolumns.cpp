// SPDX-License-Identifier: GPL-3.0-or-later
// A docked table's key columns as a person reads them: a plain number is shown whole however long (a total of
// 324,532,153,000 ns showed as "324,5…3,000" at 1366x768), a long text in a key column is elided past 16 characters
// (whole in its tooltip), and the name takes the width that is left.
#include "widgets/common/keycolumns.h"

#include <QHeaderView>
#include <QStandardItemModel>
#include <QStyle>
#include <QTableView>
#include <QTest>

using namespace nsw;

namespace {
QString s(const char* text)
{
    return QString::fromUtf8(text);
}

/// Whether @p view draws cell (0, @p column) whole: Qt's item delegate keeps a focus-frame margin on each side.
bool shownWhole(const QTableView& view, int column)
{
    const int margin = view.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &view) + 1;
    const QString text = view.model()->index(0, column).data().toString();
    return view.fontMetrics().elidedText(text, Qt::ElideMiddle, view.columnWidth(column) - 2 * margin) == text;
}
} // namespace

class TestKeyColumns : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keyCells_data()
    {
        QTest::addColumn<QString>("cell");
        QTest::addColumn<bool>("whole");
        QTest::newRow("a 15-digit total in ns") << s("324,532,153,000") << true;
        QTest::newRow("a 19-digit total") << s("9,223,372,036,854,775") << true;
        QTest::newRow("a signed share") << s("\u2212"
                                             "41.2 %")
                                        << true;
        QTest::newRow("a long status text") << s("unchanged (fewer calls and more)") << false;
    }
    void keyCells()
    {
        QFETCH(QString, cell);
        QFETCH(bool, whole);
        QStandardItemModel model(3, 3);
        model.setHorizontalHeaderLabels({ s("Name"), s("Key"), s("Other") });
        for (int row = 0; row < 3; ++row) {
            model.setItem(row, 0, new QStandardItem(s("void at::native::vectorized_elementwise_kernel<4>(int)")));
            model.setItem(row, 1, new QStandardItem(row == 0 ? cell : s("7")));
            model.setItem(row, 2, new QStandardItem(s("x")));
        }
        QTableView view;
        view.setModel(&model);
        view.resize(420, 200);
        new KeyColumns(&view, 0, { 1 });
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(shownWhole(view, 1), whole);
        // The name first, the key beside it, both in the viewport.
        QCOMPARE(view.columnViewportPosition(0), 0);
        QCOMPARE(view.columnViewportPosition(1), view.columnWidth(0));
        QVERIFY(view.columnViewportPosition(1) + view.columnWidth(1) <= view.viewport()->width());
        QVERIFY(view.columnWidth(0) >= 10 * view.fontMetrics().averageCharWidth());
    }

    /// Before any row (a profile without NVTX ranges) a key column shows its title whole, not "G…".
    void keyTitlesWholeWithoutRows()
    {
        QStandardItemModel model(0, 3);
        model.setHorizontalHeaderLabels({ s("Range"), s("GPU"), s("CPU") });
        QTableView view;
        view.setModel(&model);
        view.resize(420, 200);
        new KeyColumns(&view, 0, { 1, 2 });
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (const int c : { 1, 2 })
            QVERIFY2(view.columnWidth(c) >= view.horizontalHeader()->sectionSizeHint(c),
                qPrintable(s("column %1: %2 px for a title of %3")
                               .arg(c)
                               .arg(view.columnWidth(c))
                               .arg(view.horizontalHeader()->sectionSizeHint(c))));
    }
};

QTEST_MAIN(TestKeyColumns)
#include "tst_keycolumns.moc"

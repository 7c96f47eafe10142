// SPDX-License-Identifier: GPL-3.0-or-later
// Column titles too long for their section, as a person sees them: elided with an ellipsis, keeping their start
// ("g2g · nsys2026.2_h1…"), never clipped on both sides as Qt 6.4's own header paints a centred title; titles that fit
// unchanged. The header every table and tree of the workbench gets (setupTableView, setupTreeView).
#include "widgets/common/elidingheader.h"
#include "widgets/common/tableviews.h"

#include <QStandardItemModel>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace nsw;
using namespace Qt::StringLiterals;

class TestElidingHeader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void longTitlesAreElided_data()
    {
        QTest::addColumn<bool>("tree");
        QTest::addRow("table") << false;
        QTest::addRow("tree") << true;
    }
    void longTitlesAreElided()
    {
        QFETCH(bool, tree);
        const QString longTitle = u"g2g · nsys2026.2_h100x2_mfu_before_nccl"_s;
        QStandardItemModel model(2, 2);
        model.setHorizontalHeaderLabels({ u"Category"_s, longTitle });
        QTableView table;
        QTreeView treeView;
        QAbstractItemView* view = tree ? static_cast<QAbstractItemView*>(&treeView) : &table;
        if (tree) {
            treeView.setModel(&model);
            setupTreeView(&treeView);
        } else {
            table.setModel(&model);
            setupTableView(&table);
        }
        auto* header = qobject_cast<ElidingHeader*>(tree ? treeView.header() : table.horizontalHeader());
        QVERIFY(header);
        view->resize(600, 200);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view));
        header->resizeSection(0, 300);
        header->resizeSection(1, 120);
        const QString shown = header->shownText(1);
        QVERIFY2(shown.startsWith(u"g2g · "_s) && shown.endsWith(u"…"_s) && shown.size() < longTitle.size(),
            qPrintable(shown));
        QVERIFY(header->fontMetrics().horizontalAdvance(shown) <= 120);
        QCOMPARE(header->shownText(0), u"Category"_s);
        header->resizeSection(1, 2 * header->fontMetrics().horizontalAdvance(longTitle));
        QCOMPARE(header->shownText(1), longTitle);
    }
};

QTEST_MAIN(TestElidingHeader)
#include "tst_elidingheader.moc"

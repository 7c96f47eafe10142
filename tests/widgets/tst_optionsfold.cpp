// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/common/optionsfold.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QWidget>

using namespace nsw;

class TestOptionsFold : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    /// Compact below the given number of lines of the pane's font: the button shows, the options only while it is
    /// down; changed() fires once per change, not per resize.
    void foldsBelowItsHeight_data()
    {
        QTest::addColumn<int>("lines");
        QTest::addColumn<bool>("compact");
        QTest::newRow("one line short") << 9 << true;
        QTest::newRow("exactly ten lines") << 10 << false;
        QTest::newRow("taller") << 30 << false;
    }
    void foldsBelowItsHeight()
    {
        QFETCH(int, lines);
        QFETCH(bool, compact);
        QWidget pane;
        OptionsFold fold(&pane, 10);
        QSignalSpy changed(&fold, &OptionsFold::changed);
        const int line = pane.fontMetrics().height();
        pane.resize(300, lines * line);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QCOMPARE(fold.isCompact(), compact);
        QCOMPARE(fold.button()->isVisible(), compact);
        QCOMPARE(fold.showsOptions(), !compact);
        QCOMPARE(changed.count(), compact ? 1 : 0);
        pane.resize(320, lines * line); // no change of mode: no signal
        QApplication::processEvents();
        QCOMPARE(changed.count(), compact ? 1 : 0);
        if (compact) {
            fold.button()->click();
            QVERIFY(fold.showsOptions());
            QCOMPARE(changed.count(), 2);
            pane.resize(300, 20 * line); // tall again: the button goes, the options stay shown
            QApplication::processEvents();
            QVERIFY(!fold.isCompact() && !fold.button()->isVisible() && fold.showsOptions());
            QCOMPARE(changed.count(), 3);
        }
    }
};

QTEST_MAIN(TestOptionsFold)
#include "tst_optionsfold.moc"

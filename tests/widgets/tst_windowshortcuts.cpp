// SPDX-License-Identifier: GPL-3.0-or-later
// The window's keys as a person presses them: no key bound twice (Qt fires neither), a pane's key shows and raises
// its pane and never closes it, and the shortcuts dialog lists each key once.
#include "app/mainwindow.h"
#include "app/panekeys.h"
#include "widgets/common/pane.h"
#include "widgets/shell/helpdialogs.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTest>

using namespace nsw;

namespace {
QString s(const char* text)
{
    return QString::fromUtf8(text);
}

/// Where an action's key works: the whole window, or only inside a widget (and its children).
QWidget* scopeOf(const QAction* a)
{
    if (a->shortcutContext() == Qt::WindowShortcut || a->shortcutContext() == Qt::ApplicationShortcut)
        return nullptr;
    return qobject_cast<QWidget*>(a->parent());
}

/// Two keys collide when one scope holds the other (a window-wide key collides with every other).
bool collide(const QWidget* a, const QWidget* b)
{
    return !a || !b || a == b || a->isAncestorOf(b) || b->isAncestorOf(a);
}

QString describe(const QAction* a)
{
    QString text = a->text();
    text.remove(QLatin1Char('&'));
    return QStringLiteral("'%1' (%2)")
        .arg(text, QLatin1String(a->parent() ? a->parent()->metaObject()->className() : "-"));
}

/// Every key bound twice where both bindings can fire: Qt then reports "Ambiguous shortcut overload" and runs none.
QStringList duplicateShortcuts(const MainWindow& w)
{
    struct Binding
    {
        QKeySequence key;
        const QAction* action;
    };
    QList<Binding> bindings;
    for (const QAction* a : w.findChildren<QAction*>())
        for (const QKeySequence& key : a->shortcuts())
            bindings.append({ key, a });
    QStringList duplicates;
    for (qsizetype i = 0; i < bindings.size(); ++i)
        for (qsizetype j = i + 1; j < bindings.size(); ++j)
            if (bindings[i].key == bindings[j].key && bindings[i].action != bindings[j].action
                && collide(scopeOf(bindings[i].action), scopeOf(bindings[j].action)))
                duplicates << QStringLiteral("%1: %2 and %3")
                                  .arg(bindings[i].key.toString(), describe(bindings[i].action),
                                      describe(bindings[j].action));
    return duplicates;
}

/// A pane another branch might add (a Ranks or Samples pane).
class ExtraPane : public Pane
{
public:
    explicit ExtraPane(Workbench* workbench)
        : Pane(workbench, QStringLiteral("extra"), QStringLiteral("E&xtra"))
    { }
};

QDockWidget* dockWithId(const MainWindow& w, const QString& id)
{
    return w.dockOf(w.pane(id));
}

/// On screen: in front of its tab group (Qt keeps a tab behind another "visible" but moves it off the window).
bool inFront(const QDockWidget* dock)
{
    return dock->isVisible() && !dock->visibleRegion().isEmpty();
}
} // namespace

class TestWindowShortcuts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Every action of the window (menus, panes, toolbars, and a pane added later as another branch adds one):
    /// no key bound twice where both could fire. Ctrl+Shift+P was Chart as PNG and Profile Application.
    void noKeyIsBoundTwice()
    {
        MainWindow w(true);
        const QStringList duplicates = duplicateShortcuts(w);
        QVERIFY2(duplicates.isEmpty(), qPrintable(duplicates.join(QLatin1Char('\n'))));
        QVERIFY2(!w.findChildren<QAction*>().isEmpty(), "the walk found the window's actions");
    }

    /// The walk catches a duplicate: a pane added with a key already taken is reported (so that the test cannot
    /// pass by finding nothing).
    void aDuplicateIsReported()
    {
        MainWindow w(true);
        auto* extra = new ExtraPane(w.workbench());
        w.addPane(extra, PaneGroup::Charts, paneShortcut(4));
        const QStringList duplicates = duplicateShortcuts(w);
        QCOMPARE(duplicates.size(), 1);
        QVERIFY2(duplicates.first().contains(paneShortcut(4).toString()), qPrintable(duplicates.first()));
    }

    void paneKeysCoverMorePanes_data()
    {
        QTest::addColumn<int>("number");
        QTest::addColumn<QKeySequence>("key");
        QTest::newRow("first") << 1 << QKeySequence(s("Ctrl+1"));
        QTest::newRow("ninth") << 9 << QKeySequence(s("Ctrl+9"));
        QTest::newRow("tenth") << 10 << QKeySequence(s("Ctrl+0"));
        QTest::newRow("eleventh") << 11 << QKeySequence(s("Alt+1"));
        QTest::newRow("nineteenth") << 19 << QKeySequence(s("Alt+9"));
        QTest::newRow("none after") << 20 << QKeySequence();
    }
    /// A tenth and eleventh pane (ranks, samples) still get a key a person can press, distinct from the others.
    void paneKeysCoverMorePanes()
    {
        QFETCH(int, number);
        QFETCH(QKeySequence, key);
        QCOMPARE(paneShortcut(number), key);
        if (!key.isEmpty())
            QCOMPARE(paneNumberOf(key), number);
    }

    void paneKeyShowsAndNeverCloses_data()
    {
        QTest::addColumn<QString>("pane");
        QTest::addColumn<QString>("frontTab");
        QTest::addColumn<int>("number");
        QTest::newRow("Statistics behind Kernels") << s("statistics") << s("kernels") << 2;
        QTest::newRow("Compare behind Categories") << s("compare") << s("categories") << 7;
        QTest::newRow("Findings behind Kernels") << s("findings") << s("kernels") << 9;
    }
    /// Ctrl+N on a pane behind another tab brings it to the front; pressed again it stays; closed, it shows again.
    /// (A toggle closed the pane on the first press: Qt counts a tab behind another as visible.)
    void paneKeyShowsAndNeverCloses()
    {
        QFETCH(QString, pane);
        QFETCH(QString, frontTab);
        QFETCH(int, number);
        MainWindow w(true);
        w.resize(1366, 740);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QDockWidget* dock = dockWithId(w, pane);
        QDockWidget* front = dockWithId(w, frontTab);
        showAndRaise(front);
        QTRY_VERIFY(inFront(front));
        QVERIFY(!inFront(dock));
        const QKeySequence key = paneShortcut(number);
        const auto press = [&]() { QTest::keyClick(&w, Qt::Key(key[0].key()), key[0].keyboardModifiers()); };
        press();
        QTRY_VERIFY2(inFront(dock), "brought to the front");
        press();
        QTest::qWait(0);
        QVERIFY2(inFront(dock), "a second press leaves it in front");
        dock->close();
        QVERIFY(dock->isHidden());
        press();
        QTRY_VERIFY2(inFront(dock), "a closed pane shows again");
    }

    /// Help → Keyboard shortcuts (its Markdown, as the dialog shows it): each key on one row, Chart as PNG and
    /// Profile Application on keys of their own, every pane's key.
    void shortcutsDialogListsEachKeyOnce()
    {
        MainWindow w(true);
        QList<QMenu*> menus;
        for (QAction* top : w.menuBar()->actions())
            if (top->menu())
                menus.append(top->menu());
        QMap<QString, QString> byKey;
        for (const QString& line : shortcutsMarkdown(menus).split(QLatin1Char('\n'))) {
            const QStringList cells = line.split(QLatin1Char('|'), Qt::SkipEmptyParts);
            if (cells.size() != 2 || cells.first().trimmed().startsWith(s("Timeline:"))
                || cells.first().trimmed().startsWith(s("Tables:")))
                continue;
            const QString action = cells.first().trimmed();
            const QString key = cells.last().trimmed();
            QVERIFY2(!byKey.contains(key), qPrintable(s("%1 for %2 and %3").arg(key, byKey.value(key), action)));
            byKey.insert(key, action);
        }
        const auto keyText = [](const QKeySequence& k) { return k.toString(QKeySequence::NativeText); };
        QVERIFY(byKey.value(keyText(QKeySequence(s("Ctrl+Shift+P")))).contains(s("Profile Application")));
        QVERIFY(byKey.value(keyText(QKeySequence(s("Ctrl+Shift+G")))).contains(s("Chart as PNG")));
        for (int n = 1; n <= 9; ++n)
            QVERIFY2(
                byKey.value(keyText(paneShortcut(n))).startsWith(s("View → ")), qPrintable(keyText(paneShortcut(n))));
    }
};

QTEST_MAIN(TestWindowShortcuts)
#include "tst_windowshortcuts.moc"

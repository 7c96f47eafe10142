// SPDX-License-Identifier: GPL-3.0-or-later
// The window's menus as a person uses them: distinct mnemonics, the Help dialogs, file dialogs that remember the
// last folder.
#include "app/mainwindow.h"
#include "testutils.h"
#include "widgets/common/filedialogs.h"
#include "widgets/shell/guidedialog.h"
#include "widgets/shell/helpdialogs.h"

#include <QAbstractTextDocumentLayout>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTreeWidget>

using namespace nsw;

namespace {
QString s(const char* text)
{
    return QString::fromUtf8(text);
}

QMenu* menuNamed(const MainWindow& w, const QString& title)
{
    for (QAction* a : w.menuBar()->actions())
        if (a->menu() && a->text() == title)
            return a->menu();
    return nullptr;
}

QAction* actionNamed(const QMenu* menu, const QString& text)
{
    for (QAction* a : menu->actions())
        if (a->text() == text)
            return a;
    return nullptr;
}

/// The letter after '&' (lower case), or a null character.
QChar mnemonic(const QString& text)
{
    for (qsizetype i = 0; i + 1 < text.size(); ++i)
        if (text[i] == QLatin1Char('&')) {
            if (text[i + 1] != QLatin1Char('&'))
                return text[i + 1].toLower();
            ++i;
        }
    return {};
}

/// The visible dialog titled @p title that appeared after @p action was triggered.
QDialog* dialogAfter(MainWindow& w, QAction* action, const QString& title)
{
    action->trigger();
    for (QDialog* d : w.findChildren<QDialog*>())
        if (d->windowTitle() == title && d->isVisible())
            return d;
    return nullptr;
}
} // namespace

class TestWindowMenus : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Alt+letter reaches one entry per menu: no two entries share a mnemonic, and every entry has one.
    void menusHaveDistinctMnemonics()
    {
        MainWindow w(true);
        for (QAction* top : w.menuBar()->actions()) {
            QVERIFY2(!mnemonic(top->text()).isNull(), qPrintable(top->text()));
            QMap<QChar, QString> seen;
            for (const QAction* a : top->menu()->actions()) {
                if (a->isSeparator())
                    continue;
                const QChar m = mnemonic(a->text());
                QVERIFY2(!m.isNull(), qPrintable(top->text() + s(" → ") + a->text()));
                QVERIFY2(!seen.contains(m),
                    qPrintable(s("%1: '%2' in both %3 and %4").arg(top->text(), QString(m), seen.value(m), a->text())));
                seen.insert(m, a->text());
            }
        }
    }

    /// Help → Guide shows the user guide (docs/user-guide.md of this build, shipped in the binary) with its contents
    /// beside it: a click on a heading brings it to the top of the text, and a link to the command-line reference
    /// opens it there. Help → Keyboard shortcuts lists the menu shortcuts as the menus define them.
    void helpShowsGuideAndShortcuts()
    {
        MainWindow w(true);
        w.show();
        QMenu* help = menuNamed(w, s("&Help"));
        QVERIFY(help);
        QFile source(nsw::test::sourceDir() + QStringLiteral("/docs/user-guide.md"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QList<MarkdownHeading> headings = markdownHeadings(QString::fromUtf8(source.readAll()));
        QVERIFY(headings.size() > 8);

        auto* guide = qobject_cast<GuideDialog*>(dialogAfter(w, actionNamed(help, s("&Guide")), s("Guide")));
        QVERIFY(guide);
        QTRY_VERIFY(guide->text()->isVisible() && guide->contents()->isVisible());
        QVERIFY(guide->width() >= 600 && guide->height() >= 400);
        QVERIFY(guide->text()->toPlainText().contains(s("Linked selection")));
        // The contents: the user guide's sections, then the command-line reference's.
        QTreeWidgetItem* userGuide = guide->contents()->topLevelItem(0);
        QCOMPARE(userGuide->text(0), s("User guide"));
        QStringList sections;
        for (int i = 0; i < userGuide->childCount(); ++i)
            sections << userGuide->child(i)->text(0);
        for (const MarkdownHeading& h : headings)
            if (h.level == 2)
                QVERIFY2(sections.contains(h.text), qPrintable(h.text));
        QVERIFY(sections.contains(s("Focus")) && sections.contains(s("Timeline")));
        QCOMPARE(guide->contents()->topLevelItem(1)->text(0), s("Command-line reference"));
        // A click on "Timeline": its heading at the top of the text (it starts far below); on "Focus", the last
        // section, its heading in sight.
        QVERIFY(guide->text()->verticalScrollBar()->value() == 0);
        Q_EMIT guide->contents()->itemClicked(userGuide->child(int(sections.indexOf(s("Timeline")))), 0);
        QCOMPARE(guide->text()->cursorForPosition(QPoint(4, 4)).block().text(), s("Timeline"));
        Q_EMIT guide->contents()->itemClicked(userGuide->child(int(sections.indexOf(s("Focus")))), 0);
        QTextBlock focus = guide->text()->document()->begin();
        while (focus.isValid() && !(focus.blockFormat().headingLevel() == 2 && focus.text() == s("Focus")))
            focus = focus.next();
        QVERIFY(focus.isValid());
        const QRectF shown = guide->text()->document()->documentLayout()->blockBoundingRect(focus).translated(
            0, -guide->text()->verticalScrollBar()->value());
        QVERIFY2(shown.top() >= 0 && shown.bottom() <= guide->text()->viewport()->height(),
            qPrintable(s("Focus heading at %1 px in %2").arg(shown.top()).arg(guide->text()->viewport()->height())));
        // A link into the other document.
        Q_EMIT guide->text()->anchorClicked(QUrl(s("cli.md#compare")));
        QVERIFY(guide->text()->toPlainText().contains(s("Command-line reference")));
        QCOMPARE(guide->text()->cursorForPosition(QPoint(4, 4)).block().text(), s("compare"));
        guide->close();

        QDialog* keys = dialogAfter(w, actionNamed(help, s("&Keyboard shortcuts")), s("Keyboard shortcuts"));
        QVERIFY(keys);
        const QString keysText = keys->findChild<QTextBrowser*>()->toPlainText();
        const QString open = QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText);
        QVERIFY2(keysText.contains(s("File → Open…")) && keysText.contains(open), qPrintable(keysText));
        QVERIFY(keysText.contains(s("View → Kernels")));
        QVERIFY(keysText.contains(QKeySequence(Qt::CTRL | Qt::Key_1).toString(QKeySequence::NativeText)));
        QVERIFY(keysText.contains(s("File → Export → Chart as PNG…")));
        QVERIFY(keysText.contains(s("Timeline: fit everything")));
        keys->close();
    }

    /// Open dialogs start in the folder last opened from, saves in the folder last saved to (never the inputs'
    /// folder: often read-only, and nothing is written next to an export), both remembered across runs (QSettings),
    /// falling back to the home folder when gone.
    void fileDialogsRememberTheLastFolder()
    {
        QSettings().remove(s("dialogs/lastFolder"));
        QSettings().remove(s("dialogs/lastSaveFolder"));
        QCOMPARE(lastDialogFolder(), QDir::homePath());
        QVERIFY(QDir(m_dir.path()).mkpath(s("exports")));
        QVERIFY(QDir(m_dir.path()).mkpath(s("traces")));
        const QString folder = QDir(m_dir.path()).filePath(s("exports"));
        const QString traces = QDir(m_dir.path()).filePath(s("traces"));
        rememberDialogFolder(QDir(traces).filePath(s("run.sqlite"))); // an export opened
        QCOMPARE(lastDialogFolder(), traces);
        QCOMPARE(suggestedSavePath(s("chart.png")), QDir(QDir::homePath()).filePath(s("chart.png")));
        rememberSaveFolder(QDir(folder).filePath(s("kernels.csv"))); // a table saved
        QCOMPARE(suggestedSavePath(s("chart.png")), QDir(folder).filePath(s("chart.png")));
        QCOMPARE(saveDialogFolder(), folder);
        QCOMPARE(lastDialogFolder(), traces);
        rememberDialogFolder(QDir(folder).filePath(s("kernels.csv")));
        QCOMPARE(QSettings().value(s("dialogs/lastFolder")).toString(), folder);
        rememberDialogFolder(m_dir.path()); // a folder (Open trace folder)
        QCOMPARE(lastDialogFolder(), m_dir.path());
        rememberDialogFolder(folder);
        QVERIFY(QDir(folder).removeRecursively());
        QCOMPARE(lastDialogFolder(), QDir::homePath());
        QCOMPARE(saveDialogFolder(), QDir::homePath()); // the save folder is gone too
    }
};

QTEST_MAIN(TestWindowMenus)
#include "tst_windowmenus.moc"

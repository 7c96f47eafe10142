// SPDX-License-Identifier: GPL-3.0-or-later
// The window's menus as a person uses them: distinct mnemonics, the Help dialogs, file dialogs that remember the
// last folder.
#include "app/mainwindow.h"
#include "testutils.h"
#include "widgets/common/filedialogs.h"
#include "widgets/shell/helpdialogs.h"

#include <QDialog>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

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

    /// Help → Guide shows the README's "Using the workbench" section (shipped in the binary, so it is the README's
    /// text of this build); Help → Keyboard shortcuts lists the menu shortcuts as the menus define them.
    void helpShowsGuideAndShortcuts()
    {
        MainWindow w(true);
        w.show();
        QMenu* help = menuNamed(w, s("&Help"));
        QVERIFY(help);
        QFile readme(nsw::test::sourceDir() + QStringLiteral("/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString section = guideSection(QString::fromUtf8(readme.readAll()));
        QVERIFY(section.startsWith(s("## Using the workbench")));
        QVERIFY(!section.contains(s("\n## Headless")));
        QCOMPARE(guideMarkdown(), section);

        QDialog* guide = dialogAfter(w, actionNamed(help, s("&Guide")), s("Guide"));
        QVERIFY(guide);
        const QString guideText = guide->findChild<QTextBrowser*>()->toPlainText();
        QVERIFY(guideText.contains(s("Using the workbench")));
        QVERIFY(guideText.contains(s("Linked selection")));
        QVERIFY(guide->width() >= 600 && guide->height() >= 400);
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

    /// Save and open dialogs start in the folder last chosen, remembered across runs (QSettings), and fall back to
    /// the home folder when it is gone.
    void fileDialogsRememberTheLastFolder()
    {
        QSettings().remove(s("dialogs/lastFolder"));
        QCOMPARE(lastDialogFolder(), QDir::homePath());
        QVERIFY(QDir(m_dir.path()).mkpath(s("exports")));
        const QString folder = QDir(m_dir.path()).filePath(s("exports"));
        rememberDialogFolder(QDir(folder).filePath(s("kernels.csv")));
        QCOMPARE(lastDialogFolder(), folder);
        QCOMPARE(suggestedSavePath(s("chart.png")), QDir(folder).filePath(s("chart.png")));
        QCOMPARE(QSettings().value(s("dialogs/lastFolder")).toString(), folder);
        rememberDialogFolder(m_dir.path()); // a folder (Open trace folder)
        QCOMPARE(lastDialogFolder(), m_dir.path());
        rememberDialogFolder(folder);
        QVERIFY(QDir(folder).removeRecursively());
        QCOMPARE(lastDialogFolder(), QDir::homePath());
    }
};

QTEST_MAIN(TestWindowMenus)
#include "tst_windowmenus.moc"

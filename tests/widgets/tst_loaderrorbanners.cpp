// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/shell/loaderrorbanners.h"
#include "widgets/shell/startpage.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace nsw;

class TestLoadErrorBanners : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fromMessage_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("reason");
        QTest::addRow("loader message names the file first")
            << QStringLiteral("/t/a.sqlite") << QStringLiteral("/t/a.sqlite: file is not a database")
            << QStringLiteral("file is not a database");
        QTest::addRow("message without the path is kept whole")
            << QStringLiteral("/t/a.sqlite") << QStringLiteral("no permission") << QStringLiteral("no permission");
        QTest::addRow("path only as a prefix of a longer name")
            << QStringLiteral("/t/a") << QStringLiteral("/t/a.sqlite: empty") << QStringLiteral("/t/a.sqlite: empty");
    }
    void fromMessage()
    {
        QFETCH(QString, path);
        QFETCH(QString, message);
        QFETCH(QString, reason);
        const LoadError e = LoadError::fromMessage(path, message);
        QCOMPARE(e.path, path);
        QCOMPARE(e.reason, reason);
    }

    void bannersShowFileAndReasonUntilDismissed()
    {
        QWidget window;
        window.resize(900, 200);
        auto* banners = new LoadErrorBanners(&window);
        banners->setGeometry(0, 0, 900, 200);
        window.show();
        QSignalSpy changed(banners, &LoadErrorBanners::errorsChanged);
        QSignalSpy another(banners, &LoadErrorBanners::openAnotherRequested);
        banners->add({ QStringLiteral("/traces/run1.sqlite"), QStringLiteral("file is not a database") });
        banners->add({ QStringLiteral("/traces/empty"), QStringLiteral("the folder holds no .sqlite export") });
        QCOMPARE(changed.count(), 2);
        QCOMPARE(int(banners->errors().size()), 2);
        for (int i = 0; i < 2; ++i) {
            QWidget* b = banners->banner(i);
            QTRY_VERIFY(b->isVisible());
            QVERIFY(b->height() > 0);
        }
        const QString first = banners->banner(0)->findChild<QLabel*>(QStringLiteral("loadErrorText"))->text();
        QVERIFY2(first.contains(QStringLiteral("run1.sqlite")) && first.contains(QStringLiteral("not a database")),
            qPrintable(first));
        QTest::mouseClick(
            banners->banner(1)->findChild<QPushButton*>(QStringLiteral("dismissLoadError")), Qt::LeftButton);
        QCOMPARE(int(banners->errors().size()), 1);
        QCOMPARE(banners->errors().front().path, QStringLiteral("/traces/run1.sqlite"));
        QTest::mouseClick(banners->banner(0)->findChild<QPushButton*>(QStringLiteral("openAnother")), Qt::LeftButton);
        QCOMPARE(another.count(), 1);
    }

    /// Several failed loads (a folder of broken exports) go in one click: "Dismiss all" on the first banner, shown
    /// only while there are two or more.
    void severalBannersGoAtOnce()
    {
        QWidget window;
        window.resize(900, 300);
        auto* banners = new LoadErrorBanners(&window);
        banners->setGeometry(0, 0, 900, 300);
        window.show();
        const auto dismissAllOf = [&](int i) {
            return banners->banner(i)->findChild<QPushButton*>(QStringLiteral("dismissAllLoadErrors"));
        };
        banners->add({ QStringLiteral("/t/a.sqlite"), QStringLiteral("empty file") });
        QTRY_VERIFY(banners->banner(0)->isVisible());
        QVERIFY(!dismissAllOf(0)->isVisible());
        banners->add({ QStringLiteral("/t/b.sqlite"), QStringLiteral("truncated") });
        banners->add({ QStringLiteral("/t/c.sqlite"), QStringLiteral("not a database") });
        QTRY_VERIFY(dismissAllOf(0)->isVisible());
        QVERIFY(!dismissAllOf(1)->isVisible() && !dismissAllOf(2)->isVisible());
        QSignalSpy changed(banners, &LoadErrorBanners::errorsChanged);
        QTest::mouseClick(dismissAllOf(0), Qt::LeftButton);
        QVERIFY(!banners->hasContent());
        QCOMPARE(banners->banner(0), nullptr);
        QCOMPARE(changed.count(), 1);
    }

    void startPageListsTheErrors()
    {
        StartPage page;
        page.show();
        QVERIFY(page.errorText().isEmpty());
        page.setErrors({ { QStringLiteral("/t/a.sqlite"), QStringLiteral("empty file") },
            { QStringLiteral("/t/b.sqlite"), QStringLiteral("truncated <export>") } });
        const QString text = page.errorText();
        QVERIFY(text.contains(QStringLiteral("/t/a.sqlite")));
        QVERIFY(text.contains(QStringLiteral("truncated &lt;export&gt;")));
        auto* label = page.findChild<QLabel*>(QStringLiteral("startPageErrors"));
        QVERIFY(label->isVisible() && label->height() > 0);
        page.setErrors({});
        QVERIFY(page.errorText().isEmpty());
        QVERIFY(!label->isVisible());
    }
};

QTEST_MAIN(TestLoadErrorBanners)
#include "tst_loaderrorbanners.moc"

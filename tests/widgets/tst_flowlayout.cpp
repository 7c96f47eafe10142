// SPDX-License-Identifier: GPL-3.0-or-later
// FlowLayout as a person sees it: controls keep their own width, wrap onto more rows when the pane is narrow, never
// overlap and never leave the pane; the NVLink pane's controls in a narrow dock.
#include "../nvlink/nvlinkscenario.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/stats/kernelindex.h"
#include "widgets/common/flowlayout.h"
#include "widgets/compare/comparepane.h"
#include "widgets/nvlink/nvlinkattach.h"
#include "widgets/nvlink/nvlinkpane.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

using namespace nsw;

namespace {

/// A session of the NVLink scenario's profile (tests/nvlink/nvlinkscenario.h), without its recording.
ProfileSession* nvlinkScenarioSession()
{
    LoadedProfile loaded;
    loaded.profile = test::scenarioProfile();
    loaded.kernelIndex = std::make_shared<KernelIndex>(loaded.profile, KernelNameMode::Demangled);
    loaded.load.profile = loaded.profile;
    return new ProfileSession(loaded);
}

/// Every visible descendant control of @p root: inside it, not squeezed below its size hint, not overlapping another.
void checkControls(QWidget& root, const QList<QWidget*>& controls)
{
    for (qsizetype i = 0; i < controls.size(); ++i) {
        QWidget* c = controls[i];
        QVERIFY2(c->isVisible(), qPrintable(c->objectName()));
        const QRect r(c->mapTo(&root, QPoint(0, 0)), c->size());
        QVERIFY2(root.rect().contains(r),
            qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 outside %6x%7")
                           .arg(QLatin1String(c->metaObject()->className()))
                           .arg(r.x())
                           .arg(r.y())
                           .arg(r.width())
                           .arg(r.height())
                           .arg(root.width())
                           .arg(root.height())));
        QVERIFY2(c->width() >= c->minimumSizeHint().width(), c->metaObject()->className());
        for (qsizetype j = 0; j < i; ++j) {
            const QRect other(controls[j]->mapTo(&root, QPoint(0, 0)), controls[j]->size());
            QVERIFY(!r.intersects(other));
        }
    }
}

/// Counts the layout requests a widget receives.
class LayoutRequests : public QObject
{
public:
    explicit LayoutRequests(QWidget* watched) { watched->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        count += event->type() == QEvent::LayoutRequest ? 1 : 0;
        return false;
    }
};

} // namespace

class TestFlowLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void wrapsWhenNarrow_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("rows");
        // Eight buttons of one fixed width W and spacing 6: n fit a row when n W + (n - 1) 6 <= width.
        QTest::newRow("wide: one row") << 2000 << 1;
        QTest::newRow("half: two rows") << 4 * 100 + 3 * 6 << 2;
        QTest::newRow("narrow: eight rows") << 150 << 8;
    }
    void wrapsWhenNarrow()
    {
        QFETCH(int, width);
        QFETCH(int, rows);
        QWidget pane;
        auto* outer = new QVBoxLayout(&pane);
        outer->setContentsMargins(0, 0, 0, 0);
        auto* flow = new FlowLayout;
        flow->setSpacing(6);
        QList<QWidget*> buttons;
        for (int i = 0; i < 8; ++i) {
            auto* b = new QPushButton(QStringLiteral("Button %1").arg(i), &pane);
            b->setFixedSize(100, 24);
            flow->addWidget(b);
            buttons << b;
        }
        outer->addLayout(flow);
        outer->addStretch(1);
        pane.resize(width, 400);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QSet<int> tops;
        for (QWidget* b : std::as_const(buttons))
            tops.insert(b->y());
        QCOMPARE(int(tops.size()), rows);
        QCOMPARE(flow->heightForWidth(width), rows * 24 + (rows - 1) * 6);
        checkControls(pane, buttons);
        // Left to right, then down: the first button of each row starts at the left edge.
        QCOMPARE(buttons.first()->pos(), QPoint(0, 0));
    }

    void settlesAfterALayoutPass()
    {
        // A wrapped layout asks its parents to lay out again once per new width, never in a loop (an idle window
        // that lays itself out forever burns a core).
        QWidget pane;
        auto* outer = new QVBoxLayout(&pane);
        auto* flow = new FlowLayout;
        for (int i = 0; i < 8; ++i)
            flow->addWidget(new QPushButton(QStringLiteral("Button %1").arg(i), &pane));
        outer->addLayout(flow);
        pane.resize(200, 400);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        for (int i = 0; i < 5; ++i)
            QCoreApplication::processEvents();
        const LayoutRequests requests(&pane);
        for (int i = 0; i < 20; ++i)
            QCoreApplication::processEvents();
        QCOMPARE(requests.count, 0);
    }

    /// With a recording attached (without data the pane shows only Attach and Link peaks) and More open: every
    /// control above the plot, in the labelled fields and under More too.
    void nvlinkControlsInANarrowDock()
    {
        Workbench wb;
        NvlinkPane pane(&wb);
        pane.resize(360, 700);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        ProfileSession* session = nvlinkScenarioSession();
        wb.addSession(session);
        QTemporaryDir dir;
        const QString bin = dir.filePath(QStringLiteral("nvlink_trace_gpu0.bin"));
        QFile file(bin);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(test::scenarioRecording()) > 0);
        file.close();
        attachNvlinkRecordings(session, { { bin, 0 } }, nullptr, [](const QStringList&, const QStringList&) {});
        QTRY_VERIFY(pane.sourceSelector()->isVisible());
        pane.moreButton()->click();
        QList<QWidget*> controls;
        for (QWidget* w : pane.findChildren<QWidget*>()) {
            if (!w->isVisible() || pane.views()->isAncestorOf(w))
                continue;
            if (qobject_cast<QComboBox*>(w) || qobject_cast<QCheckBox*>(w) || qobject_cast<QAbstractButton*>(w)
                || qobject_cast<QAbstractSpinBox*>(w))
                controls << w;
        }
        // Source, view, TX, RX, Links, unit, Top, NCCL only, Export, More, offset, GPU model, Link peaks, Attach.
        QCOMPARE(controls.size(), 14);
        checkControls(pane, controls);
        QVERIFY(pane.sourceSelector()->width() >= pane.sourceSelector()->minimumSizeHint().width());
    }

    void compareControlsInANarrowDock_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("360 px") << 360;
        QTest::newRow("520 px, the docked Compare tab at 1920x1080")
            << 520; // the Profiles button was cut to "1 of 1) + 1"
    }
    void compareControlsInANarrowDock()
    {
        QFETCH(int, width);
        Workbench wb;
        ComparePane pane(&wb, nullptr);
        pane.setMinimumSize(200, 120); // as the window docks it: the dock may be narrower than the controls' row
        pane.resize(width, 700);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QCOMPARE(pane.width(), width);
        // The controls above the chart and table (those in the splitter are the table's filter row).
        QList<QWidget*> controls;
        for (QWidget* w : pane.findChildren<QWidget*>()) {
            if (!w->isVisible() || w->parentWidget() == nullptr)
                continue;
            bool inSplitter = false;
            for (QWidget* up = w->parentWidget(); up && up != &pane; up = up->parentWidget())
                inSplitter = inSplitter || qobject_cast<QSplitter*>(up);
            if (inSplitter)
                continue;
            if (qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractButton*>(w) || qobject_cast<QAbstractSpinBox*>(w))
                controls << w;
        }
        QVERIFY(controls.size() >= 7);
        checkControls(pane, controls);
        for (QWidget* c : controls)
            if (auto* b = qobject_cast<QAbstractButton*>(c); b && !b->text().isEmpty())
                QVERIFY2(b->width() >= b->sizeHint().width(), qPrintable(b->text())); // the text whole
    }
};

QTEST_MAIN(TestFlowLayout)
#include "tst_flowlayout.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// View → Focus on Range…: what a person types, what the panes are then focused on, and what is refused (hand-worked:
// a capture that starts at 5 s on the events' clock and lasts 2 s). Typed times are the export's own timestamps, as
// the timeline's ruler and every table show them (issue 33: they counted from the capture's start).
#include "widgets/shell/focusrangedialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {
constexpr TimeNs kOrigin = 5'000'000'000;
const CaptureSpan kCapture { kOrigin, kOrigin + 2'000'000'000, CaptureSpanSource::AnalysisDetails };
} // namespace

class TestFocusRangeDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void typedRanges_data()
    {
        QTest::addColumn<QString>("start");
        QTest::addColumn<QString>("end");
        QTest::addColumn<TimeNs>("focusStart"); // on the events' clock
        QTest::addColumn<TimeNs>("focusEnd");
        QTest::addColumn<QString>("label");
        QTest::newRow("seconds") << u"6.2s"_s << u"6.5s"_s << TimeNs(6'200'000'000) << TimeNs(6'500'000'000)
                                 << u"6.2 s–6.5 s"_s;
        QTest::newRow("mixed units") << u"5350ms"_s << u"6200000us"_s << TimeNs(5'350'000'000) << TimeNs(6'200'000'000)
                                     << u"5350 ms–6200000 µs"_s;
        QTest::newRow("bare numbers are nanoseconds") << u"5000001500"_s << u"5000002500"_s << kOrigin + 1500
                                                      << kOrigin + 2500 << u"5000001500 ns–5000002500 ns"_s;
        QTest::newRow("empty start: the capture start")
            << QString() << u"5.3 s"_s << kOrigin << kOrigin + 300'000'000 << u"start–5.3 s"_s;
        QTest::newRow("empty end: the capture end")
            << u"6.9s"_s << QString() << kOrigin + 1'900'000'000 << kOrigin + 2'000'000'000 << u"6.9 s–end"_s;
        QTest::newRow("zero length") << u"6s"_s << u"6000ms"_s << kOrigin + 1'000'000'000 << kOrigin + 1'000'000'000
                                     << u"6 s–6000 ms"_s;
        QTest::newRow("overlapping the capture's start")
            << u"4.5s"_s << u"5.5s"_s << TimeNs(4'500'000'000) << TimeNs(5'500'000'000) << u"4.5 s–5.5 s"_s;
    }

    void typedRanges()
    {
        QFETCH(QString, start);
        QFETCH(QString, end);
        QFETCH(TimeNs, focusStart);
        QFETCH(TimeNs, focusEnd);
        QFETCH(QString, label);
        FocusRangeDialog dialog(kCapture, FocusRange {});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTest::keyClicks(dialog.startEdit(), start);
        QTest::keyClicks(dialog.endEdit(), end);
        QSignalSpy accepted(&dialog, &QDialog::accepted);
        QTest::mouseClick(dialog.buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QCOMPARE(accepted.count(), 1);
        QVERIFY(!dialog.isVisible());
        QCOMPARE(dialog.range().start, focusStart);
        QCOMPARE(dialog.range().end, focusEnd);
        QCOMPARE(dialog.range().label, label);
    }

    void refusedInput_data()
    {
        QTest::addColumn<QString>("start");
        QTest::addColumn<QString>("end");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown unit") << u"1.2 sec"_s << u"2s"_s << u"Start: '1.2 sec' is not a time."_s;
        QTest::newRow("not a number") << u"1s"_s << u"soon"_s << u"End: 'soon' is not a time."_s;
        QTest::newRow("fraction of a nanosecond without unit")
            << u"1.5"_s << QString() << u"Start: '1.5' is not a time."_s;
        QTest::newRow("end before start") << u"6.5s"_s << u"6.2s"_s << u"The end is before the start."_s;
        QTest::newRow("before the capture")
            << u"1s"_s << u"2s"_s << u"The end is before the start of the capture (capture 5.00 s – 7.00 s)"_s;
        QTest::newRow("after the capture")
            << u"7s"_s << u"8s"_s << u"The start is after the end of the capture (capture 5.00 s – 7.00 s)"_s;
    }

    void refusedInput()
    {
        QFETCH(QString, start);
        QFETCH(QString, end);
        QFETCH(QString, error);
        FocusRangeDialog dialog(kCapture, FocusRange {});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(!dialog.isErrorShown());
        QTest::keyClicks(dialog.startEdit(), start);
        QTest::keyClicks(dialog.endEdit(), end);
        QSignalSpy accepted(&dialog, &QDialog::accepted);
        QTest::mouseClick(dialog.buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QCOMPARE(accepted.count(), 0);
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.isErrorShown());
        auto* label = dialog.findChild<QLabel*>(u"focusRangeError"_s);
        QVERIFY(label && label->isVisible() && label->height() > 0);
        QVERIFY2(label->text().contains(error), qPrintable(label->text()));
        // Typing again takes the complaint away.
        QTest::keyClick(dialog.startEdit(), Qt::Key_Backspace);
        QVERIFY(!dialog.isErrorShown());
    }

    /// Shown, the dialog is wide enough for its title bar ("Focus on Range — nsys-workbench" plus the window
    /// manager's buttons, ~100 px) and its hint reads in at most three lines, not a narrow column of words.
    void wideEnoughToRead()
    {
        FocusRangeDialog dialog(kCapture, {});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const auto* hint = dialog.findChild<QLabel*>(u"focusRangeHint"_s);
        QVERIFY(hint && hint->isVisible());
        const QString title = dialog.windowTitle() + u" \u2014 nsys-workbench"_s;
        QVERIFY2(dialog.width() >= dialog.fontMetrics().horizontalAdvance(title) + 100,
            qPrintable(u"dialog %1 px wide"_s.arg(dialog.width())));
        const int textHeight = hint->heightForWidth(hint->width()); // the wrapped text's, whatever the layout adds
        QVERIFY2(textHeight <= 3 * hint->fontMetrics().lineSpacing(),
            qPrintable(u"hint text %1 px high in %2 px"_s.arg(textHeight).arg(hint->width())));
    }

    void currentFocusFillsTheFields()
    {
        const FocusRange current { kOrigin + 1'234'567'891, kOrigin + 1'500'000'000, u"iteration 3"_s };
        FocusRangeDialog dialog(kCapture, current);
        QCOMPARE(dialog.startEdit()->text(), u"6.234567891s"_s);
        QCOMPARE(dialog.endEdit()->text(), u"6.5s"_s);
        dialog.accept(); // unchanged: the same range, now labelled as typed
        QCOMPARE(dialog.range().start, current.start);
        QCOMPARE(dialog.range().end, current.end);
        QCOMPARE(dialog.range().label, u"6.234567891 s–6.5 s"_s);
    }

    /// The hint says where the capture lies on the clock the fields take.
    void hintShowsTheCaptureOnTheClock()
    {
        FocusRangeDialog dialog(kCapture, {});
        const auto* hint = dialog.findChild<QLabel*>(u"focusRangeHint"_s);
        QVERIFY(hint);
        QVERIFY2(hint->text().contains(u"capture 5.00 s – 7.00 s (2.000 s)"_s), qPrintable(hint->text()));
    }
};

QTEST_MAIN(TestFocusRangeDialog)
#include "tst_focusrangedialog.moc"

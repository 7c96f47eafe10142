// SPDX-License-Identifier: GPL-3.0-or-later
// The base of the panes that show the current profile: which workbench events reach a pane, and with which profile.
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/session/workbenchload.h"
#include "profilebuilder.h"
#include "widgets/common/sessionpane.h"

#include <QTest>

using namespace nsw;

namespace {
ProfileSession* sessionOf(const QString& name, bool complete = true)
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(10, QStringLiteral("app")), 11);
    b.kernel(t, 100, 200, 300, 900, QStringLiteral("k"));
    LoadedProfile loaded;
    loaded.profile = b.build(name);
    loaded.load.profile = loaded.profile;
    loaded.complete = complete;
    return new ProfileSession(loaded);
}

/// Writes down what it hears: "shown X" (X the profile's file name, or "none"), "focus", "whole".
class RecordingPane : public SessionPane
{
public:
    explicit RecordingPane(Workbench* workbench)
        : SessionPane(workbench, QStringLiteral("recording"), QStringLiteral("&Recording"))
    {
        showCurrentSession();
    }
    QStringList heard;
    ProfileSession* shown() const { return session(); }

protected:
    void sessionChanged(ProfileSession* s) override
    {
        heard << QStringLiteral("shown ") + (s ? s->profile()->displayName() : QStringLiteral("none"));
    }
    void sessionFocusChanged() override { heard << QStringLiteral("focus"); }
    void wholeSessionArrived() override { heard << QStringLiteral("whole"); }
};
} // namespace

class TestSessionPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void idAndTitle()
    {
        Workbench workbench;
        RecordingPane pane(&workbench);
        QCOMPARE(pane.paneId(), QStringLiteral("recording"));
        QCOMPARE(pane.title(), QStringLiteral("&Recording"));
        QCOMPARE(pane.heard, QStringList { QStringLiteral("shown none") }); // nothing open at construction
    }

    /// The current profile is shown; the focus of another profile is not heard, that of the one shown is.
    void followsTheCurrentProfileAndItsFocus()
    {
        Workbench workbench;
        ProfileSession* a = sessionOf(QStringLiteral("a.sqlite"));
        workbench.addSession(a);
        RecordingPane pane(&workbench);
        QCOMPARE(pane.shown(), a);
        ProfileSession* b = sessionOf(QStringLiteral("b.sqlite"));
        workbench.addSession(b);
        workbench.setCurrent(b);
        a->setFocus(FocusRange { 100, 200, QStringLiteral("a's focus") });
        b->setFocus(FocusRange { 100, 200, QStringLiteral("b's focus") });
        QCOMPARE(pane.heard,
            (QStringList {
                QStringLiteral("shown a.sqlite"), QStringLiteral("shown b.sqlite"), QStringLiteral("focus") }));
        QCOMPARE(pane.shown(), b);
    }

    /// Closing the profile shown lets go of it before the workbench makes another one current; closing another
    /// profile is not heard.
    void letsGoOfAClosedProfile()
    {
        Workbench workbench;
        ProfileSession* a = sessionOf(QStringLiteral("a.sqlite"));
        ProfileSession* b = sessionOf(QStringLiteral("b.sqlite"));
        workbench.addSession(a);
        workbench.addSession(b);
        workbench.setCurrent(b);
        RecordingPane pane(&workbench);
        pane.heard.clear();
        workbench.removeSession(a);
        QCOMPARE(pane.heard, QStringList {});
        workbench.removeSession(b);
        QCOMPARE(pane.heard, (QStringList { QStringLiteral("shown none"), QStringLiteral("shown none") }));
        QCOMPARE(pane.shown(), nullptr);
    }

    /// The rest of a staged load is heard for the profile shown only.
    void hearsTheWholeProfileOfTheOneShown()
    {
        Workbench workbench;
        ProfileSession* staged = sessionOf(QStringLiteral("staged.sqlite"), false);
        ProfileSession* other = sessionOf(QStringLiteral("other.sqlite"), false);
        workbench.addSession(staged);
        workbench.addSession(other);
        workbench.setCurrent(staged);
        RecordingPane pane(&workbench);
        pane.heard.clear();
        LoadedProfile whole;
        whole.profile = other->profile();
        whole.load.profile = whole.profile;
        other->completeLoad(whole);
        QCOMPARE(pane.heard, QStringList {});
        whole.profile = staged->profile();
        whole.load.profile = whole.profile;
        staged->completeLoad(whole);
        QCOMPARE(pane.heard, QStringList { QStringLiteral("whole") });
    }
};

QTEST_MAIN(TestSessionPane)
#include "tst_sessionpane.moc"

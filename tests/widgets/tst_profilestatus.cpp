// SPDX-License-Identifier: GPL-3.0-or-later
// The status bar's profile line says where its capture span comes from, in words a user can check against the
// ruler: an export without metadata whose OS runtime calls run on past its GPU work (a 2021 export that waits for
// input) showed "(event span)" while the ruler ran on 33 s further.
#include "app/profilestatus.h"
#include "core/session/profilesession.h"
#include "profilebuilder.h"

#include <QtTest>

using namespace nsw;
using namespace nsw::test;
using namespace Qt::StringLiterals;

class TestProfileStatus : public QObject
{
    Q_OBJECT
private slots:
    void saysWhereTheCaptureSpanComesFrom_data();
    void saysWhereTheCaptureSpanComesFrom();
};

void TestProfileStatus::saysWhereTheCaptureSpanComesFrom_data()
{
    QTest::addColumn<qint64>("analysisDurationNs");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("toolTip");
    // Events: the launch call at 1000 to the second kernel's end at 5000; the getc call to 39 ms is not in it.
    QTest::newRow("no metadata: the span of the measured events, OS runtime not counted")
        << qint64(0) << u"(4.00 µs, GPU, API and NVTX span)"_s << u"OS runtime calls not counted"_s;
    QTest::newRow("analysis window that holds the events")
        << qint64(39000000) << u"(39.0 ms, metadata)"_s << u"export metadata (ANALYSIS_DETAILS)"_s;
}

void TestProfileStatus::saysWhereTheCaptureSpanComesFrom()
{
    QFETCH(qint64, analysisDurationNs);
    QFETCH(QString, text);
    QFETCH(QString, toolTip);
    ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.kernel(t, 1000, 1010, 1100, 2000, u"k"_s);
    b.kernel(t, 1020, 1030, 4000, 5000, u"k"_s);
    b.osrtCall(t, 2000, 39000000, u"getc"_s);
    b.profile().meta.analysisDurationNs = analysisDurationNs;
    LoadedProfile loaded;
    loaded.profile = b.build();
    loaded.kernelIndex = std::make_shared<KernelIndex>(loaded.profile, KernelNameMode::Demangled);
    loaded.load.profile = loaded.profile;
    const ProfileSession session(loaded);
    const ProfileStatus status = profileStatusOf(session);
    QVERIFY2(status.text.contains(text), qPrintable(status.text));
    QVERIFY2(status.toolTip.contains(toolTip), qPrintable(status.toolTip));
}

QTEST_GUILESS_MAIN(TestProfileStatus)
#include "tst_profilestatus.moc"

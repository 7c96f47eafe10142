// SPDX-License-Identifier: GPL-3.0-or-later
// The Statistics pane as a person opens it: on a report that has data for the profile shown.
#include "core/models/reporttablemodel.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/session/workbenchload.h"
#include "profilebuilder.h"
#include "widgets/statistics/statisticspane.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTest>

using namespace nsw;

namespace {
ProfileSession* sessionOf(const ProfilePtr& profile)
{
    LoadedProfile loaded;
    loaded.profile = profile;
    loaded.load.profile = profile;
    return new ProfileSession(loaded);
}

/// A CPU-only profile (nsys profile -t osrt of a CPU program): two OS runtime calls, nothing else.
ProfilePtr cpuOnly()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(10, QStringLiteral("app")), 11);
    b.osrtCall(t, 1000, 3000, QStringLiteral("read"));
    b.osrtCall(t, 4000, 4500, QStringLiteral("read"));
    return b.build(QStringLiteral("cpu-only.sqlite"));
}

/// CUDA API calls and a kernel: the CUDA API summary has rows.
ProfilePtr withCuda()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(20, QStringLiteral("gpu")), 21);
    b.kernel(t, 100, 200, 300, 900, QStringLiteral("k"));
    return b.build(QStringLiteral("cuda.sqlite"));
}

QString shownReport(const StatisticsPane& pane)
{
    return pane.model()->report().name;
}
} // namespace

class TestStatisticsPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    /// A CPU-only profile opens on the OS runtime summary (its first report with rows), not on an empty
    /// cuda_api_sum; a profile with CUDA calls keeps cuda_api_sum; a report the user picks stays, rows or not.
    void opensOnAReportWithData()
    {
        Workbench workbench;
        StatisticsPane pane(&workbench);
        pane.show();
        QSignalSpy shown(&pane, &StatisticsPane::reportShown);
        workbench.addSession(sessionOf(cpuOnly()));
        QTRY_COMPARE(shownReport(pane), QStringLiteral("osrt_sum"));
        QCOMPARE(pane.reportSelector()->currentData().toString(), QStringLiteral("osrt_sum"));
        QCOMPARE(pane.model()->rowCount(), 1); // one name, "read"

        ProfileSession* cuda = sessionOf(withCuda());
        workbench.addSession(cuda);
        QTRY_COMPARE(shownReport(pane), QStringLiteral("cuda_api_sum"));

        const int empty = pane.reportSelector()->findData(QStringLiteral("osrt_sum"));
        pane.reportSelector()->setCurrentIndex(empty);
        Q_EMIT pane.reportSelector()->activated(empty); // as a click on the entry
        QTRY_COMPARE(shownReport(pane), QStringLiteral("osrt_sum"));
        QCOMPARE(pane.model()->rowCount(), 0); // picked: no OS runtime calls in this profile, and it stays
    }
};

QTEST_MAIN(TestStatisticsPane)
#include "tst_statisticspane.moc"

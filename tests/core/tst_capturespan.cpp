// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/capturespan.h"
#include "core/profile/profileloader.h"
#include "core/sqlite/sqlitedb.h"
#include "oracleexports.h"

#include <QTest>
#include <algorithm>

using namespace nsw;
using namespace nsw::test;

Q_DECLARE_METATYPE(nsw::CaptureSpanSource)

class TestCaptureSpan : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void definition_data()
    {
        QTest::addColumn<QString>("derivedWindow");
        QTest::addColumn<qint64>("analysisDuration");
        QTest::addColumn<qint64>("eventsStart");
        QTest::addColumn<qint64>("eventsEnd");
        QTest::addColumn<CaptureSpanSource>("source");
        QTest::addColumn<qint64>("duration");
        const qint64 none = kNoTime;
        // Numbers of the real exports in ../shared/traces (2022.4, mfu_before) and of its 250x inflated copy.
        QTest::addRow("analysis duration containing the events")
            << QString() << qint64(797'515'241) << qint64(181'297'835) << qint64(487'074'201)
            << CaptureSpanSource::AnalysisDetails << qint64(797'515'241);
        QTest::addRow("derived window containing the events")
            << QStringLiteral("60111418026-60411418026") << qint64(119'443'348'968) << qint64(60'111'453'577)
            << qint64(60'411'414'544) << CaptureSpanSource::DerivedWindow << qint64(300'000'000);
        QTest::addRow("inflated copy: events beyond both windows")
            << QStringLiteral("60111418026-60411418026") << qint64(119'443'348'968) << qint64(60'111'453'577)
            << qint64(135'111'453'577) << CaptureSpanSource::Events << qint64(75'000'000'000);
        QTest::addRow("derived window too short, analysis duration holds them")
            << QStringLiteral("1000-2000") << qint64(10'000) << qint64(1000) << qint64(5000)
            << CaptureSpanSource::AnalysisDetails << qint64(10'000);
        QTest::addRow("events end within 1 %% after the window")
            << QString() << qint64(10'000) << qint64(0) << qint64(10'100) << CaptureSpanSource::AnalysisDetails
            << qint64(10'000);
        QTest::addRow("events end more than 1 %% after the window")
            << QString() << qint64(10'000) << qint64(50) << qint64(10'101) << CaptureSpanSource::Events
            << qint64(10'051);
        QTest::addRow("no metadata (2021 export)") << QString() << none << qint64(68'078'778) << qint64(6'771'050'631)
                                                   << CaptureSpanSource::Events << qint64(6'702'971'853);
        QTest::addRow("malformed derived window is ignored") << QStringLiteral("2000-1000") << none << qint64(10)
                                                             << qint64(20) << CaptureSpanSource::Events << qint64(10);
        QTest::addRow("metadata without events")
            << QString() << qint64(5000) << none << none << CaptureSpanSource::AnalysisDetails << qint64(5000);
        QTest::addRow("nothing at all") << QString() << none << none << none << CaptureSpanSource::None << qint64(0);
    }
    void definition()
    {
        QFETCH(QString, derivedWindow);
        QFETCH(qint64, analysisDuration);
        QFETCH(qint64, eventsStart);
        QFETCH(qint64, eventsEnd);
        QFETCH(CaptureSpanSource, source);
        QFETCH(qint64, duration);
        ProfileMetadata meta;
        if (!derivedWindow.isEmpty())
            meta.exportMetadata.emplace_back(QStringLiteral("DERIVED_WINDOW_NS"), derivedWindow);
        meta.analysisDurationNs = analysisDuration;
        const CaptureSpan span = captureSpanOf(meta, { eventsStart, eventsEnd });
        QCOMPARE(span.source, source);
        QCOMPARE(span.durationNs(), duration);
        QVERIFY(!span.sourceText().isEmpty());
    }

    void loadedAndUnloadedAgree_data()
    {
        QTest::addColumn<QString>("path");
        for (const OracleExport& e : oracleExports())
            QTest::addRow("%s", qPrintable(e.label)) << e.path;
    }
    /// The window (a loaded profile) and `info` (SQL only) find the same events and so the same capture span.
    void loadedAndUnloadedAgree()
    {
        QFETCH(QString, path);
        const LoadResult loaded = ProfileLoader::load(path, {});
        QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
        QString error;
        const std::unique_ptr<SqliteDb> db = SqliteDb::open(path, &error);
        QVERIFY2(db, qPrintable(error));
        const EventSpan events = readEventSpan(*db);
        QCOMPARE(events.start, loaded->profile->activityStart);
        QCOMPARE(events.end, loaded->profile->activityEnd);
        const CaptureSpan fromSql = captureSpanOf(loaded->profile->meta, events);
        const CaptureSpan fromProfile = captureSpanOf(*loaded->profile);
        QCOMPARE(fromSql.source, fromProfile.source);
        QCOMPARE(fromSql.durationNs(), fromProfile.durationNs());
        QCOMPARE(loaded->profile->captureDurationNs(), fromProfile.durationNs());
        // Every real and generated export has metadata that holds its events, so the span is what the metadata says
        // (as before the consistency check: the categories and compare outputs on them did not change).
        const auto& metadata = loaded->profile->meta.exportMetadata;
        const bool derived = std::any_of(metadata.begin(), metadata.end(),
            [](const auto& kv) { return kv.first == QLatin1String("DERIVED_WINDOW_NS"); });
        if (derived)
            QCOMPARE(fromProfile.source, CaptureSpanSource::DerivedWindow);
        else if (loaded->profile->meta.analysisDurationNs > 0)
            QCOMPARE(fromProfile.source, CaptureSpanSource::AnalysisDetails);
    }
};

QTEST_MAIN(TestCaptureSpan)
#include "tst_capturespan.moc"

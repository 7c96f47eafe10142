// SPDX-License-Identifier: GPL-3.0-or-later
// The NVLink pipeline the `nvlink` command and the NVLink pane share: the tools' JSON (written out by hand in
// expectedjson.h) whether the kernels come from the loaded profile (the pane) or straight from the export (the
// CLI), the plot's extras, and cancellation.
#include "core/nvlink/nvlinkpeaksrun.h"
#include "core/sqlite/sqlitedb.h"
#include "expectedjson.h"
#include "scenarioexport.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace nsw;
using namespace nsw::test;

namespace {

enum class KernelsFrom
{
    Profile,
    Export,
};

} // namespace

Q_DECLARE_METATYPE(KernelsFrom)

class TestNvlinkPeaksRun : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_export;
    std::unique_ptr<SqliteDb> m_db;
    std::shared_ptr<Nvf1Recording> m_recording;
    ProfilePtr m_profile;

    NvlinkPeaksRequest request(KernelsFrom from, const NvlinkFilter& filter, std::size_t top, bool ncclOnly) const
    {
        NvlinkSeriesSource source;
        source.recording = m_recording;
        NvlinkPeaksRequest r;
        r.keepAlive = m_recording;
        r.series = selectSeries(source, filter);
        r.alignment = alignClocks(m_profile->meta.sessionStartUtcNs, m_recording->firstUs, 0);
        r.top = top;
        r.ncclOnly = ncclOnly;
        if (from == KernelsFrom::Profile)
            r.kernels.profile = m_profile;
        else
            r.kernels.exportDb = m_db.get();
        return r;
    }

    static QString peakKernelsJson(const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result)
    {
        OrderedJson j;
        j["peak_kernels"] = cclPeakKernelsOf(request, result);
        return QString::fromStdString(pythonJsonDumps(j));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_export = m_dir.filePath(QStringLiteral("scenario.sqlite"));
        const QString written = writeScenarioExport(m_export);
        QVERIFY2(written.isEmpty(), qPrintable(written));
        QString error;
        m_db = SqliteDb::open(m_export, &error);
        QVERIFY2(m_db, qPrintable(error));
        const QByteArray bytes = scenarioRecording();
        m_recording
            = parseNvf1Bytes(bytes.constData(), std::size_t(bytes.size()), QStringLiteral("s.bin"), 0).recording;
        QVERIFY(m_recording);
        m_profile = scenarioProfile();
    }

    void toolJson_data()
    {
        QTest::addColumn<KernelsFrom>("from");
        QTest::addColumn<bool>("rxOnly");
        QTest::addColumn<int>("top");
        QTest::addColumn<bool>("ncclOnly");
        QTest::addColumn<QString>("expected");
        for (const KernelsFrom from : { KernelsFrom::Profile, KernelsFrom::Export }) {
            const char* where = from == KernelsFrom::Profile ? "profile" : "export";
            QTest::addRow("top 1, kernels from the %s", where)
                << from << false << 1 << false << QString::fromLatin1(kExpectedPeakKernelsTop1);
            QTest::addRow("rx top 2 nccl only, kernels from the %s", where)
                << from << true << 2 << true << QString::fromLatin1(kExpectedPeakKernelsRxTop2Nccl);
        }
    }
    void toolJson()
    {
        QFETCH(KernelsFrom, from);
        QFETCH(bool, rxOnly);
        QFETCH(int, top);
        QFETCH(bool, ncclOnly);
        QFETCH(QString, expected);
        NvlinkFilter filter;
        if (rxOnly)
            filter.direction = LinkDirection::Rx;
        const NvlinkPeaksRequest r = request(from, filter, std::size_t(top), ncclOnly);
        const Result<NvlinkPeaksResult> result = computeNvlinkPeaks(r);
        QVERIFY2(result, qPrintable(result.errorMessage()));
        QCOMPARE(peakKernelsJson(r, *result), expected);
    }

    void bothSourcesListTheSameKernelsAtOurPeaks()
    {
        // Our own ranking (an interval's TX and RX once) with the kernels of each peak, by name: the export is read
        // only around the peaks, the profile is indexed whole, and the answers agree.
        std::vector<QStringList> byPeak[2];
        for (const KernelsFrom from : { KernelsFrom::Profile, KernelsFrom::Export }) {
            const NvlinkPeaksRequest r = request(from, {}, 5, false);
            const Result<NvlinkPeaksResult> result = computeNvlinkPeaks(r);
            QVERIFY2(result, qPrintable(result.errorMessage()));
            for (const NvlinkPeak& p : result->peaks) {
                QStringList names;
                for (const PeakKernel& k : p.kernels)
                    names << result->kernels->spans().nameOf(k.span);
                byPeak[int(from)].push_back(names);
            }
        }
        QCOMPARE(byPeak[0].size(), std::size_t(5));
        QCOMPARE(byPeak[0], byPeak[1]);
    }

    void plotExtrasOnlyWhenAsked()
    {
        NvlinkPeaksRequest r = request(KernelsFrom::Profile, {}, 3, false);
        Result<NvlinkPeaksResult> result = computeNvlinkPeaks(r);
        QVERIFY(result);
        QVERIFY(result->plotIndexes.empty());
        QVERIFY(result->ncclBusy.empty());
        r.forPlot = true;
        result = computeNvlinkPeaks(r);
        QVERIFY(result);
        QCOMPARE(result->plotIndexes.size(), r.series.size());
        // The scenario's NCCL kernels (ncclKernel_*) run: the band is not empty, and it is made of them.
        QVERIFY(!result->ncclBusy.empty());
        const KernelSpans& spans = result->kernels->spans();
        for (const auto& [from, to] : result->ncclBusy) {
            bool covered = false;
            for (std::size_t k = 0; k < spans.size(); ++k)
                covered = covered || (spans.nccl[k] && spans.start[k] == from);
            QVERIFY(covered);
            QVERIFY(to > from);
        }
    }

    void cancelledMidwayStops()
    {
        // Cancelled while the kernels at the peaks are read: the plot stage is never reached.
        NvlinkPeaksRequest r = request(KernelsFrom::Export, {}, 3, false);
        r.forPlot = true;
        CancelToken token;
        QStringList stages;
        const JobContext job(token, [&](const Progress& p) {
            stages << p.stage;
            if (p.stage == QLatin1String("kernels at the peaks"))
                token.cancel();
        });
        const Result<NvlinkPeaksResult> result = computeNvlinkPeaks(r, job);
        QVERIFY(result.isCancelled());
        QVERIFY2(stages.contains(QStringLiteral("kernels at the peaks")), qPrintable(stages.join(QLatin1Char(','))));
        QVERIFY(!stages.contains(QStringLiteral("plot")));
    }

    void exportWithoutTheDevicesKernels()
    {
        NvlinkPeaksRequest r = request(KernelsFrom::Export, {}, 1, false);
        r.gpu = 7;
        const Result<NvlinkPeaksResult> result = computeNvlinkPeaks(r);
        QVERIFY(result);
        QVERIFY(!result->kernels->spans().deviceHasKernels);
        QVERIFY(peakKernelsJson(r, *result).contains(QStringLiteral("No kernels found for GPU 7")));
    }
};

QTEST_GUILESS_MAIN(TestNvlinkPeaksRun)
#include "tst_nvlinkpeaksrun.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/modelroles.h"
#include "core/models/nvlinkkernelmodel.h"
#include "core/models/nvlinkpeakmodel.h"
#include "core/nvlink/nvf1reader.h"
#include "nvlinkscenario.h"
#include "testutils.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace nsw;
using namespace nsw::test;

namespace {

struct Fixture
{
    std::shared_ptr<Nvf1Recording> recording;
    std::shared_ptr<KernelOverlapIndex> kernels;
    std::vector<NvlinkPeak> peaks;

    Fixture()
    {
        const QByteArray bytes = scenarioRecording();
        recording = parseNvf1Bytes(bytes.constData(), std::size_t(bytes.size()), QStringLiteral("s.bin"), 0).recording;
        const ProfilePtr profile = scenarioProfile();
        kernels = std::make_shared<KernelOverlapIndex>(kernelSpansFromProfile(profile, 0));
        const auto series = selectSeries(recording->links, recording->totals, {});
        peaks = findPeaks(series, alignClocks(profile->meta.sessionStartUtcNs, recording->firstUs, 0), 3);
        attachKernels(peaks, *kernels, false);
        const LinkPeakTable table = LinkPeakTable::defaults();
        fillPeakUnits(peaks, table.match(QStringLiteral("A100")));
    }
};

} // namespace

class TestNvlinkModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void peakModel()
    {
        NvlinkPeakModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Fixture f;
        model.setPeaks(f.peaks);
        // Start/duration on the session timeline; % of one A100 link (25 GB/s per direction).
        QCOMPARE(printModel(model),
            qsl({ "1 | 0.012000 s | 1.00 ms | 1 | TX | 2.048 | 8.2 | 2.0 MB | 4 | 1",
                "2 | 0.012000 s | 1.00 ms | 0 | TX | 1.024 | 4.1 | 1.0 MB | 4 | 1",
                "3 | 0.014000 s | 1.00 ms | 0 | RX | 0.512 | 2.0 | 512.0 kB | 2 | 1" }));
        QCOMPARE(model.index(0, NvlinkPeakModel::StartColumn).data(SortRole).toLongLong(), 12000000);
        QCOMPARE(model.index(0, NvlinkPeakModel::GbpsColumn).data(SortRole).toDouble(), 2.048);
        QCOMPARE(model.index(2, NvlinkPeakModel::BytesColumn).data(RawValueRole).toLongLong(), 512000);
        QCOMPARE(model.headerData(NvlinkPeakModel::GbpsColumn, Qt::Horizontal, RawValueRole).toString(),
            QStringLiteral("Throughput (GB/s)"));
        QCOMPARE(model.peakAt(1)->rank, 2);
        QVERIFY(!model.peakAt(3));

        // Unknown GPU model: no percentage.
        std::vector<NvlinkPeak> unknown = f.peaks;
        fillPeakUnits(unknown, nullptr);
        model.setPeaks(unknown);
        QCOMPARE(model.index(0, NvlinkPeakModel::PercentColumn).data().toString(), QStringLiteral("—"));
        QVERIFY(!model.index(0, NvlinkPeakModel::PercentColumn).data(SortRole).isValid());
        model.setPeaks({});
        QCOMPARE(model.rowCount(), 0);
    }

    void kernelModel()
    {
        NvlinkKernelModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Fixture f;
        model.setKernels(f.kernels->spansPtr(), f.peaks[0].kernels);
        QCOMPARE(printModel(model),
            qsl({ "persistentKernel | 0.000000000 s | 100 ms | 7 | 1.00 ms | 100.0 | ",
                "ncclDevKernel_AllReduce | 0.011500000 s | 2.00 ms | 13 | 1.00 ms | 100.0 | NCCL",
                "gemm_kernel | 0.012250000 s | 500 µs | 7 | 500 µs | 50.0 | ",
                "elementwise_kernel | 0.012900000 s | 300 µs | 7 | 100 µs | 10.0 | " }));
        QCOMPARE(model.kernelRowAt(1), 1u); // Profile::kernels row
        QCOMPARE(model.nameAt(2), QStringLiteral("gemm_kernel"));
        QCOMPARE(model.index(1, 0).data(KernelNameRole).toString(), QStringLiteral("ncclDevKernel_AllReduce"));
        QCOMPARE(model.index(2, NvlinkKernelModel::OverlapColumn).data(SortRole).toLongLong(), 500000);
        QCOMPARE(model.index(3, NvlinkKernelModel::OverlapPercentColumn).data(SortRole).toDouble(), 10.0);
        QCOMPARE(model.index(1, NvlinkKernelModel::NcclColumn).data(SortRole).toBool(), true);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestNvlinkModels)
#include "tst_nvlinkmodels.moc"

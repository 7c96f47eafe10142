// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/iterations/gpubusy.h"
#include "core/iterations/iterationmarkers.h"
#include "core/iterations/iterations.h"
#include "core/profile/profileloader.h"
#include "iterationfixtures.h"
#include "oracleexports.h"
#include "profilebuilder.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QTemporaryDir>
#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

ProfilePtr load(const QString& path)
{
    LoadOptions options;
    options.parts = LoadNvtx | LoadKernels | LoadMemOps;
    const LoadResult r = ProfileLoader::load(path, options);
    if (!r.ok())
        qWarning() << r.errorMessage();
    return r->profile;
}

/// Kernels overlapping [start, end) by nsys's predicate, counted with plain SQL.
qint64 sqlKernelCount(const QString& path, TimeNs start, TimeNs end)
{
    const QList<QStringList> rows = test::queryRows(path,
        u"SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE (start >= %1 AND start < %2) OR "
        "(end >= %1 AND end < %2) OR (start < %1 AND end >= %2)"_s.arg(start)
            .arg(end));
    return rows.isEmpty() ? -1 : rows.first().value(0).toLongLong();
}

struct Expected
{
    TimeNs start, end;
    QString name;
    qint64 kernels;
    TimeNs busy;
    QString top;
    TimeNs topTime;
};

} // namespace

class TestIterations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void markerLayout_data();
    void markerLayout();
    void markerWarnings();
    void namedMarker_data();
    void namedMarker();
    void libraryRangesNeverIterations();
    void gapFallback();
    void busyUnionWhateverTheChunk_data();
    void busyUnionWhateverTheChunk();
    void noIterations_data();
    void noIterations();
    void guessConfidence_data();
    void guessConfidence();
    void outliers_data();
    void outliers();
    void medianIteration();
    void iterationRanges();
    void cancelled();
    void countsMatchSql_data();
    void countsMatchSql();

private:
    QTemporaryDir m_dir;
    QString m_marker, m_gap, m_library;
};

void TestIterations::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_marker = m_dir.filePath(u"marker.sqlite"_s);
    m_gap = m_dir.filePath(u"gap.sqlite"_s);
    m_library = m_dir.filePath(u"library.sqlite"_s);
    test::writeMarkerFixture(m_marker);
    test::writeGapFixture(m_gap);
    test::writeLibraryFixture(m_library);
    test::writeTwoBurstsFixture(m_dir.filePath(u"two.sqlite"_s));
}

void TestIterations::markerLayout_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("kernels");
    QTest::addColumn<qint64>("busy");
    QTest::addColumn<QString>("top");
    QTest::addColumn<qint64>("topTime");
    QTest::addColumn<QString>("category");
    QTest::addColumn<qint64>("categoryTime");
    // Hand-worked from the layout in iterationfixtures.h.
    QTest::newRow("0: nested ProfilerStep#0 dropped, kernel ending at its start counted")
        << 0 << 1000LL << 2000LL << u"ProfilerStep#0"_s << 4LL << 400LL << u"fill_kernel"_s << 500LL << u"gemm"_s
        << 600LL;
    QTest::newRow("1: library ProfilerStep#7 ignored, zero-length kernel at its end not counted")
        << 1 << 2000LL << 3000LL << u"ProfilerStep#1"_s << 2LL << 300LL << u"nccl_allreduce"_s << 1700LL
        << u"nccl_and_custom_ar"_s << 1700LL;
    QTest::newRow("2: cross-thread start/end range, spanned by a kernel")
        << 2 << 3000LL << 4500LL << u"ProfilerStep#2"_s << 3LL << 1500LL << u"nccl_allreduce"_s << 1700LL
        << u"nccl_and_custom_ar"_s << 1700LL;
    QTest::newRow("3: kernel ending at its end counted, one starting there not")
        << 3 << 4500LL << 5000LL << u"ProfilerStep#3"_s << 2LL << 200LL << u"nccl_allreduce"_s << 1700LL
        << u"nccl_and_custom_ar"_s << 1700LL;
}

void TestIterations::markerLayout()
{
    QFETCH(int, row);
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    QFETCH(QString, name);
    QFETCH(qint64, kernels);
    QFETCH(qint64, busy);
    QFETCH(QString, top);
    QFETCH(qint64, topTime);
    QFETCH(QString, category);
    QFETCH(qint64, categoryTime);
    const Result<IterationTable> table = computeIterations({ load(m_marker), {}, defaultIterationRules() });
    QVERIFY2(table.ok(), qPrintable(table.errorMessage()));
    QVERIFY(!table->isGuess());
    QCOMPARE(table->marker, u"ProfilerStep#N"_s);
    QCOMPARE(table->iterations.size(), std::size_t(4));
    QCOMPARE(table->clockOrigin, 0); // start times are the export's own
    const Iteration& it = table->iterations[std::size_t(row)];
    QCOMPARE(it.index, row);
    QCOMPARE(it.start, start);
    QCOMPARE(it.end, end);
    QCOMPARE(table->profile->strings.at(it.name), name);
    QCOMPARE(it.kernels, kernels);
    QCOMPARE(it.kernels, sqlKernelCount(m_marker, start, end));
    QCOMPARE(it.gpuBusy, busy);
    QCOMPARE(it.idle(), (end - start) - busy);
    QCOMPARE(table->profile->strings.at(it.topKernel), top);
    QCOMPARE(it.topKernelTime, topTime);
    QCOMPARE(it.topCategory, category);
    QCOMPARE(it.topCategoryTime, categoryTime);
    QCOMPARE(table->rulesLabel, u"vllm/llama"_s);
    QVERIFY(!it.outlier); // durations 1000 1000 1500 500: median 1000, MAD 250, limit 1112
    QCOMPARE(table->label(row), u"iteration %1 (%2)"_s.arg(row).arg(name));
}

void TestIterations::markerWarnings()
{
    const Result<IterationTable> table = computeIterations({ load(m_marker), {}, nullptr });
    QVERIFY(table.ok());
    const QString all = table.warnings().join(u'\n');
    QVERIFY2(all.contains(u"1 other process"_s), qPrintable(all));
    QVERIFY2(all.contains(u"1 unterminated"_s), qPrintable(all));
    QVERIFY(table->detection.contains(u"ProfilerStep#N"_s));
    QVERIFY(table->detection.contains(u"pid 100"_s));
}

void TestIterations::namedMarker_data()
{
    QTest::addColumn<QString>("marker");
    QTest::addColumn<QList<qint64>>("starts");
    QTest::newRow("exact name, lower-priority marker") << u"iteration 1"_s << QList<qint64> { 100 };
    QTest::newRow("same name up to numbers") << u"ProfilerStep#12"_s << QList<qint64> { 1000, 2000, 3000, 4500 };
    QTest::newRow("regex on the whole name") << u"ProfilerStep#[13]"_s << QList<qint64> { 2000, 4500 };
    QTest::newRow("regex, nested instance dropped") << u"Profiler.*#0"_s << QList<qint64> { 1000 };
}

void TestIterations::namedMarker()
{
    QFETCH(QString, marker);
    QFETCH(QList<qint64>, starts);
    const Result<IterationTable> table = computeIterations({ load(m_marker), marker, nullptr });
    QVERIFY2(table.ok(), qPrintable(table.errorMessage()));
    QCOMPARE(table->marker, marker);
    QList<qint64> got;
    for (const Iteration& it : table->iterations)
        got << it.start;
    QCOMPARE(got, starts);
}

void TestIterations::libraryRangesNeverIterations()
{
    const ProfilePtr profile = load(m_library);
    // Only the outermost outer_step: step_1 (NCCL domain), cub::step_2 and "ncclKernel step_3" are library ranges.
    for (const QString& marker : { u".*step.*"_s, u"outer_step"_s }) {
        const Result<IterationTable> table = computeIterations({ profile, marker, nullptr });
        QVERIFY2(table.ok(), qPrintable(table.errorMessage()));
        QCOMPARE(table->iterations.size(), std::size_t(1));
        QCOMPARE(table->iterations[0].start, 3000);
        QCOMPARE(table->iterations[0].end, 4000);
    }
    for (const QString& marker : { u"step_1"_s, u"cub::step_2"_s }) {
        const Result<IterationTable> table = computeIterations({ profile, marker, nullptr });
        QVERIFY(!table.ok());
        QCOMPARE(table.error().kind, ErrorKind::NoData);
    }
}

void TestIterations::gapFallback()
{
    const Result<IterationTable> table = computeIterations({ load(m_gap), {}, nullptr });
    QVERIFY2(table.ok(), qPrintable(table.errorMessage()));
    QVERIFY(table->isGuess());
    QVERIFY(table->detection.contains(u"guess"_s));
    QCOMPARE(table->gapThreshold, TimeNs(2236)); // sqrt(50000 x 100) = 2236.07
    QCOMPARE(table->iterations.size(), std::size_t(3));
    const TimeNs starts[] = { 0, 53000, 116000 }, ends[] = { 53000, 116000, 118000 };
    const TimeNs busy[] = { 2850, 2900, 1920 };
    const qint64 kernels[] = { 3, 3, 2 };
    for (std::size_t i = 0; i < 3; ++i) {
        const Iteration& it = table->iterations[i];
        QCOMPARE(it.start, starts[i]);
        QCOMPARE(it.end, ends[i]);
        QCOMPARE(it.gpuBusy, busy[i]);
        QCOMPARE(it.kernels, kernels[i]);
        QCOMPARE(it.kernels, sqlKernelCount(m_gap, starts[i], ends[i]));
        QCOMPARE(it.name, kNoString);
        QVERIFY(table->label(int(i)).contains(u"guessed from GPU idle gaps"_s));
    }
    // Iteration 0: "big" 1000 ns against "small" 950 + 900.
    QCOMPARE(table->profile->strings.at(table->iterations[0].topKernel), u"small"_s);
    QCOMPARE(table->iterations[0].topKernelTime, TimeNs(1850));
    QCOMPARE(table->iterations[0].topCategory, QString()); // no rules asked
}

void TestIterations::busyUnionWhateverTheChunk_data()
{
    QTest::addColumn<int>("chunkRows");
    QTest::newRow("one operation at a time") << 1;
    QTest::newRow("two at a time") << 2;
    QTest::newRow("three at a time (chunks end inside overlaps)") << 3;
    QTest::newRow("all at once") << 1000;
}

void TestIterations::busyUnionWhateverTheChunk()
{
    QFETCH(int, chunkRows);
    const IntervalUnion busy = gpuBusyUnion(*load(m_marker), {}, std::size_t(chunkRows));
    // writeMarkerFixture's kernels and memcpy on both GPUs, united by hand: K1 and K2 overlap across GPUs, K4 is empty,
    // K5 covers K6, K7 and K8 touch.
    const std::vector<TimeInterval> expected { { 500, 1000 }, { 1100, 1400 }, { 1900, 2100 }, { 2500, 2600 },
        { 2900, 4600 }, { 4900, 5100 } };
    QCOMPARE(busy.intervals(), expected);
    QCOMPARE(busy.length(), TimeNs(3000));
}

void TestIterations::noIterations_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("marker");
    QTest::addColumn<QString>("message");
    QTest::newRow("library ranges only, two kernels: no clear gap")
        << u"library"_s << QString() << u"no clear GPU idle gaps"_s;
    QTest::newRow("two stretches of GPU work only: no guess") << u"two"_s << QString() << u"no clear GPU idle gaps"_s;
    QTest::newRow("named marker absent: no fallback")
        << u"gap"_s << u"ProfilerStep#1"_s << u"no NVTX range matches the marker 'ProfilerStep#1'"_s;
    QTest::newRow("invalid regex") << u"marker"_s << u"Profiler(["_s << u"nor is it a valid regex"_s;
}

void TestIterations::noIterations()
{
    QFETCH(QString, file);
    QFETCH(QString, marker);
    QFETCH(QString, message);
    const QString path = m_dir.filePath(file + u".sqlite"_s);
    const Result<IterationTable> table = computeIterations({ load(path), marker, nullptr });
    QVERIFY(!table.ok());
    QCOMPARE(table.error().kind, ErrorKind::NoData);
    QVERIFY2(table.errorMessage().contains(message), qPrintable(table.errorMessage()));
    QVERIFY2(table.errorMessage().startsWith(path), qPrintable(table.errorMessage()));
}

void TestIterations::guessConfidence_data()
{
    // No marker. Stretches of two kernels [s, s + work/2 - gap/2] and [s + work/2 + gap/2, s + work] (µs) start at
    // the given periods; the gaps between stretches are period - work.
    QTest::addColumn<QList<qint64>>("periods");
    QTest::addColumn<qint64>("work");
    QTest::addColumn<qint64>("innerGap");
    QTest::addColumn<QString>("confidence"); ///< "high", "low", or empty: no guess
    QTest::addColumn<QString>("message"); ///< the start of the reason
    const QList<qint64> six(6, 1000);
    QTest::newRow("6 equal periods: high") << six << qint64(50) << qint64(10) << u"high"_s << u"high confidence: 6"_s;
    QTest::newRow("3 periods: low") << QList<qint64> { 1000, 1000, 1000 } << qint64(50) << qint64(10) << u"low"_s
                                    << u"low confidence (fewer than 4 complete periods)"_s;
    // Median (850 + 1150) / 2 = 1000, MAD 150: 1.4826 x 150 / 1000 = 22.2 %, a guess but above 10 %.
    QTest::newRow("periods varying by 22 %: low")
        << QList<qint64> { 850, 1150, 850, 1150, 850, 1150 } << qint64(50) << qint64(10) << u"low"_s
        << u"low confidence (periods varying by more than 10.0 %)"_s;
    // Median (2000 + 4000) / 2 = 3000, deviations 2500 2000 1000 1000 5000 13000: MAD 2250, 111.2 %.
    QTest::newRow("doubling periods: not regular, no guess")
        << QList<qint64> { 500, 1000, 2000, 4000, 8000, 16000 } << qint64(50) << qint64(10) << QString()
        << u"the GPU idle gaps are not regular: the periods between them vary by 111.2 %"_s;
    // 30 µs gaps (6 x the 5 µs inside) against 1030 µs periods: 2.9 %.
    QTest::newRow("gaps small against the work: no guess")
        << six.mid(0, 5) << qint64(1000) << qint64(5) << QString()
        << u"the GPU idle gaps are small against the work between them (median gap 30.0 µs, 2.9 %"_s;
}

void TestIterations::guessConfidence()
{
    QFETCH(QList<qint64>, periods);
    QFETCH(qint64, work);
    QFETCH(qint64, innerGap);
    QFETCH(QString, confidence);
    QFETCH(QString, message);
    constexpr TimeNs us = 1000;
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    TimeNs s = 0;
    if (work == 1000) // the small-gap row: period = work + 30 µs
        for (qint64& p : periods)
            p = work + 30;
    for (qsizetype i = 0; i <= periods.size(); ++i) {
        const TimeNs half = work * us / 2, gap = innerGap * us / 2;
        b.kernel(t, s, s + 1, s, s + half - gap, u"a"_s);
        b.kernel(t, s, s + 1, s + half + gap, s + work * us, u"b"_s);
        if (i < periods.size())
            s += periods[i] * us;
    }
    const Result<IterationTable> table = computeIterations({ b.build(), {}, nullptr });
    if (confidence.isEmpty()) {
        QVERIFY(!table.ok());
        QCOMPARE(table.error().kind, ErrorKind::NoData);
        QVERIFY2(table.errorMessage().contains(message), qPrintable(table.errorMessage()));
        return;
    }
    QVERIFY2(table.ok(), qPrintable(table.errorMessage()));
    QCOMPARE(table->confidenceName(), confidence);
    QCOMPARE(table->isConfident(), confidence == u"high"_s);
    QVERIFY2(table->confidenceReason.startsWith(message), qPrintable(table->confidenceReason));
    QVERIFY2(table->detection.contains(table->confidenceReason), qPrintable(table->detection));
    QCOMPARE(table->iterations.size(), std::size_t(periods.size() + 1));
    // The last iteration (only its stretch of work, no gap after it) is no complete period: never an outlier.
    QVERIFY(!table->iterations.back().outlier);
}

void TestIterations::outliers_data()
{
    QTest::addColumn<QList<qint64>>("values");
    QTest::addColumn<QList<bool>>("flags");
    QTest::addColumn<double>("median");
    QTest::addColumn<double>("mad");
    // Median 100; deviations 0 2 2 1 1 0 150 -> MAD 1, limit 4.45: only 250.
    QTest::newRow("one slow step") << QList<qint64> { 100, 102, 98, 101, 99, 100, 250 }
                                   << QList<bool> { false, false, false, false, false, false, true } << 100.0 << 1.0;
    // Even count: median (100 + 104) / 2 = 102; deviations 2 2 2 8 10 0... see below.
    // Values 90 100 104 110 (sorted): median 102, deviations 12 2 2 8 -> MAD 5, limit 22.2: none.
    QTest::newRow("even count, none") << QList<qint64> { 110, 100, 90, 104 }
                                      << QList<bool> { false, false, false, false } << 102.0 << 5.0;
    // Median 10, deviations 0 0 0 5 -> MAD 0: any departure is an outlier.
    QTest::newRow("zero MAD") << QList<qint64> { 10, 10, 10, 15 } << QList<bool> { false, false, false, true } << 10.0
                              << 0.0;
    // A fast outlier too: median 1000, deviations 0 10 10 20 600 -> MAD 10, limit 44.5.
    QTest::newRow("fast and slow") << QList<qint64> { 1000, 1010, 990, 1020, 400 }
                                   << QList<bool> { false, false, false, false, true } << 1000.0 << 10.0;
    QTest::newRow("empty") << QList<qint64> {} << QList<bool> {} << 0.0 << 0.0;
}

void TestIterations::outliers()
{
    QFETCH(QList<qint64>, values);
    QFETCH(QList<bool>, flags);
    QFETCH(double, median);
    QFETCH(double, mad);
    double m = -1, d = -1;
    const std::vector<bool> got = robustOutliers(std::vector<TimeNs>(values.begin(), values.end()), &m, &d);
    QCOMPARE(QList<bool>(got.begin(), got.end()), flags);
    QCOMPARE(m, median);
    QCOMPARE(d, mad);
}

void TestIterations::medianIteration()
{
    const Result<IterationTable> table = computeIterations({ load(m_marker), {}, nullptr });
    QVERIFY(table.ok());
    // Durations 1000 1000 1500 500: sorted 500 (3), 1000 (0), 1000 (1), 1500 (2); the lower middle is iteration 0.
    QCOMPARE(table->medianIteration(), 0);
    QCOMPARE(table->medianDurationNs, 1000.0);
    QCOMPARE(table->madNs, 250.0);
    const Result<FocusRange> median = medianIterationRange(*table);
    QVERIFY(median.ok());
    QCOMPARE(median->label, u"median iteration: iteration 0 (ProfilerStep#0)"_s);
    QCOMPARE(median->start, 1000);
}

void TestIterations::iterationRanges()
{
    const Result<IterationTable> table = computeIterations({ load(m_marker), {}, nullptr });
    QVERIFY(table.ok());
    const Result<FocusRange> r = iterationRange(*table, 2);
    QVERIFY(r.ok());
    QCOMPARE(r->start, 3000);
    QCOMPARE(r->end, 4500);
    QCOMPARE(r->label, u"iteration 2 (ProfilerStep#2)"_s);
    QVERIFY(r->overlaps(2900, 4600)); // K5 spans it
    QVERIFY(!r->overlaps(4500, 4600));
    for (int bad : { -1, 4 }) {
        const Result<FocusRange> e = iterationRange(*table, bad);
        QVERIFY(!e.ok());
        QCOMPARE(e.error().kind, ErrorKind::Usage);
        QVERIFY(e.errorMessage().contains(u"0 to 3"_s));
    }
}

void TestIterations::cancelled()
{
    CancelToken token;
    token.cancel();
    const Result<IterationTable> table = computeIterations({ load(m_marker), {}, nullptr }, JobContext(token));
    QVERIFY(table.isCancelled());
}

void TestIterations::countsMatchSql_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("training");
    for (const test::OracleExport& e : test::oracleExports())
        QTest::newRow(qPrintable(e.label)) << e.path << e.label.contains(u"training"_s);
}

void TestIterations::countsMatchSql()
{
    QFETCH(QString, path);
    QFETCH(bool, training);
    const ProfilePtr profile = load(path);
    QVERIFY(profile);
    const Result<IterationTable> table = computeIterations({ profile, {}, nullptr });
    if (!table.ok()) {
        QVERIFY(!training);
        QCOMPARE(table.error().kind, ErrorKind::NoData);
        QVERIFY(table.errorMessage().startsWith(path));
        return;
    }
    QVERIFY(!table->iterations.empty());
    // A generated training export marks each step with train_step.
    if (training)
        QCOMPARE(table->marker, u"train_step"_s);
    for (const Iteration& it : table->iterations) {
        QVERIFY(it.end >= it.start);
        QVERIFY(it.gpuBusy >= 0 && it.gpuBusy <= it.duration());
        QCOMPARE(it.kernels, sqlKernelCount(path, it.start, it.end));
        if (!table->isGuess()) {
            const QList<QStringList> rows = test::queryRows(path,
                u"SELECT count(*) FROM NVTX_EVENTS WHERE start = %1 AND end = %2 AND eventType IN (59, 60, 70, 71)"_s
                    .arg(it.start)
                    .arg(it.end));
            QVERIFY(rows.value(0).value(0).toLongLong() >= 1);
        }
    }
}

QTEST_GUILESS_MAIN(TestIterations)
#include "tst_iterations.moc"

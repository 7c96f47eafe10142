// SPDX-License-Identifier: GPL-3.0-or-later
// CPU samples joined to GPU idle time: the samples of each GPU's launching threads taken in its idle gaps, against
// a computation of its own from SQL (the GPU's operations merged, the gaps between them, the launching threads
// through the correlation ids); the finding and the idle-gap tables' column.
#include "core/diagnostics/diagnostics.h"
#include "core/diagnostics/samplesrun.h"
#include "core/profile/profileloader.h"
#include "generator.h"
#include "oracleexports.h"
#include "samplesoracle.h"
#include "sqlitefixture.h"

#include <QTemporaryDir>
#include <QTest>
#include <set>

using namespace nsw;
using namespace nsw::test;
using namespace Qt::StringLiterals;

namespace {

/// One GPU's idle gaps and launching threads, from SQL alone.
struct SqlIdle
{
    std::vector<std::pair<qint64, qint64>> gaps;
    std::set<qint64> launchers; ///< globalTid
};

SqlIdle sqlIdle(const QString& path, int device)
{
    SqlIdle out;
    std::vector<std::pair<qint64, qint64>> ops;
    QStringList launchers;
    for (const char* table :
        { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET" }) {
        for (const QStringList& r :
            queryRows(path, u"SELECT start, end FROM %1 WHERE deviceId = %2"_s.arg(QLatin1String(table)).arg(device)))
            ops.emplace_back(r[0].toLongLong(), r[1].toLongLong());
        for (const QStringList& r : queryRows(path,
                 u"SELECT DISTINCT a.globalTid FROM %1 o JOIN CUPTI_ACTIVITY_KIND_RUNTIME a ON a.correlationId = "
                 "o.correlationId AND (a.globalTid >> 24) = (o.globalPid >> 24) WHERE o.deviceId = %2"_s
                     .arg(QLatin1String(table))
                     .arg(device)))
            out.launchers.insert(r[0].toLongLong());
    }
    std::sort(ops.begin(), ops.end());
    qint64 latestEnd = ops.empty() ? 0 : ops.front().second;
    for (std::size_t i = 1; i < ops.size(); ++i) {
        if (ops[i].first > latestEnd)
            out.gaps.emplace_back(latestEnd, ops[i].first);
        latestEnd = std::max(latestEnd, ops[i].second);
    }
    return out;
}

/// The depth-0 function (symbol text) of every sample of the launching threads taken in a gap, counted.
std::map<QString, qint64> sqlIdleLeaves(const QString& path, const SqlIdle& idle, qint64* samples)
{
    std::map<QString, qint64> leaves;
    *samples = 0;
    QStringList tids;
    for (const qint64 t : idle.launchers)
        tids << QString::number(t);
    const QList<QStringList> rows = queryRows(path,
        u"SELECT e.start, coalesce(s.value, '[no call stack]') FROM COMPOSITE_EVENTS e LEFT JOIN SAMPLING_CALLCHAINS c "
        "ON c.id = e.id AND c.stackDepth = 0 LEFT JOIN StringIds s ON s.id = c.symbol WHERE e.globalTid IN (%1) "
        "ORDER BY e.start"_s.arg(tids.join(u',')));
    for (const QStringList& r : rows) {
        const qint64 t = r[0].toLongLong();
        const auto gap
            = std::upper_bound(idle.gaps.begin(), idle.gaps.end(), std::pair(t, std::numeric_limits<qint64>::max()));
        if (gap != idle.gaps.begin() && t < std::prev(gap)->second) {
            ++leaves[r[1]];
            ++*samples;
        }
    }
    return leaves;
}

ProfilePtr loadAll(const QString& path)
{
    LoadResult r = ProfileLoader::load(path);
    if (!r.ok()) {
        qWarning("%s", qPrintable(r.errorMessage()));
        return nullptr;
    }
    return r->profile;
}

/// runDiagnostics as `findings` runs it, without the memcpy kinds (not needed here).
Result<DiagnosticsResult> diagnose(const ProfilePtr& profile)
{
    DiagnosticsRequest request;
    request.profile = profile;
    request.readMemoryKinds = false;
    return runDiagnostics(request);
}

} // namespace

class TestIdleSamples : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void samplesInIdleGapsMatchSql_data();
    void samplesInIdleGapsMatchSql();
    void findingNamesTheHostWork();
    void gapTablesNameTheTopFunction();
    void noSamplesSaysSo();

private:
    QTemporaryDir m_dir;
    QString m_stalls; ///< two GPUs whose hosts stall between steps
};

void TestIdleSamples::initTestCase()
{
    tracegen::GeneratorConfig c;
    c.outPath = m_dir.filePath(u"stalls.sqlite"_s);
    c.schemaVersion = u"2025.5"_s;
    c.kernels = 2000;
    c.gpus = 2;
    c.layers = 2;
    c.stepGapUs = 3000; // the host works ~3 ms between steps while the GPUs wait
    c.cpuSamples = 6000;
    c.seed = 7;
    tracegen::generateExport(c);
    m_stalls = c.outPath;
}

void TestIdleSamples::samplesInIdleGapsMatchSql_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("gpu");
    QTest::newRow("host stalls, GPU 0") << m_stalls << 0;
    QTest::newRow("host stalls, GPU 1") << m_stalls << 1;
    QTest::newRow("generated 2026.2, GPU 1") << generatedExport(u"2026.2"_s) << 1;
}

void TestIdleSamples::samplesInIdleGapsMatchSql()
{
    QFETCH(QString, path);
    QFETCH(int, gpu);
    const ProfilePtr p = loadAll(path);
    QVERIFY(p);
    SamplesRequest request;
    request.profile = p;
    request.duringGpuIdle = true;
    request.gpu = gpu;
    const Result<SamplesResult> r = computeSamples(request);
    QVERIFY2(r, qPrintable(r.errorMessage()));
    const SqlIdle idle = sqlIdle(path, gpu);
    QCOMPARE(r->idleGaps, qint64(idle.gaps.size()));
    qint64 samples = 0;
    const std::map<QString, qint64> leaves = sqlIdleLeaves(path, idle, &samples);
    QVERIFY(samples > 0);
    QCOMPARE(r->counts.samples, samples);
    std::map<QString, qint64> self;
    for (const FunctionCount& f : r->functions)
        if (f.self > 0)
            self[sampleFunctionName(*p, f.function)] += f.self;
    QCOMPARE(self, leaves);
}

void TestIdleSamples::findingNamesTheHostWork()
{
    const Result<DiagnosticsResult> r = diagnose(loadAll(m_stalls));
    QVERIFY(r);
    int fired = 0;
    for (const Finding& f : r->findings) {
        if (f.id != u"cpu_during_gpu_idle"_s)
            continue;
        ++fired;
        const int gpu = f.evidence.devices.at(0);
        qint64 samples = 0;
        const std::map<QString, qint64> leaves = sqlIdleLeaves(m_stalls, sqlIdle(m_stalls, gpu), &samples);
        const auto top = std::max_element(
            leaves.begin(), leaves.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        // The generator's idle stacks: 60 % of them run regex_match under tokenizer.encode.
        QCOMPARE(top->first, u"regex_match"_s);
        QVERIFY2(f.title.contains(u"was running in regex_match "_s), qPrintable(f.title));
        std::map<QString, double> metrics;
        for (const FindingMetric& m : f.metrics)
            metrics[m.name] = m.value;
        QCOMPARE(metrics[u"idle_samples"_s], double(samples));
        QCOMPARE(metrics[u"function_samples"_s], double(top->second));
        QCOMPARE(metrics[u"function_share_pct"_s], 100.0 * double(top->second) / double(samples));
        QVERIFY(f.thresholds.join(u' ').contains(u"idle_function_pct=25"_s));
        QVERIFY(f.evidence.hasTimeRange());
    }
    QCOMPARE(fired, 2);
}

void TestIdleSamples::gapTablesNameTheTopFunction()
{
    const Result<DiagnosticsResult> r = diagnose(loadAll(m_stalls));
    QVERIFY(r);
    for (const DiagnosticsTable& t : diagnosticsTables(*r)) {
        if (t.id != u"gpu_idle_gaps"_s)
            continue;
        QCOMPARE(t.columns.mid(t.columns.size() - 2), (QStringList { u"cpu_samples"_s, u"top_function"_s }));
        QVERIFY(!t.rows.empty());
        // The longest gap (first row), against the samples of its GPU's launching threads taken inside it.
        const IdleGap& g = r->idleGaps.deviceGaps.front();
        SqlIdle one = sqlIdle(m_stalls, g.device);
        one.gaps = { { g.start, g.end } };
        qint64 samples = 0;
        const std::map<QString, qint64> leaves = sqlIdleLeaves(m_stalls, one, &samples);
        QCOMPARE(std::get<qint64>(t.rows.front()[std::size_t(t.columns.size() - 2)]), samples);
        if (samples > 0) {
            const auto top = std::max_element(
                leaves.begin(), leaves.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
            QCOMPARE(top->second, leaves.at(std::get<QString>(t.rows.front().back())));
        }
        return;
    }
    QFAIL("no gpu_idle_gaps table");
}

void TestIdleSamples::noSamplesSaysSo()
{
    const ProfilePtr p = loadAll(generatedExport(u"2021"_s));
    QVERIFY(p);
    const Result<DiagnosticsResult> r = diagnose(p);
    QVERIFY(r);
    bool skipped = false;
    for (const SkippedCheck& s : r->skipped)
        skipped |= s.check == u"cpu_during_gpu_idle"_s && s.reason.contains(u"no CPU samples"_s);
    QVERIFY(skipped);
    for (const DiagnosticsTable& t : diagnosticsTables(*r))
        QVERIFY(t.id != u"cpu_samples_gpu_idle"_s);
    SamplesRequest request;
    request.profile = p;
    const Result<SamplesResult> none = computeSamples(request);
    QCOMPARE(none.error().kind, ErrorKind::NoData);
    QVERIFY(none.errorMessage().contains(u"no COMPOSITE_EVENTS table"_s));
}

QTEST_GUILESS_MAIN(TestIdleSamples)
#include "tst_idlesamples.moc"

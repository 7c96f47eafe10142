// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison on the real before/after pair (../shared/traces), checked against plain SQL on the files.
#include "core/categories/categorytimeline.h"
#include "core/categories/ruleevaluation.h"
#include "core/compare/comparison.h"
#include "core/profile/profileloader.h"
#include "oracleexports.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QFileInfo>
#include <QTest>
#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace nsw;

namespace {
QString before()
{
    return test::pairBefore();
}
QString after()
{
    return test::pairAfter();
}

struct SqlValue
{
    qint64 total = 0;
    qint64 instances = 0;
};

/// name -> (sum of durations, count) by plain SQL.
std::map<QString, SqlValue> sqlPerKey(const QString& path, const QString& sql)
{
    std::map<QString, SqlValue> out;
    for (const QStringList& row : test::queryRows(path, sql))
        out[row[0]] = { row[1].toLongLong(), row[2].toLongLong() };
    return out;
}

const QString kPerKernel
    = QStringLiteral("SELECT s.value, sum(k.end - k.start), count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                     "JOIN StringIds s ON s.id = k.demangledName GROUP BY s.value");
/// Substring rules SQL can apply, in rule order; memory operations fall to the catch-all.
const QString kPerCategory = QStringLiteral(
    "WITH rows AS (SELECT CASE WHEN instr(n.value, 'nvjet') THEN 'gemm' WHEN instr(n.value, 'flash') THEN 'attn' "
    "WHEN instr(n.value, 'nccl') THEN 'comm' ELSE 'other' END AS c, k.end - k.start AS d "
    "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds n ON n.id = k.demangledName "
    "UNION ALL SELECT 'other', end - start FROM CUPTI_ACTIVITY_KIND_MEMCPY "
    "UNION ALL SELECT 'other', end - start FROM CUPTI_ACTIVITY_KIND_MEMSET) "
    "SELECT c, sum(d), count(*) FROM rows GROUP BY c");

ProfilePtr load(const QString& path, unsigned parts)
{
    LoadOptions o;
    o.parts = parts;
    return ProfileLoader::load(path, o)->profile;
}

std::shared_ptr<const ProfileKeys> kernelKeysOf(const QString& path)
{
    const ProfilePtr p = load(path, LoadKernels);
    return p ? std::make_shared<const ProfileKeys>(kernelKeys(KernelIndex(p, KernelNameMode::Demangled), false))
             : nullptr;
}

std::shared_ptr<const ProfileKeys> categoryKeysOf(const QString& path)
{
    const ProfilePtr p = load(path, LoadKernels | LoadMemOps | LoadGraphLaunches);
    if (!p)
        return nullptr;
    RuleList rules;
    for (const auto& [pattern, category] :
        { std::pair { "nvjet", "gemm" }, { "flash", "attn" }, { "nccl", "comm" }, { ".*", "other" } })
        rules.rules.push_back(CategoryRule::fromKey(QLatin1String(pattern), QLatin1String(category)));
    const auto timeline = CategoryTimeline::build(p);
    RuleMatchCache cache(NameSet { timeline->demangledNames(), timeline->shortNames() });
    CategoryOptions o;
    o.mode = TimeMode::Sum;
    return std::make_shared<const ProfileKeys>(
        categoryKeys(categorize(*timeline, rules, evaluateRules(rules, cache, nullptr), o), p->captureDurationNs()));
}

/// The rows of a comparison against SQL: totals, instances, delta, percent, and the status rule applied to the
/// SQL numbers.
void checkAgainstSql(const Comparison& c, const std::map<QString, SqlValue>& a, const std::map<QString, SqlValue>& b,
    const CompareOptions& options)
{
    std::set<QString> keys;
    for (const auto& [k, v] : a)
        keys.insert(k);
    for (const auto& [k, v] : b)
        keys.insert(k);
    QCOMPARE(c.rows.size(), keys.size());
    double previous = std::numeric_limits<double>::infinity();
    for (const CompareRow& row : c.rows) {
        const SqlValue va = a.count(row.key) ? a.at(row.key) : SqlValue {};
        const SqlValue vb = b.count(row.key) ? b.at(row.key) : SqlValue {};
        QCOMPARE(row.cells[0].totalNs, va.total);
        QCOMPARE(row.cells[0].instances, va.instances);
        QCOMPARE(row.cells[1].totalNs, vb.total);
        QCOMPARE(row.cells[1].instances, vb.instances);
        const double delta = double(vb.total - va.total);
        QCOMPARE(row.delta[1], delta);
        // Statuses judge the time per call (more or fewer calls are neither), rows by what the change per call costs
        // over the after profile's calls; a key one side lacks by its delta.
        CompareStatus expected = CompareStatus::Unchanged;
        double effect = delta;
        if (va.instances == 0) {
            QVERIFY(std::isinf(row.deltaPercent[1]));
            expected = CompareStatus::New;
        } else {
            const double percent = 100.0 * delta / double(va.total);
            QVERIFY(std::fabs(row.deltaPercent[1] - percent) < 1e-9);
            if (vb.instances == 0) {
                expected = CompareStatus::Removed;
            } else {
                const double avgA = double(va.total) / double(va.instances);
                const double avgB = double(vb.total) / double(vb.instances);
                const double perCall = 100.0 * (avgB - avgA) / avgA;
                effect = (avgB - avgA) * double(vb.instances);
                if (std::fabs(effect) > options.noiseFloorNs && perCall > options.thresholdPercent)
                    expected = CompareStatus::Regression;
                else if (std::fabs(effect) > options.noiseFloorNs && perCall < -options.thresholdPercent)
                    expected = CompareStatus::Improvement;
            }
        }
        QCOMPARE(row.status[1], expected);
        QVERIFY(std::fabs(effect) <= previous * (1 + 1e-12)); // the largest change per call first
        previous = std::fabs(effect);
    }
}
} // namespace

class TestCompareTraces : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void perKernelName()
    {
        const auto a = kernelKeysOf(before());
        const auto b = kernelKeysOf(after());
        QVERIFY(a && b);
        CompareOptions options;
        const Comparison c
            = compareProfiles({ { QStringLiteral("before"), a, 0 }, { QStringLiteral("after"), b, 0 } }, options);
        QVERIFY(c.error.isEmpty());
        const auto sqlA = sqlPerKey(before(), kPerKernel);
        const auto sqlB = sqlPerKey(after(), kPerKernel);
        QVERIFY(sqlA.size() > 10);
        checkAgainstSql(c, sqlA, sqlB, options);
        const QList<QStringList> totals = test::queryRows(
            before(), QStringLiteral("SELECT sum(end - start), count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        QCOMPARE(c.totals.cells[0].totalNs, totals[0][0].toLongLong());
        QCOMPARE(c.totals.cells[0].instances, totals[0][1].toLongLong());
    }

    void perCategory()
    {
        const auto a = categoryKeysOf(before());
        const auto b = categoryKeysOf(after());
        QVERIFY(a && b);
        CompareOptions options;
        options.thresholdPercent = 2;
        options.noiseFloorNs = 0;
        const Comparison c
            = compareProfiles({ { QStringLiteral("before"), a, 0 }, { QStringLiteral("after"), b, 0 } }, options);
        checkAgainstSql(c, sqlPerKey(before(), kPerCategory), sqlPerKey(after(), kPerCategory), options);
    }

    void selfIsUnchanged()
    {
        const auto a = kernelKeysOf(before());
        const Comparison c
            = compareProfiles({ { QStringLiteral("a"), a, 0 }, { QStringLiteral("again"), kernelKeysOf(before()), 0 } },
                CompareOptions { 0, CompareNormalization::None, 0, 0 });
        for (const CompareRow& r : c.rows)
            QCOMPARE(r.summary, CompareStatus::Unchanged);
    }

    /// "Per iteration" divides by the iterations `iterations` lists (one definition): by SQL, the terminated ranges
    /// named train_step in the process that has the most, each not inside another; NCCL's own ranges
    /// (ncclGroupStart) are never iterations.
    void iterations()
    {
        // The name: StringIds[textId] where the export has that column (not 2021's), else the inline text.
        const QString perProcess = QStringLiteral(
            "WITH r AS (SELECT e.rowid AS id, e.start, e.end, (e.globalTid >> 24) & 16777215 AS pid FROM NVTX_EVENTS e "
            "%1 WHERE e.eventType IN (59, 60, 70, 71) AND e.end IS NOT NULL AND %2 = 'train_step') "
            "SELECT coalesce(max(n), 0) FROM (SELECT pid, count(*) AS n FROM r WHERE NOT EXISTS (SELECT 1 FROM r o "
            "WHERE o.pid = r.pid AND o.id != r.id AND o.start <= r.start AND o.end >= r.end) GROUP BY pid)");
        int withSteps = 0;
        QStringList paths { before(), after() };
        for (const test::OracleExport& e : test::oracleExports())
            paths << e.path;
        for (const QString& path : paths) {
            const auto count = [&path](const QString& sql) { return test::queryRows(path, sql).value(0).value(0); };
            if (count(QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'NVTX_EVENTS'"))
                != QLatin1String("1"))
                continue;
            const bool textIds
                = count(QStringLiteral("SELECT count(*) FROM pragma_table_info('NVTX_EVENTS') WHERE name = 'textId'"))
                == QLatin1String("1");
            const QString sql = textIds ? perProcess.arg(QStringLiteral("LEFT JOIN StringIds s ON s.id = e.textId"),
                                    QStringLiteral("coalesce(s.value, e.text)"))
                                        : perProcess.arg(QString(), QStringLiteral("e.text"));
            const ProfilePtr p = load(path, LoadNvtx);
            QVERIFY(p);
            const QString expected = count(sql);
            QVERIFY2(!expected.isEmpty(), qPrintable(path));
            withSteps += expected.toLongLong() > 0;
            QCOMPARE(countIterations(*p, QStringLiteral("train_step")), expected.toLongLong());
            QCOMPARE(countIterations(*p, QStringLiteral("ncclGroupStart")), 0);
        }
        QVERIFY(withSteps >= 2); // generated training exports have steps on two GPUs, one process each
    }
};

QTEST_GUILESS_MAIN(TestCompareTraces)
#include "tst_comparetraces.moc"

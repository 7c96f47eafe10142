// SPDX-License-Identifier: GPL-3.0-or-later
// Opens every export of oracleExports() (generated for every schema version, the demo, and the real exports in
// ../shared/traces when present) and checks the loaded profile and each nsys report against an independent computation:
// plain SQL on the file for the grouping, and this file's own statistics and rounding (not the project's).
#include "core/profile/profileloader.h"
#include "core/stats/reports.h"
#include "oracleexports.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QFileInfo>
#include <QTest>
#include <algorithm>
#include <cmath>

using namespace nsw;
using namespace nsw::test;

namespace {

struct Expected
{
    QString name;
    qint64 key = 0; ///< nsys's GROUP BY key order for ties (nameId), or 0
    std::vector<qint64> values;
};

/// Half away from zero on the exact value: x * 10 is exact in 80-bit long double for any double below 2^60.
double roundOne(double v)
{
    const long double scaled = static_cast<long double>(v) * 10.0L;
    return double(std::floor(std::fabs(scaled) + 0.5L) / 10.0L) * (v < 0 ? -1 : 1);
}

struct Stats
{
    qint64 total = 0, count = 0, min = 0, max = 0;
    double mean = 0, median = 0, stddev = 0;
};

Stats statsOf(std::vector<qint64> v)
{
    std::sort(v.begin(), v.end());
    Stats s;
    s.count = qint64(v.size());
    for (qint64 x : v)
        s.total += x;
    s.min = v.front();
    s.max = v.back();
    s.mean = double(s.total) / double(s.count);
    const std::size_t n = v.size();
    s.median = n % 2 ? double(v[n / 2]) : (double(v[n / 2 - 1]) + double(v[n / 2])) / 2.0;
    if (n > 1) {
        double sq = 0;
        for (qint64 x : v)
            sq += (double(x) - s.mean) * (double(x) - s.mean);
        s.stddev = std::sqrt(sq / double(n - 1));
    }
    return s;
}

std::vector<Expected> groupRows(const QList<QStringList>& rows)
{
    // rows: name, key, value
    std::map<QString, Expected> byName;
    for (const QStringList& r : rows) {
        Expected& e = byName[r[1] + QLatin1Char('\x1f') + r[0]];
        e.name = r[0];
        e.key = r[1].toLongLong();
        e.values.push_back(r[2].toLongLong());
    }
    std::vector<Expected> out;
    for (auto& [k, e] : byName)
        out.push_back(std::move(e));
    return out;
}

bool tableExists(const QString& path, const QString& table)
{
    return !queryRows(
        path, QStringLiteral("SELECT name FROM sqlite_master WHERE type='table' AND name='%1'").arg(table))
                .isEmpty();
}

bool columnExists(const QString& path, const QString& table, const QString& column)
{
    return !queryRows(
        path, QStringLiteral("SELECT name FROM pragma_table_info('%1') WHERE name='%2'").arg(table, column))
                .isEmpty();
}

} // namespace

class TestCorpus : public QObject
{
    Q_OBJECT
private:
    /// Compares a time-summary report (Time %, Total, count, Avg, Med, Min, Max, StdDev, Name) with groups.
    void compareSummary(const ReportTable& report, std::vector<Expected> groups, bool tiesByCountThenName)
    {
        std::vector<std::pair<Stats, Expected>> rows;
        qint64 grand = 0;
        for (Expected& g : groups) {
            rows.emplace_back(statsOf(g.values), g);
            grand += rows.back().first.total;
        }
        std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
            if (a.first.total != b.first.total)
                return a.first.total > b.first.total;
            if (tiesByCountThenName) {
                if (a.first.count != b.first.count)
                    return a.first.count < b.first.count;
                return a.second.name.toUtf8() < b.second.name.toUtf8();
            }
            return a.second.key < b.second.key;
        });
        QCOMPARE(report.rows.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& row = report.rows[i];
            const Stats& s = rows[i].first;
            const QString where = QStringLiteral("row %1 (%2)").arg(i).arg(rows[i].second.name.left(60));
            QVERIFY2(std::get<QString>(row[8]) == rows[i].second.name, qPrintable(where));
            QVERIFY2(std::get<double>(row[0]) == roundOne(double(s.total) * 100.0 / double(grand)), qPrintable(where));
            QVERIFY2(std::get<qint64>(row[1]) == s.total, qPrintable(where));
            QVERIFY2(std::get<qint64>(row[2]) == s.count, qPrintable(where));
            QVERIFY2(std::get<double>(row[3]) == roundOne(s.mean), qPrintable(where));
            QVERIFY2(std::get<double>(row[4]) == roundOne(s.median), qPrintable(where));
            QVERIFY2(std::get<qint64>(row[5]) == s.min, qPrintable(where));
            QVERIFY2(std::get<qint64>(row[6]) == s.max, qPrintable(where));
            QVERIFY2(std::abs(std::get<double>(row[7]) - roundOne(s.stddev)) < 1e-9,
                qPrintable(
                    where + QStringLiteral(": stddev %1 vs %2").arg(std::get<double>(row[7])).arg(roundOne(s.stddev))));
        }
    }

private Q_SLOTS:
    void realExportsPresent()
    {
        if (sharedTraces().isEmpty())
            NSW_SKIP_WITHOUT_SHARED_TRACES("the real exports are not checked, only generated ones and the demo");
    }

    void traces_data()
    {
        QTest::addColumn<QString>("path");
        for (const OracleExport& e : oracleExports())
            QTest::addRow("%s", qPrintable(e.label)) << e.path;
    }

    void traces()
    {
        QFETCH(QString, path);
        const LoadResult loaded = ProfileLoader::load(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
        const Profile& p = *loaded->profile;
        const auto count = [&](const char* table) {
            const QString t = QLatin1String(table);
            return tableExists(path, t)
                ? queryRows(path, QStringLiteral("SELECT count(*) FROM %1").arg(t)).value(0).value(0).toLongLong()
                : 0;
        };
        QCOMPARE(qint64(p.kernels.size()), count("CUPTI_ACTIVITY_KIND_KERNEL"));
        QCOMPARE(qint64(p.cudaApi.size()), count("CUPTI_ACTIVITY_KIND_RUNTIME"));
        QCOMPARE(qint64(p.memops.size()), count("CUPTI_ACTIVITY_KIND_MEMCPY") + count("CUPTI_ACTIVITY_KIND_MEMSET"));
        QCOMPARE(qint64(p.osrt.size()), count("OSRT_API"));

        // Correlation join within the process, as SQL.
        if (tableExists(path, QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"))
            && tableExists(path, QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"))) {
            const qint64 joined = queryRows(path,
                QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM "
                               "CUPTI_ACTIVITY_KIND_RUNTIME r "
                               "WHERE r.correlationId = k.correlationId AND (r.globalTid & ~0xFFFFFF) = k.globalPid)"))
                                      .value(0)
                                      .value(0)
                                      .toLongLong();
            QCOMPARE(qint64(std::count_if(p.kernels.api.begin(), p.kernels.api.end(), [](int a) { return a >= 0; })),
                joined);
        }

        // cuda_gpu_kern_sum in its three name modes.
        const struct
        {
            KernelNameMode mode;
            QString nameExpression;
        } modes[] = { { KernelNameMode::Demangled, QStringLiteral("k.demangledName") },
            { KernelNameMode::Short, QStringLiteral("k.shortName") },
            { KernelNameMode::Mangled,
                columnExists(path, QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"), QStringLiteral("mangledName"))
                    ? QStringLiteral("coalesce(k.mangledName, k.demangledName)")
                    : QStringLiteral("k.demangledName") } };
        for (const auto& m : modes) {
            const ReportTable report = cudaGpuKernSum(p, m.mode);
            if (p.kernels.size() == 0) {
                QVERIFY(!report.skipped.isEmpty());
                continue;
            }
            const auto rows = queryRows(path,
                QStringLiteral("SELECT s.value, 0, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                               "JOIN StringIds s ON s.id = %1")
                    .arg(m.nameExpression));
            compareSummary(report, groupRows(rows), true);
        }

        // cuda_api_sum: grouped by nameId, name cleaned afterwards.
        if (p.cudaApi.size() > 0) {
            const auto rows = queryRows(path,
                QStringLiteral("SELECT CASE substr(s.value, -6, 2) WHEN '_v' THEN substr(s.value, 1, length(s.value) - "
                               "6) ELSE s.value END, "
                               "r.nameId, r.end - r.start FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id "
                               "= r.nameId"));
            compareSummary(cudaApiSum(p), groupRows(rows), false);
        }

        // osrt_sum: OS runtime class only.
        if (tableExists(path, QStringLiteral("OSRT_API"))) {
            const auto rows = queryRows(path,
                QStringLiteral("SELECT s.value, o.nameId, o.end - o.start FROM OSRT_API o JOIN StringIds s "
                               "ON s.id = o.nameId WHERE o.eventClass = 27"));
            const ReportTable report = osrtSum(p);
            if (rows.isEmpty())
                QVERIFY(!report.skipped.isEmpty());
            else
                compareSummary(report, groupRows(rows), false);
        }

        // cuda_gpu_mem_time_sum: names from ENUM_CUDA_MEMCPY_OPER; exports without it are skipped like nsys does.
        const bool memcpy = tableExists(path, QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"));
        const bool memset = tableExists(path, QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET"));
        const ReportTable memReport = cudaGpuMemTimeSum(p);
        if (memcpy && !tableExists(path, QStringLiteral("ENUM_CUDA_MEMCPY_OPER"))) {
            QVERIFY(memReport.skipped.contains(QStringLiteral("ENUM_CUDA_MEMCPY_OPER")));
        } else if (memcpy || memset) {
            QString sql;
            if (memcpy)
                sql = QStringLiteral("SELECT '[CUDA memcpy ' || e.label || ']' AS n, 0, m.end - m.start FROM "
                                     "CUPTI_ACTIVITY_KIND_MEMCPY m "
                                     "JOIN ENUM_CUDA_MEMCPY_OPER e ON e.id = m.copyKind");
            if (memset)
                sql += (sql.isEmpty() ? QString() : QStringLiteral(" UNION ALL "))
                    + QStringLiteral("SELECT '[CUDA memset]', 0, end - start FROM CUPTI_ACTIVITY_KIND_MEMSET");
            const auto rows = queryRows(path, sql);
            if (rows.isEmpty()) {
                QVERIFY(!memReport.skipped.isEmpty());
            } else {
                std::vector<Expected> groups = groupRows(rows);
                // Ties keep GROUP BY order, i.e. operation names in byte order.
                std::sort(groups.begin(), groups.end(),
                    [](const Expected& a, const Expected& b) { return a.name.toUtf8() < b.name.toUtf8(); });
                for (std::size_t i = 0; i < groups.size(); ++i)
                    groups[i].key = qint64(i);
                compareSummary(memReport, groups, false);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCorpus)
#include "tst_corpus.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "samplesoracle.h"

#include "core/models/modelroles.h"
#include "core/models/samplemodels.h"
#include "sqlitefixture.h"

namespace nsw::test {

SqlSampleCounts sqlSampleCounts(const QString& path, const QString& where)
{
    SqlSampleCounts c;
    c.samples = queryRows(path, QStringLiteral("SELECT count(*) FROM COMPOSITE_EVENTS e WHERE %1").arg(where))
                    .value(0)
                    .value(0)
                    .toLongLong();
    c.withoutStack = queryRows(path,
        QStringLiteral("SELECT count(*) FROM COMPOSITE_EVENTS e WHERE (%1) AND NOT EXISTS "
                       "(SELECT 1 FROM SAMPLING_CALLCHAINS c WHERE c.id = e.id)")
            .arg(where))
                         .value(0)
                         .value(0)
                         .toLongLong();
    const QString frames = QStringLiteral(
        "FROM COMPOSITE_EVENTS e JOIN SAMPLING_CALLCHAINS c ON c.id = e.id LEFT JOIN StringIds s ON s.id = c.symbol "
        "LEFT JOIN StringIds m ON m.id = c.module WHERE (%1)")
                               .arg(where);
    const QString key = QStringLiteral("SELECT coalesce(s.value, '[unknown]'), coalesce(m.value, ''), ");
    for (const QStringList& row : queryRows(
             path, key + QStringLiteral("count(*) ") + frames + QStringLiteral(" AND c.stackDepth = 0 GROUP BY 1, 2")))
        c.functions[{ row[0], row[1] }].first = row[2].toLongLong();
    for (const QStringList& row :
        queryRows(path, key + QStringLiteral("count(DISTINCT e.id) ") + frames + QStringLiteral(" GROUP BY 1, 2")))
        c.functions[{ row[0], row[1] }].second = row[2].toLongLong();
    return c;
}

std::map<FunctionKey, std::pair<qint64, qint64>> workbenchCounts(
    const Profile& profile, const std::vector<FunctionCount>& functions)
{
    std::map<FunctionKey, std::pair<qint64, qint64>> out;
    for (const FunctionCount& f : functions) {
        if (f.function < 0)
            continue;
        auto& counts = out[{ sampleFunctionName(profile, f.function), sampleModuleName(profile, f.function) }];
        counts.first += f.self;
        counts.second += f.total;
    }
    return out;
}

std::map<FunctionKey, std::pair<qint64, qint64>> flatModelCounts(const SampleFlatModel& model)
{
    std::map<FunctionKey, std::pair<qint64, qint64>> out;
    for (int r = 0; r < model.rowCount(); ++r) {
        const auto cell = [&](int column) { return model.index(r, column).data(RawValueRole); };
        if (cell(SampleFunctionColumn).toString() == QLatin1String("[no call stack]"))
            continue;
        out[{ cell(SampleFunctionColumn).toString(), cell(SampleModuleColumn).toString() }]
            = { cell(SampleSelfColumn).toLongLong(), cell(SampleTotalColumn).toLongLong() };
    }
    return out;
}

bool hasSampleTables(const QString& path)
{
    return queryRows(path,
               QStringLiteral(
                   "SELECT count(*) FROM sqlite_master WHERE name IN ('COMPOSITE_EVENTS', 'SAMPLING_CALLCHAINS')"))
               .value(0)
               .value(0)
               .toInt()
        == 2;
}

} // namespace nsw::test

// SPDX-License-Identifier: GPL-3.0-or-later
// Small SQLite files with the documented nsys export schema (the tables the NVLink code reads), for tests.
#pragma once

#include "nvlinkscenario.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

namespace nsw::test {

class SqliteWriter
{
public:
    explicit SqliteWriter(const QString& path)
        : m_name(QUuid::createUuid().toString())
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(path);
        m_ok = db.open();
    }
    ~SqliteWriter()
    {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    bool ok() const { return m_ok; }
    const QString& name() const { return m_name; } ///< the Qt SQL connection, for queries of a test's own
    QString exec(const QString& sql, const QVariantList& binds = {})
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        if (!q.prepare(sql))
            return q.lastError().text();
        for (const QVariant& v : binds)
            q.addBindValue(v);
        return q.exec() ? QString() : q.lastError().text();
    }
    void begin() { QSqlDatabase::database(m_name, false).transaction(); }
    void commit() { QSqlDatabase::database(m_name, false).commit(); }

private:
    QString m_name;
    bool m_ok = false;
};

/// The scenario's kernels (nvlinkscenario.h) as CUPTI_ACTIVITY_KIND_KERNEL rows with StringIds names, plus the
/// session start; names are stored under ids in an unrelated order, as nsys does.
inline QString writeScenarioExport(const QString& path)
{
    SqliteWriter w(path);
    if (!w.ok())
        return QStringLiteral("cannot create %1").arg(path);
    QString e;
    auto run = [&](const QString& sql, const QVariantList& binds = {}) {
        if (e.isEmpty())
            e = w.exec(sql, binds);
    };
    run(QStringLiteral("CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)"));
    run(QStringLiteral(
        "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT)"));
    run(QStringLiteral("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, '2023-11-14T22:13:19', '')"),
        { qint64(kScenarioSessionStartUtcNs) });
    run(QStringLiteral("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, "
                       "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
                       "correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, "
                       "shortName INTEGER NOT NULL, mangledName INTEGER)"));
    const ProfilePtr p = scenarioProfile();
    const KernelTable& k = p->kernels;
    for (std::size_t i = 0; i < k.size(); ++i) {
        const qint64 nameId = 1000 - qint64(i) * 7;
        run(QStringLiteral("INSERT INTO StringIds VALUES (?, ?)"), { nameId, p->strings.at(k.shortName[i]) });
        run(QStringLiteral("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, NULL)"),
            { qint64(k.start[i]), qint64(k.end[i]), k.device[i], k.stream[i], k.correlation[i], qint64(100) << 24,
                nameId, nameId });
    }
    return e;
}

struct GpuMetricSample
{
    qint64 timestamp;
    qint64 typeId;
    qint64 metricId;
    qint64 value;
};

/// TARGET_INFO_GPU_METRICS + GPU_METRICS as a GH100 capture writes them (2025.1+ layout with rawTimestamp when
/// @p rawTimestamp).
inline QString writeGpuMetrics(const QString& path,
    const std::vector<std::tuple<qint64, QString, qint64, QString>>& metrics /* typeId, typeName, metricId, name */,
    const std::vector<GpuMetricSample>& samples, bool rawTimestamp = true)
{
    SqliteWriter w(path);
    if (!w.ok())
        return QStringLiteral("cannot create %1").arg(path);
    QString e;
    auto run = [&](const QString& sql, const QVariantList& binds = {}) {
        if (e.isEmpty())
            e = w.exec(sql, binds);
    };
    w.begin();
    run(QStringLiteral("CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, sourceId INTEGER NOT NULL, "
                       "typeName TEXT NOT NULL, metricId INTEGER NOT NULL, metricName TEXT NOT NULL)"));
    run(rawTimestamp
            ? QStringLiteral("CREATE TABLE GPU_METRICS (rawTimestamp INTEGER NOT NULL, timestamp INTEGER NOT "
                             "NULL, typeId INTEGER NOT NULL, metricId INTEGER NOT NULL, value INTEGER NOT NULL)")
            : QStringLiteral("CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER NOT NULL, "
                             "metricId INTEGER NOT NULL, value INTEGER NOT NULL)"));
    for (const auto& [typeId, typeName, metricId, name] : metrics)
        run(QStringLiteral("INSERT INTO TARGET_INFO_GPU_METRICS VALUES (?, ?, ?, ?, ?)"),
            { typeId, typeId >> 8, typeName, metricId, name });
    for (const GpuMetricSample& s : samples) {
        if (rawTimestamp)
            run(QStringLiteral("INSERT INTO GPU_METRICS VALUES (?, ?, ?, ?, ?)"),
                { s.timestamp + 5000000000LL, s.timestamp, s.typeId, s.metricId, s.value });
        else
            run(QStringLiteral("INSERT INTO GPU_METRICS VALUES (?, ?, ?, ?)"),
                { s.timestamp, s.typeId, s.metricId, s.value });
    }
    w.commit();
    return e;
}

} // namespace nsw::test

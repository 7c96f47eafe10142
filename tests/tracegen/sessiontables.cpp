// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessiontables.h"

#include "exportwriter.h"

#include <QDateTime>
#include <QHash>

namespace nsw::tracegen {

QString isoUtc(qint64 epochNs)
{
    return QDateTime::fromMSecsSinceEpoch(epochNs / 1000000, Qt::UTC).toString(Qt::ISODate).left(19);
}

namespace {

QString substitute(QString v, const QHash<QString, QString>& tokens)
{
    if (!v.contains(QLatin1String("${")))
        return v;
    for (auto it = tokens.constBegin(); it != tokens.constEnd(); ++it)
        v.replace(QStringLiteral("${") + it.key() + QLatin1Char('}'), it.value());
    return v;
}

void writeMeta(ExportWriter& w, const QString& table, const QList<MetaRow>& rows)
{
    Inserter& ins = w.prepare(table, { QStringLiteral("name"), QStringLiteral("value") });
    for (const MetaRow& r : rows) {
        ins.setText(0, r.name);
        ins.setText(1, r.value);
        ins.insert();
    }
}

} // namespace

void writeSessionTables(ExportWriter& w, const SessionInfo& s)
{
    const VersionSchema& v = w.schema();
    const bool modern = v.exportMetaTable == QLatin1String("META_DATA_EXPORT");
    const qint64 exportEpochNs = s.utcEpochNs + s.durationNs + 30LL * 1000000000;
    const QString reportDir = s.workingDir + QLatin1Char('/');
    const QHash<QString, QString> tokens = {
        { QStringLiteral("EXPORT_TIME"),
            modern ? QStringLiteral("%1 sec").arg(s.exportSeconds, 0, 'f', 2)
                   : QString::number(s.exportSeconds, 'f', 2) },
        { QStringLiteral("EXPORT_TIME_UTC"), isoUtc(exportEpochNs) },
        { QStringLiteral("EXPORT_TIME_LOCAL"),
            isoUtc(exportEpochNs) + (modern ? QStringLiteral(" +0000 UTC") : QString()) },
        { QStringLiteral("HOST"), s.host },
        { QStringLiteral("USER"), s.user },
        { QStringLiteral("REP_FILE"), s.baseName + QStringLiteral(".nsys-rep") },
        { QStringLiteral("OUT_FILE"), s.baseName + QStringLiteral(".sqlite") },
        { QStringLiteral("REP_PATH"), reportDir + s.baseName + QStringLiteral(".nsys-rep") },
        { QStringLiteral("OUT_PATH"), reportDir + s.baseName + QStringLiteral(".sqlite") },
        { QStringLiteral("COMMAND"), s.command },
        { QStringLiteral("WORKING_DIR"), s.workingDir },
        { QStringLiteral("UUID"), s.uuid },
        { QStringLiteral("DURATION_MS"), QString::number(s.durationNs / 1000000) },
    };

    if (!v.exportMetaTable.isEmpty()) {
        QList<MetaRow> rows;
        for (const MetaRow& r : v.exportMeta)
            rows.append({ r.name, substitute(r.value, tokens) });
        writeMeta(w, v.exportMetaTable, rows);
    }
    if (w.hasTable(QStringLiteral("META_DATA_CAPTURE"))) {
        QList<MetaRow> rows;
        for (const MetaRow& r : v.captureMeta) {
            rows.append({ r.name, substitute(r.value, tokens) });
            if (r.name == QLatin1String("DEVICE_ID")) {
                for (const QString& t : s.captureEventTypes)
                    rows.append({ QStringLiteral("CAPTURE_EVENT_TYPE"), t });
            }
            if (r.name.endsWith(QLatin1String(":COMMAND"))) {
                const QString prefix = r.name.chopped(int(qstrlen("COMMAND")));
                for (qsizetype i = 0; i < s.arguments.size(); ++i)
                    rows.append({ prefix + QStringLiteral("ARGUMENT_%1").arg(i), s.arguments.at(i) });
            }
        }
        writeMeta(w, QStringLiteral("META_DATA_CAPTURE"), rows);
    }
    for (const TableSchema& t : v.tables) {
        if (t.name.startsWith(QLatin1String("ENUM_")))
            w.createTable(t.name);
    }
    if (w.hasTable(QStringLiteral("TARGET_INFO_SESSION_START_TIME"))) {
        // systemClockNs exists from 2026.1 on.
        Inserter& ins = w.prepare(QStringLiteral("TARGET_INFO_SESSION_START_TIME"),
            { QStringLiteral("utcEpochNs"), QStringLiteral("utcTime"), QStringLiteral("localTime"),
                QStringLiteral("systemClockNs") },
            ExportWriter::MissingColumns::Skip);
        ins.set(0, s.utcEpochNs);
        ins.setText(1, isoUtc(s.utcEpochNs));
        ins.setText(2, isoUtc(s.utcEpochNs));
        ins.set(3, s.systemClockNs);
        ins.insert();
    }
    if (w.hasTable(QStringLiteral("ANALYSIS_DETAILS"))) {
        w.insert(QStringLiteral("ANALYSIS_DETAILS"),
            { { "globalVid", globalPid(0) }, { "duration", s.durationNs }, { "startTime", s.systemClockNs },
                { "stopTime", s.systemClockNs + s.durationNs } });
    }
    if (w.hasTable(QStringLiteral("TARGET_INFO_SYSTEM_ENV"))) {
        const QHash<QString, QString> values = {
            { QStringLiteral("CpuCores"), QString::number(s.cpuCores) },
            { QStringLiteral("CpuArchitecture"), QStringLiteral("x86_64") },
            { QStringLiteral("CpuDescription"), s.cpuDescription },
            { QStringLiteral("NvDriverVersion"), s.nvDriverVersion },
            { QStringLiteral("HardwarePlatform"), QStringLiteral("x86_64") },
            { QStringLiteral("SoftwarePlatform"), QStringLiteral("L4X") },
            { QStringLiteral("OsDescription"), s.osDescription },
            { QStringLiteral("CudaDriverVersion"), QString::number(s.cudaDriverVersion) },
            { QStringLiteral("Hostname"), s.host },
        };
        Inserter& ins = w.prepare(QStringLiteral("TARGET_INFO_SYSTEM_ENV"),
            { QStringLiteral("globalVid"), QStringLiteral("devStateName"), QStringLiteral("name"),
                QStringLiteral("nameEnum"), QStringLiteral("value") });
        ins.set(0, globalPid(0));
        ins.setText(1, QStringLiteral("Local (CLI)"));
        for (const SystemEnvKey& k : v.systemEnv) {
            ins.setText(2, k.name);
            ins.set(3, k.nameEnum);
            ins.setText(4, values.value(k.name, QStringLiteral("1")));
            ins.insert();
        }
    }
}

} // namespace nsw::tracegen

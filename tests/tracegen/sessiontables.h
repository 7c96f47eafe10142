// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace nsw::tracegen {

class ExportWriter;

/// Facts about the capture that the metadata tables describe.
struct SessionInfo
{
    qint64 utcEpochNs = 1767225600000000000; // 2026-01-01T00:00:00Z
    qint64 systemClockNs = 28254349605; // target clock at session start (ANALYSIS_DETAILS.startTime)
    qint64 durationNs = 0;
    QString host = QStringLiteral("synthetic-node");
    QString user = QStringLiteral("tracegen");
    QString baseName = QStringLiteral("report1"); // report file name without extension
    QString workingDir = QStringLiteral("/workspace");
    QString command = QStringLiteral("python3");
    QStringList arguments;
    QString uuid = QStringLiteral("00000000-0000-4000-8000-000000000000");
    QStringList captureEventTypes = { QStringLiteral("NvtxEvents"), QStringLiteral("Cuda") };
    QString cpuDescription = QStringLiteral("AMD EPYC 9654 96-Core Processor");
    int cpuCores = 192;
    QString osDescription = QStringLiteral("Ubuntu 22.04.5 LTS");
    QString nvDriverVersion = QStringLiteral("570.124.06");
    int cudaDriverVersion = 12080;
    double exportSeconds = 1.25;
};

/// Writes the tables every export of the version carries regardless of what was traced: the export/capture metadata
/// (none for 2021, EXPORT_META_DATA for 2022.x, META_DATA_EXPORT + META_DATA_CAPTURE later), all ENUM_* tables,
/// TARGET_INFO_SESSION_START_TIME, ANALYSIS_DETAILS and TARGET_INFO_SYSTEM_ENV, where the version has them.
void writeSessionTables(ExportWriter& w, const SessionInfo& s);

/// "YYYY-MM-DDTHH:MM:SS" of an epoch in ns (UTC), as nsys writes utcTime.
QString isoUtc(qint64 epochNs);

} // namespace nsw::tracegen

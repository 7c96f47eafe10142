// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nsys/nvlinkrecorders.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace nsw {

struct RecordingCandidate
{
    QString path;
    int suggestedGpu = -1; ///< from the file name, -1 when it says nothing
};

/// What a trace folder holds: exports and NVF1 recordings, each sorted by name (never filesystem order).
struct TraceFolder
{
    QString folder;
    QStringList exports;
    std::vector<RecordingCandidate> recordings;
    QStringList skipped; ///< .bin files that are not NVF1 recordings, as "file: reason"
};

TraceFolder scanTraceFolder(const QString& folder);

/// The GPU a recording's file name names: "gpu1", "GPU_3", "rank2", "device-0", "nvlink_trace_5.bin" (a short
/// trailing number). -1 when there is none: the recorder does not store its GPU anywhere.
int suggestGpuFromFileName(const QString& fileName);

struct RecordingChoice
{
    QString path;
    int gpu = 0;
};

/// The recordings among the files NVLink recorders wrote beside a new report (NvlinkRecorders), each as its GPU; a
/// file that is not an NVF1 recording is left out with a warning.
std::vector<RecordingChoice> usableRecordings(const NvlinkRecorded& recorded, QStringList* warnings);

/// The export to open: the only one, else the only "*_profile.sqlite" (the CCL-Bench scripts' name); empty when
/// the choice is ambiguous (the caller asks).
QString defaultExport(const TraceFolder& folder);

/// Every recording with its GPU: the file name's, or 0 for a lone recording without one (the CCL-Bench scripts
/// always record GPU 0). Returns false when several recordings do not name distinct GPUs (the caller asks).
bool defaultRecordingChoices(const TraceFolder& folder, std::vector<RecordingChoice>& out);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinksetup.h"

#include "core/nvlink/nvlinkattachment.h"

#include <QFileInfo>

namespace nsw {

namespace {
RecordingPlacement placeAgainstCapture(
    const NvlinkSetupRequest& request, const ClockAlignment& alignment, const Nvf1Recording& r)
{
    RecordingPlacement p = placeRecording(alignment, r.firstUs, r.lastUs, request.capture);
    if (request.exactCapture && (!p.captureKnown() || p.mismatched()))
        p = placeRecording(alignment, r.firstUs, r.lastUs, request.exactCapture());
    return p;
}
} // namespace

Result<NvlinkSetup> setUpNvlinkSource(const NvlinkSetupRequest& request)
{
    NvlinkSetup setup;
    const Nvf1Recording* recording = request.source.recording.get();
    if (!request.exportInfo)
        return setup;
    const Profile& exportInfo = *request.exportInfo;
    if (request.peakTable) {
        setup.gpuName = nvlinkGpuModel(exportInfo, request.source.gpu, request.source.gpuMetrics.get());
        if (const LinkPeakEntry* entry = request.peakTable->match(setup.gpuName))
            setup.gpuModel = *entry;
    }
    const TimeNs sessionStart = exportInfo.meta.sessionStartUtcNs;
    if (!recording) {
        const qint64 startUs = sessionStart != kNoTime ? floorDiv(sessionStart, 1000) : 0;
        setup.alignment = alignClocks(sessionStart, startUs, 0);
        return setup;
    }
    setup.alignment = alignClocks(sessionStart, recording->firstUs, request.offsetNs);
    if (!setup.alignment.fromExport && request.needKernelClock)
        return Result<NvlinkSetup>::failure(ErrorKind::NoData,
            QStringLiteral("%1: %2").arg(request.exportPath,
                sessionStart == kNoTime
                    ? QStringLiteral(
                        "no TARGET_INFO_SESSION_START_TIME: the NVML clock cannot be matched to the kernels")
                    : QStringLiteral("the session start time is more than 100 days away from the recording")));
    RecordingPlacement placement = placeAgainstCapture(request, setup.alignment, *recording);
    if (request.alignStart && placement.captureKnown()) {
        setup.alignment.offsetNs = placement.alignOffsetNs + request.offsetNs;
        placement = placeAgainstCapture(request, setup.alignment, *recording);
    }
    if (placement.mismatched())
        setup.anotherSessionWarning
            = QStringLiteral("%1: %2 (export %3). Is it from another session?")
                  .arg(request.recordingPath, placement.problem(), QFileInfo(request.exportPath).fileName());
    setup.placement = placement;
    return setup;
}

} // namespace nsw

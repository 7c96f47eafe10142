// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilestatus.h"

#include "core/profile/capturespan.h"
#include "core/profile/sessionclock.h"
#include "core/session/profilesession.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

#include <QObject>
#include <QStringList>
#include <set>

namespace nsw {

namespace {
QString gpusOf(const Profile& p)
{
    const std::vector<int> devices = p.devicesUsed();
    QStringList gpuNames;
    std::set<QString> models;
    for (const int d : devices)
        if (const GpuInfo* g = p.gpuFor(kNoIndex, d))
            models.insert(g->name);
    for (const QString& m : models)
        gpuNames.append(m);
    return devices.empty() ? QObject::tr("no GPU activity")
                           : countOf(qint64(devices.size()), QObject::tr("GPU"), QObject::tr("GPUs"))
            + (gpuNames.isEmpty() ? QString()
                                  : QStringLiteral(" (") + gpuNames.join(QStringLiteral(", ")) + QLatin1Char(')'));
}
} // namespace

ProfileStatus profileStatusOf(const ProfileSession& s)
{
    const Profile& p = *s.profile();
    const QString version = p.meta.nsysVersion.isEmpty() ? QObject::tr("nsys ≤ 2021 (no metadata)")
                                                         : QObject::tr("nsys %1").arg(p.meta.nsysVersion);
    const CaptureSpan capture = captureSpanOf(p);
    const QString from
        = capture.source == CaptureSpanSource::Events ? QObject::tr("GPU, API and NVTX span") : QObject::tr("metadata");
    const QString span = !s.isComplete() ? QObject::tr("capture span: loading…")
        : capture.source == CaptureSpanSource::None
        ? QObject::tr("no events")
        : QObject::tr("%1 (%2, %3)")
              .arg(captureSpanText(capture, sessionClockOrigin(p)), formatDuration(capture.durationNs()), from);
    return { QObject::tr("%1  ·  %2  ·  %3").arg(version, gpusOf(p), span),
        QObject::tr("Capture span from the %1").arg(capture.sourceText()) };
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/mfu.h"

#include <algorithm>

namespace nsw {

namespace {

MfuRooflinePoint point(const MfuRoofline& roof, bool iteration, const QString& label, double intensity, double tflops)
{
    MfuRooflinePoint p { iteration, label, intensity, tflops };
    if (roof.hasRoof()) {
        p.attainableTflops = std::min(roof.peakTflops, intensity * roof.bandwidthTBs);
        p.memoryBound = intensity < roof.ridge;
    }
    return p;
}

QString quoted(const QStringList& names)
{
    return QLatin1Char('"') + names.join(QStringLiteral("\", \"")) + QLatin1Char('"');
}

} // namespace

MfuRoofline mfuRoofline(const MfuResult& r)
{
    MfuRoofline roof;
    roof.peakTflops = r.peakTflops;
    roof.bandwidthTBs = r.peakBandwidthTBs;
    if (roof.hasRoof())
        roof.ridge = roof.peakTflops / roof.bandwidthTBs; // TFLOP/s over TB/s: FLOPs per byte
    else
        roof.missing << QStringLiteral("No memory roof: the memory bandwidth of %1 is not known; give it (--peak-"
                                       "bandwidth, TB/s per GPU).")
                            .arg(r.gpuName.isEmpty() ? QStringLiteral("the GPU") : r.gpuName);
    if (!r.iterations.empty() && r.bytesPerIteration > 0) {
        // The iteration's FLOPs and bytes are those of all the GPUs together: per GPU both divide by the GPU count,
        // the intensity does not change.
        const double intensity = r.flopsPerIteration / r.bytesPerIteration;
        for (const MfuIterationRow& it : r.iterations)
            roof.points.push_back(point(roof, true, it.label, intensity, it.tflops / r.gpus));
    } else if (r.bytesPerIteration > 0) {
        roof.missing << QStringLiteral("No point for the iterations: bytes per iteration are given, but no FLOPs per "
                                       "iteration (--flops or the transformer calculator).");
    } else if (!r.iterations.empty()) {
        roof.missing << QStringLiteral("No point for the iterations: a roofline point needs the bytes an iteration "
                                       "moves to and from GPU memory (--bytes); the export holds times, not bytes.");
    }
    QStringList withoutBytes, withoutTime;
    for (const MfuRangeRow& g : r.ranges) {
        if (!(g.bytes > 0))
            withoutBytes << g.pattern;
        else if (g.gpuSpanNs <= 0)
            withoutTime << g.pattern;
        else
            roof.points.push_back(point(roof, false, g.pattern, g.flops / g.bytes, g.tflops));
    }
    if (!withoutBytes.isEmpty())
        roof.missing << QStringLiteral("No point for the NVTX range(s) %1: no bytes given for them ({\"flops\": F, "
                                       "\"bytes\": B} in the ranges file).")
                            .arg(quoted(withoutBytes));
    if (!withoutTime.isEmpty())
        roof.missing << QStringLiteral("No point for the NVTX range(s) %1: no GPU work was launched inside them.")
                            .arg(quoted(withoutTime));
    return roof;
}

} // namespace nsw

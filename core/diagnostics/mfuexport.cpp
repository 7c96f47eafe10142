// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/mfuexport.h"

#include "core/diagnostics/diagnosticsexport.h"

#include <cmath>

namespace nsw {

namespace {

using Cell = DiagnosticsCell;

QString number(double v, int digits = 4)
{
    return QString::number(v, 'g', digits);
}

nlohmann::ordered_json strings(const QStringList& list)
{
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (const QString& s : list)
        array.push_back(s.toStdString());
    return array;
}

nlohmann::ordered_json rooflineJson(const MfuRoofline& roof)
{
    using Json = nlohmann::ordered_json;
    Json points = Json::array();
    for (const MfuRooflinePoint& p : roof.points)
        points.push_back({ { "kind", p.iteration ? "iteration" : "range" }, { "label", p.label.toStdString() },
            { "flops_per_byte", p.intensity }, { "achieved_tflops", p.achievedTflops },
            { "attainable_tflops", p.attainableTflops }, { "attainable_pct", p.attainablePercent() },
            { "bound", p.attainableTflops > 0 ? (p.memoryBound ? "memory" : "compute") : "" } });
    return { { "per_gpu", true }, { "peak_tflops", roof.peakTflops }, { "bandwidth_tbs", roof.bandwidthTBs },
        { "ridge_flops_per_byte", roof.ridge }, { "points", points }, { "missing", strings(roof.missing) } };
}

} // namespace

std::vector<DiagnosticsTable> mfuTables(const MfuResult& r)
{
    std::vector<DiagnosticsTable> out;
    if (!r.iterations.empty()) {
        DiagnosticsTable t;
        t.id = QStringLiteral("mfu_iterations");
        t.title = QStringLiteral("MFU per iteration");
        t.columns = QStringList { QStringLiteral("index"), QStringLiteral("iteration"), QStringLiteral("start_ns"),
            QStringLiteral("duration_ns"), QStringLiteral("tflops"), QStringLiteral("mfu_pct"),
            QStringLiteral("flops_per_byte"), QStringLiteral("roof_tflops"), QStringLiteral("roof_pct") };
        const bool roof = r.roofTflops > 0;
        for (const MfuIterationRow& i : r.iterations)
            t.rows.push_back({ Cell(qint64(i.index)), Cell(i.label), Cell(qint64(i.start - r.clockOrigin)),
                Cell(qint64(i.duration)), Cell(i.tflops), Cell(i.mfuPercent), roof ? Cell(r.intensity) : Cell(),
                roof ? Cell(r.roofTflops) : Cell(), roof ? Cell(100.0 * i.tflops / r.roofTflops) : Cell() });
        out.push_back(std::move(t));
    }
    if (!r.ranges.empty()) {
        DiagnosticsTable t;
        t.id = QStringLiteral("mfu_ranges");
        t.title = QStringLiteral("MFU per NVTX range");
        t.columns = QStringList { QStringLiteral("instances"), QStringLiteral("range"), QStringLiteral("gpu_time_ns"),
            QStringLiteral("flops"), QStringLiteral("tflops"), QStringLiteral("mfu_pct"), QStringLiteral("bytes"),
            QStringLiteral("flops_per_byte"), QStringLiteral("roof_tflops"), QStringLiteral("roof_pct") };
        for (const MfuRangeRow& g : r.ranges) {
            const bool roof = g.roofTflops > 0 && g.gpuSpanNs > 0;
            t.rows.push_back({ Cell(g.instances), Cell(g.pattern), Cell(qint64(g.gpuSpanNs)),
                Cell(qint64(std::llround(g.flops))), Cell(g.tflops), g.gpuSpanNs > 0 ? Cell(g.mfuPercent) : Cell(),
                g.bytes > 0 ? Cell(qint64(std::llround(g.bytes))) : Cell(),
                g.intensity > 0 ? Cell(g.intensity) : Cell(), g.roofTflops > 0 ? Cell(g.roofTflops) : Cell(),
                roof ? Cell(100.0 * g.tflops / g.roofTflops) : Cell() });
        }
        out.push_back(std::move(t));
    }
    return out;
}

QString mfuSummary(const MfuResult& r)
{
    QString peak = QStringLiteral("peak %1 TFLOP/s (%2, %3) x %4 GPU(s)")
                       .arg(number(r.peakTflops, 6), r.peakGpu, precisionName(r.precision))
                       .arg(r.gpus);
    if (r.iterations.empty())
        return QStringLiteral("MFU per NVTX range against a %1").arg(peak);
    return QStringLiteral("median iteration MFU %1 % (all iterations %2 %) against a %3")
        .arg(r.medianMfuPercent, 0, 'f', 1)
        .arg(r.overallMfuPercent, 0, 'f', 1)
        .arg(peak);
}

QString mfuText(const MfuResult& r)
{
    QString out = QStringLiteral("MFU: %1\n").arg(mfuSummary(r));
    for (const QString& w : r.warnings)
        out += QStringLiteral("WARNING: %1\n").arg(w);
    if (!r.gpuName.isEmpty())
        out += QStringLiteral("GPU: %1\n").arg(r.gpuName);
    if (r.roofTflops > 0)
        out += QStringLiteral("Roofline: %1 FLOPs/byte against a ridge of %2: %3-bound, roof %4 TFLOP/s\n")
                   .arg(number(r.intensity), number(r.ridge),
                       r.intensity < r.ridge ? QStringLiteral("memory") : QStringLiteral("compute"),
                       number(r.roofTflops, 6));
    for (const QString& m : r.roofline.missing)
        out += QStringLiteral("Roofline: %1\n").arg(m);
    out += QStringLiteral("Assumptions:\n");
    for (const QString& a : r.assumptions)
        out += QStringLiteral("  - %1\n").arg(a);
    for (const DiagnosticsTable& t : mfuTables(r))
        out += QLatin1Char('\n') + diagnosticsTableText(t);
    return out;
}

nlohmann::ordered_json mfuJson(const MfuResult& r)
{
    using Json = nlohmann::ordered_json;
    Json j = { { "gpu_name", r.gpuName.toStdString() }, { "peak_gpu", r.peakGpu.toStdString() },
        { "precision", precisionName(r.precision).toStdString() }, { "peak_tflops_per_gpu", r.peakTflops },
        { "peak_bandwidth_tbs_per_gpu", r.peakBandwidthTBs }, { "gpus", r.gpus },
        { "flops_per_iteration", r.flopsPerIteration }, { "bytes_per_iteration", r.bytesPerIteration },
        { "median_mfu_pct", r.medianMfuPercent }, { "overall_mfu_pct", r.overallMfuPercent },
        { "flops_per_byte", r.intensity }, { "ridge_flops_per_byte", r.ridge }, { "roof_tflops", r.roofTflops },
        { "assumptions", strings(r.assumptions) }, { "warnings", strings(r.warnings) } };
    j["bound"] = r.roofTflops > 0 ? (r.intensity < r.ridge ? "memory" : "compute") : "";
    j["roofline"] = rooflineJson(r.roofline);
    for (const DiagnosticsTable& t : mfuTables(r))
        j[t.id.toStdString()] = diagnosticsTableJson(t);
    return j;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/gpupeaks.h"

#include "core/util/shippeddata.h"
#include "core/util/stringlists.h"

#include <QRegularExpression>

namespace nsw {

namespace {
const char* const kNames[kPrecisionCount] = { "fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8" };
} // namespace

QString precisionName(Precision precision)
{
    return QLatin1String(kNames[int(precision)]);
}

std::optional<Precision> precisionFromName(const QString& name)
{
    for (int p = 0; p < kPrecisionCount; ++p)
        if (name.compare(QLatin1String(kNames[p]), Qt::CaseInsensitive) == 0)
            return Precision(p);
    return std::nullopt;
}

QStringList precisionNames()
{
    return textsOf(kNames, [](const char* n) { return QLatin1String(n); });
}

const std::vector<GpuPeak>& gpuPeakTable()
{
    static const std::vector<GpuPeak> table = [] {
        const nlohmann::json data = shippedData(QStringLiteral("gpupeaks.json"));
        std::vector<GpuPeak> peaks;
        for (const nlohmann::json& row : data.at("gpus")) {
            GpuPeak& peak = peaks.emplace_back();
            peak.gpu = shippedText(row.at("gpu"));
            peak.pattern = shippedText(row.at("pattern"));
            for (int p = 0; p < kPrecisionCount; ++p)
                peak.tflops[std::size_t(p)] = row.at("tflops").at(kNames[p]).get<double>();
            peak.memoryTBs = row.at("memory_tbs").get<double>();
            peak.source = shippedText(row.at("source"));
        }
        return peaks;
    }();
    return table;
}

const GpuPeak* findGpuPeak(const QString& gpuName)
{
    if (gpuName.trimmed().isEmpty())
        return nullptr;
    for (const GpuPeak& g : gpuPeakTable())
        if (QRegularExpression(g.pattern, QRegularExpression::CaseInsensitiveOption).match(gpuName).hasMatch())
            return &g;
    return nullptr;
}

} // namespace nsw

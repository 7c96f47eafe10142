// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/gpupeaks.h"

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
    // Dense tensor-core peaks (TFLOP/s; INT8 in TOPS): the datasheets' "with sparsity" figures halved. Columns:
    // fp64 (tensor core where there is one), fp32, tf32, bf16, fp16, fp8, int8; then memory bandwidth in TB/s.
    static const QString h100 = QStringLiteral("NVIDIA H100 Tensor Core GPU datasheet");
    static const QString h200 = QStringLiteral("NVIDIA H200 Tensor Core GPU datasheet");
    static const QString a100 = QStringLiteral("NVIDIA A100 Tensor Core GPU datasheet");
    static const std::vector<GpuPeak> table = {
        { QStringLiteral("H100 PCIe"), QStringLiteral("H100.*PCIe"), { 51, 51, 378, 756.5, 756.5, 1513, 1513 }, 2.0,
            h100 },
        { QStringLiteral("H100 NVL"), QStringLiteral("H100.*NVL"), { 60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5 }, 3.9,
            h100 },
        { QStringLiteral("H100 SXM"), QStringLiteral("H100"), { 67, 67, 494.5, 989.5, 989.5, 1979, 1979 }, 3.35, h100 },
        { QStringLiteral("H200 NVL"), QStringLiteral("H200.*NVL"), { 60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5 }, 4.8,
            h200 },
        { QStringLiteral("H200 SXM"), QStringLiteral("H200"), { 67, 67, 494.5, 989.5, 989.5, 1979, 1979 }, 4.8, h200 },
        { QStringLiteral("B200"), QStringLiteral("B200"), { 37, 75, 1125, 2250, 2250, 4500, 4500 }, 8.0,
            QStringLiteral("NVIDIA HGX B200 specifications (per GPU: an eighth of the 8-GPU figures)") },
        { QStringLiteral("A100 80GB PCIe"), QStringLiteral("A100.*80GB.*PCIe|A100.*PCIe.*80GB"),
            { 19.5, 19.5, 156, 312, 312, 0, 624 }, 1.935, a100 },
        { QStringLiteral("A100 80GB SXM"), QStringLiteral("A100.*80GB"), { 19.5, 19.5, 156, 312, 312, 0, 624 }, 2.039,
            a100 },
        { QStringLiteral("A100 40GB"), QStringLiteral("A100"), { 19.5, 19.5, 156, 312, 312, 0, 624 }, 1.555, a100 },
        { QStringLiteral("L40S"), QStringLiteral("L40S"), { 0, 91.6, 183, 362.05, 362.05, 733, 733 }, 0.864,
            QStringLiteral("NVIDIA L40S GPU datasheet") },
        { QStringLiteral("L4"), QStringLiteral("\\bL4\\b"), { 0, 30.3, 60, 121, 121, 242.5, 242.5 }, 0.3,
            QStringLiteral("NVIDIA L4 Tensor Core GPU datasheet") },
        { QStringLiteral("A10"), QStringLiteral("\\bA10\\b"), { 0, 31.2, 62.5, 125, 125, 0, 250 }, 0.6,
            QStringLiteral("NVIDIA A10 Tensor Core GPU datasheet") },
        { QStringLiteral("T4"), QStringLiteral("\\bT4\\b"), { 0, 8.1, 0, 0, 65, 0, 130 }, 0.32,
            QStringLiteral("NVIDIA T4 Tensor Core GPU datasheet") },
        { QStringLiteral("V100 PCIe"), QStringLiteral("V100.*PCIE"), { 7, 14, 0, 0, 112, 0, 0 }, 0.9,
            QStringLiteral("NVIDIA V100 Tensor Core GPU datasheet") },
        { QStringLiteral("V100 SXM2"), QStringLiteral("V100"), { 7.8, 15.7, 0, 0, 125, 0, 0 }, 0.9,
            QStringLiteral("NVIDIA V100 Tensor Core GPU datasheet") },
    };
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

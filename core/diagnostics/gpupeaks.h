// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace nsw {

/// The arithmetic a peak is quoted for.
enum class Precision : std::uint8_t
{
    Fp64, ///< FP64 on tensor cores where the GPU has them (A100, H100, H200, B200), else FP64
    Fp32, ///< FP32 without tensor cores
    Tf32,
    Bf16,
    Fp16,
    Fp8,
    Int8, ///< TOPS
};
inline constexpr int kPrecisionCount = 7;
QString precisionName(Precision precision); ///< "fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8"
std::optional<Precision> precisionFromName(const QString& name); ///< case-insensitive
QStringList precisionNames();

/// A GPU's peaks per precision: dense (no structured sparsity) tensor-core peaks, as NVIDIA's datasheets quote them
/// (the sparse figures halved), with the memory bandwidth for a roofline.
struct GpuPeak
{
    QString gpu; ///< "H100 SXM"
    QString pattern; ///< a regular expression (case-insensitive) found in the export's GPU name
    std::array<double, kPrecisionCount> tflops {}; ///< by Precision; 0 where the GPU has no such path
    double memoryTBs = 0; ///< TB/s
    QString source; ///< the document the numbers come from
};

/// The built-in table (resources/data/gpupeaks.json), in match order (more specific names first).
const std::vector<GpuPeak>& gpuPeakTable();
/// The first row whose pattern is found in @p gpuName, or null.
const GpuPeak* findGpuPeak(const QString& gpuName);

} // namespace nsw

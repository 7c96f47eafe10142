// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringView>
#include <vector>

namespace nsw {

/// One rewrite the kernel-name normalizer applies, so that the "same" kernel lines up between two builds or runs
/// whose names differ only by template arguments, hashes or numbers. The rules run in table order.
struct KernelNameRule
{
    QString id; ///< "templates", "hashes", "numbers"
    QString description; ///< one line for tooltips and the README
    QString (*apply)(QStringView name) = nullptr;
};

/// The rules of normalizeKernelName(), in the order they are applied.
const std::vector<KernelNameRule>& kernelNameRules();
/// The rule with @p id, or nullptr.
const KernelNameRule* kernelNameRule(QStringView id);

/// Every rule of kernelNameRules() in turn:
/// "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, T2)" ->
/// "void at::native::vectorized_elementwise_kernel<...>(int, T2)"; "triton_poi_fused_add_12" ->
/// "triton_poi_fused_add_#"; "gemm_kernel_5f3a9c2e17" -> "gemm_kernel_#". Dtype tags ("bf16", "f16f32"), tile
/// shapes glued to letters ("128x64") and "sm90" are kept.
QString normalizeKernelName(QStringView name);

/// Template argument lists, nested or not, become "<...>" ("operator<" / "operator<<" and "->" are not brackets).
QString stripTemplateArguments(QStringView name);
/// A standalone run of 8 or more hex digits holding a digit and one of a, c, d, e (so that dtype runs such as
/// "bf16bf16f32" are not taken for one) becomes "#".
QString replaceHexHashes(QStringView name);
/// Standalone numbers (decimal, decimal fraction, 0x hex) become "#", exactly as normalizeNvtxName does.
QString replaceNumbers(QStringView name);

} // namespace nsw

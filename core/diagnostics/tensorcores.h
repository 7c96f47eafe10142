// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/rulefile.h"
#include "core/diagnostics/analysiscontext.h"

#include <memory>

namespace nsw {

/// The category of a tensor-core kernel in the tensor-core rules; every other category is "not tensor core".
inline const QString kTensorCoreCategory = QStringLiteral("tensor_core");

class RuleLibrary;

/// The shipped tensor-core rules (engine "tensorcores", model "name-heuristic" of RuleLibrary's shipped sets); the
/// Categories pane edits them like any rule set, a user file of that engine overriding them.
std::shared_ptr<const RuleList> shippedTensorCoreRules();
/// The tensor-core rules in effect in @p library (RuleLibrary::loadDefault: a user file of the engine "tensorcores"
/// overrides the shipped one): the engine's "name-heuristic" model, else its first; the shipped rules without it.
std::shared_ptr<const RuleList> tensorCoreRulesOf(const RuleLibrary& library);

struct TensorCoreDevice
{
    int device = -1;
    TimeNs kernelNs = 0; ///< kernels that overlap the focus, whole durations
    TimeNs tensorCoreNs = 0; ///< of them, kernels the rules call tensor-core kernels
    double percent() const { return kernelNs > 0 ? 100.0 * double(tensorCoreNs) / double(kernelNs) : 0.0; }
};

/// A kernel name the rules do not call a tensor-core kernel.
struct NonTensorCoreKernel
{
    QString name;
    qint64 instances = 0;
    TimeNs totalNs = 0;
    double sharePercent = 0; ///< of all kernel time
    /// The name looks like matrix work (gemm, matmul, conv, gemv, mma): a candidate for tensor cores.
    bool matrixLike = false;
};

/// Tensor-core use told from kernel names (a heuristic: the rules decide, nothing measures the hardware).
struct TensorCoreResult
{
    QString rules; ///< "tensorcores/name-heuristic"
    std::vector<TensorCoreDevice> devices; ///< by device key
    TensorCoreDevice total; ///< device -1: every GPU
    std::vector<NonTensorCoreKernel> biggestOthers; ///< most time first, at most 10
};

/// Classifies each kernel name of the window with @p rules (first match wins; null: the shipped rules).
TensorCoreResult computeTensorCores(
    const AnalysisContext& context, const std::shared_ptr<const RuleList>& rules, const JobContext& job = {});

} // namespace nsw

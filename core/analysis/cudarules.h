// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/analysisrun.h"
#include "core/analysis/ruleinput.h"

#include <memory>

namespace nsw {

/// The four CUDA API rules (pageable async memcpy, synchronous memcpy and memset, synchronization calls). What they
/// read is read once per request and kept: the runtime calls the rules can name, by correlation id (unfiltered,
/// as nsys's `main.` join, which matches on the id alone, across processes), the synchronize calls, and the
/// memcpys/memsets a rule can report; each rule then applies its own window in memory.
class CudaRuleInputs
{
public:
    explicit CudaRuleInputs(const RuleInput& input);
    ~CudaRuleInputs();

    /// nsys's SKIPPED message when the export lacks a table rule @p id needs, else empty.
    QString missingData(RuleId id) const;

    /// Rows in nsys's order (duration descending, ties in the order nsys's join meets them), cut at `rows`.
    Result<std::vector<RuleRow>> compute(const RuleRequest& request, const TimeWindow& window);

private:
    struct Data;
    Status loadRuntime();
    Status loadCopies(bool memset);
    const RuleInput& m_input;
    std::unique_ptr<Data> m_data;
};

/// Keeps the first @p limit rows (SQL LIMIT: a negative limit keeps all).
void applyRowLimit(std::vector<RuleRow>& rows, qint64 limit);

} // namespace nsw

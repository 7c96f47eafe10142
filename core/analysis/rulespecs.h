// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace nsw {

/// nsys's expert-system rules (`nsys analyze`), by their current names.
enum class RuleId
{
    CudaMemcpyAsync,
    CudaMemcpySync,
    CudaMemsetSync,
    CudaApiSync,
    GpuGaps,
    GpuTimeUtil,
};

/// How a column prints: integers and text as they are, bytes as nsys's default memory unit (MB, 3 decimals),
/// percentages with one decimal.
enum class ColumnKind
{
    Integer,
    Text,
    Megabytes,
    Percent,
};

struct RuleColumn
{
    QString header;
    ColumnKind kind = ColumnKind::Integer;
};

struct RuleSpec
{
    RuleId id;
    QString name; ///< current name (cuda_memcpy_async)
    QString oldName; ///< 2022-era name, accepted as an alias (cuda-async-memcpy)
    QString title; ///< display name (CUDA Async Memcpy with Pageable Memory)
    std::vector<RuleColumn> columns;
    QStringList extraOptions; ///< options besides rows, start, end, nvtx
};

const std::vector<RuleSpec>& ruleSpecs();
/// By current or old name; nullptr when unknown.
const RuleSpec* findRule(const QString& name);

/// A rule's options, with nsys's defaults.
struct RuleOptions
{
    qint64 rows = 50;
    std::optional<qint64> start;
    std::optional<qint64> end;
    std::optional<QString> nvtx; ///< "range" or "range@domain"
    qint64 gap = 500; ///< ms
    qint64 threshold = 50; ///< %
    qint64 chunks = 30;
};

struct RuleRequest
{
    const RuleSpec* spec = nullptr;
    RuleOptions options;
    QString arguments; ///< as given after the name ("gap=1:rows=5")
};

/// "RULE[:opt=val...]" items (current or old names); no item means every rule with its defaults. Fails
/// (ErrorKind::Usage) with nsys's message on an unknown rule, an unknown option or a value that is not an integer.
Result<std::vector<RuleRequest>> planRules(const QStringList& namesWithOptions);

/// The advice and the no-result text nsys prints for @p request (gap and threshold filled in).
QString ruleAdvice(const RuleRequest& request);
QString ruleNoResult(const RuleRequest& request);
/// "Only the top N results are displayed..." when @p rowCount reached the row limit, else empty.
QString ruleRowLimitNote(const RuleRequest& request, qsizetype rowCount);

/// Python's int() of an option value (surrounding blanks, a sign, '_' between digits); nullopt when invalid.
std::optional<qint64> parsePythonInt(const QString& text);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"
#include "core/ranks/ranksummary.h"

#include <QByteArray>

namespace nsw {

/// The rank summary file (`summarize` writes it, `ranks` reads it; the layout is in docs/rank-summary.md): a magic,
/// the format version, the payload's length, the payload (varints), and a checksum of the payload.
inline constexpr std::uint32_t kRankSummaryVersion = 1;
/// The extension `summarize` suggests and folders are searched for.
inline constexpr char kRankSummarySuffix[] = "nswsum";

QByteArray encodeRankSummary(const RankFile& file);
/// Reads a summary; every failure (not a summary, another version, truncated, damaged) is an Input error naming
/// @p path. The result's summaryPath is @p path.
Result<RankFile> decodeRankSummary(const QByteArray& bytes, const QString& path);
Result<RankFile> readRankSummary(const QString& path);

/// Whether @p path starts with the summary's magic (a file of another kind is then an export).
bool isRankSummaryFile(const QString& path);

} // namespace nsw

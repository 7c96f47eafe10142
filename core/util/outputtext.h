// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

/// Outputs that repeat names (NVTX trees under every range, Findings' tables and evidence, report.json) write a
/// name up to this many characters: a few 1 MB kernel names under thousands of rows made gigabytes.
inline constexpr qsizetype kMaxOutputTextChars = 4096;

/// @p text as such outputs write it: whole up to kMaxOutputTextChars, else its beginning followed by
/// "… [1048576 characters]" (the full length), so that a cut name says so.
inline QString cutLongText(const QString& text)
{
    if (text.size() <= kMaxOutputTextChars)
        return text;
    return text.left(kMaxOutputTextChars) + QStringLiteral("… [%1 characters]").arg(text.size());
}

} // namespace nsw

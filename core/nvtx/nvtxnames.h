// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QString>
#include <QStringList>
#include <QStringView>

namespace nsw {

/// Replaces numbers that are values, not parts of a word, by '#', so that ranges that differ only by an id or an
/// index aggregate together (and line up between two profiles): "op_id = 998949" -> "op_id = #", "layer_12" ->
/// "layer_#", "blocks.2.attn" -> "blocks.#.attn", "seq=3, lr=0.001, ptr 0x7f3a" -> "seq=#, lr=#, ptr #". A digit
/// run glued to a letter is kept ("fp16", "AllToAll4D", "conv2d", "3x3", "iter12"; "v1.2" -> "v1.#").
QString normalizeNvtxName(QStringView name);

/// How the tree shows a domain: its registered name, "domain N" when the domain-create event is missing, empty for
/// the default domain.
QString nvtxDomainLabel(const Profile& profile, std::int32_t domain);

/// One path segment: "name" in the default domain, "domain:name" otherwise (nsys's "domain:name" without the
/// leading ':' of the default domain).
QString nvtxRangeLabel(QStringView domainLabel, QStringView name);

/// Separator of the segments of an NVTX path ("train_step > forward > layer_#").
inline constexpr QLatin1String kNvtxPathSeparator { " > " };

/// Tree outputs (the nvtx command's Markdown, JSON and CSV, the flat view) write a name up to this many characters:
/// every range repeats its kernels' names, and a few 1 MB names under thousands of ranges made gigabytes.
inline constexpr qsizetype kMaxNvtxOutputNameChars = 4096;

/// @p name as tree outputs write it: whole up to kMaxNvtxOutputNameChars, else its beginning followed by
/// "… [1048576 characters]" (the full length), so that a cut name says so.
QString nvtxOutputName(const QString& name);

/// The key of a path of range labels, root first: identical for the same region in two profiles once names are
/// normalized the same way.
QString nvtxPathKey(const QStringList& labels);

} // namespace nsw

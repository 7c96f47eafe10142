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

/// The key of a path of range labels, root first: identical for the same region in two profiles once names are
/// normalized the same way.
QString nvtxPathKey(const QStringList& labels);

} // namespace nsw

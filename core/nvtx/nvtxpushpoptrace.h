// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/reporttable.h"

namespace nsw {

/// `nsys stats -r nvtx_pushpop_trace` (2022: nvtxpptrace) as nsys 2022.4 computes it: every push/pop range in rowid
/// order with its parent (the range of the same thread that contains it most tightly: the least start gap + end gap,
/// the lowest rowid on a tie; as nsys, only among the ranges whose 32-bit float box of its R*Tree index contains the
/// range's box, so that a push close to its parent's can lose the parent), stack level, children and their summed
/// duration, its stack of rowids and its name indented by level. Ranges whose parents lead into a cycle (identical
/// ranges are each other's parent) are left out, as nsys's recursive query leaves them out. Unterminated ranges end at
/// the table-wide maximum timestamp. The rowids are read from the export (the profile does not keep them). With an
/// active @p focus only the ranges that overlap it; the tree is built from all of them. Rows are made on demand and
/// read @p profile.
ReportTable nvtxPushPopTrace(const Profile& profile, const FocusRange& focus = {});

} // namespace nsw

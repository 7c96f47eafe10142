// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"

#include <QStringList>

namespace nsw {

/// The lines a comparison leads with, in the Compare pane's status and before the `compare` command's table, most
/// telling first (issue 33: a verdict that counted "fewer calls" as improvements hid a kernel 41 % slower per call):
/// - the largest regressions per call, up to @p keys of them ("Slower per call: SendRecv +41.2 % (1.20 ms → 1.69 ms)"),
///   or that no key is slower per call beyond the threshold;
/// - the largest improvements per call, when there are any;
/// - each GPU's idle share, baseline → the others ("GPU idle: GPU 0 8.7 % → 20.0 %");
/// - when the call counts differ, that the totals moved with them and the statuses compare time per call;
/// - the count of each status, with the threshold and the noise floor.
QStringList compareHeadline(const Comparison& comparison, int keys = 3);

} // namespace nsw

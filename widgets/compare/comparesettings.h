// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/controllers/comparecontroller.h"

namespace nsw {

/// The Compare pane's settings of the last session (a marker-less "per iteration" falls back to totals).
CompareController::Settings savedCompareSettings();
/// Whether names are normalized for @p by: remembered per key kind; NVTX paths default to normalized.
bool savedNormalizeNames(CompareBy by);
/// Remembers @p settings; the name normalization only when @p normalizationEdited (it is remembered per key kind, and
/// another key kind brings its own).
void saveCompareSettings(const CompareController::Settings& settings, bool normalizationEdited);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/reporttable.h"

namespace nsw {

// The OpenACC and OpenMP summaries as nsys 2022.4 computes them, read straight from the export's
// CUPTI_ACTIVITY_KIND_OPENACC_* and OPENMP_EVENT_KIND_* tables (the profile does not hold them). With an active
// focus only the events that overlap it.

/// `nsys stats -r openacc_sum` (2022: openaccsum): the events of every OpenACC table together, grouped by
/// "name@file:line" ("name" for events without a source file), by total time descending, equal totals in name order.
ReportTable openAccSum(const Profile& profile, const FocusRange& focus = {});

/// `nsys stats -r openmp_sum` (2022: openmpevtsum): events grouped by name within each OpenMP table (a name that
/// occurs in two tables is two rows), by total time descending. Equal totals: tables in the file's order, names in
/// string id order (nsys 2022.4 takes the tables in an order that changes from run to run).
ReportTable openMpSum(const Profile& profile, const FocusRange& focus = {});

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/iterations/iterations.h"

#include <QString>

namespace nsw {

/// The definitions every output states: what GPU busy, idle, kernels and outlier mean.
QString iterationDefinitions();

/// A plain-text table with a header that says how the iterations were found (a guess for the idle-gap fallback),
/// the definitions, the median and MAD.
QString iterationsText(const IterationTable& table);

/// JSON: file, detection {method, marker, guess, description, gap_threshold_ns}, definitions, median_ns, mad_ns,
/// median_iteration, iterations [{index, marker, start_ns (the session clock), duration_ns, gpu_busy_ns,
/// gpu_idle_ns, kernels, top_kernel, top_kernel_ns, outlier}], warnings.
QString iterationsJson(const IterationTable& table, const QStringList& warnings);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/profile.h"
#include "core/stats/reporttable.h"

#include <QStringList>
#include <functional>
#include <vector>

namespace nsw {

/// An `nsys stats` report we reproduce: its name, older aliases, the tables it needs, and how to compute it.
struct ReportSpec
{
    QString name;
    QStringList aliases;
    QString title;
    unsigned loadParts = 0; ///< LoadPart flags the report needs
    QStringList arguments; ///< accepted ":arg" suffixes, e.g. "base", "mangled"; "rows=" takes ":rows=<integer>"
    /// Rows overlapping the focus count (all rows when it is inactive), durations not clipped.
    std::function<ReportTable(const Profile&, const QStringList& arguments, const FocusRange& focus)> compute;
    unsigned kernelColumns = 0x1Fu; ///< KernelColumn flags it reads when it loads kernels (all by default)
    /// When set, the KernelColumn flags for the given ":arg" arguments (overrides kernelColumns).
    std::function<unsigned(const QStringList& arguments)> kernelColumnsFor = {};
    /// One row per event (millions of them, made on demand): for `stats`, not for the window's Statistics pane.
    bool trace = false;

    unsigned kernelColumnsOf(const QStringList& arguments) const
    {
        return kernelColumnsFor ? kernelColumnsFor(arguments) : kernelColumns;
    }
};

const std::vector<ReportSpec>& reportSpecs();
/// Finds "name[:arg...]" (also by alias); fills @p arguments. Returns nullptr when unknown.
const ReportSpec* findReport(const QString& nameWithArguments, QStringList* arguments);

} // namespace nsw

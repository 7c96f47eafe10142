// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/csv.h"

#include <Qt>

namespace nsw {

/// Roles shared by every model (and CsvTextRole, CsvQuotingRole of core/util/csv.h): DisplayRole is formatted text,
/// SortRole the raw value (number or string) that proxies sort on and exports may use.
enum ModelRole : int
{
    SortRole = Qt::UserRole,
    /// Raw numeric value for exports (same as SortRole for numbers).
    RawValueRole,
    /// Kernel name (QString) of the row, for linked selection.
    KernelNameRole,
    /// Row identity specific to a model (group index, kernel row...).
    IdentityRole,
    /// True on a row that stays first whatever the sort and passes every filter (e.g. a totals row).
    PinnedRole,
    /// Asked of a column's horizontal header: the Qt::SortOrder its rows already have, under every parent, by this
    /// column's SortRole, ties in the order a stable sort would keep (none: unordered). SortFilterProxy then sorts
    /// that column in that order by row number (a million calls to data() less); such a model has no pinned rows.
    PresortedRole,
    FirstCustomRole = Qt::UserRole + 32,
};

} // namespace nsw

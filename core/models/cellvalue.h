// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QVariant>
#include <variant>

namespace nsw {

/// What a model gives for SortRole and RawValueRole of a cell of a result table (a ReportValue or DiagnosticsCell,
/// which are this variant): the integer, real or text it holds, an invalid QVariant for none.
inline QVariant cellValue(const std::variant<std::monostate, qint64, double, QString>& cell)
{
    if (const auto* i = std::get_if<qint64>(&cell))
        return *i;
    if (const auto* d = std::get_if<double>(&cell))
        return *d;
    if (const auto* s = std::get_if<QString>(&cell))
        return *s;
    return {};
}

} // namespace nsw

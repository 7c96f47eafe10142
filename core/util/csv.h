// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

class QAbstractItemModel;
class QIODevice;

namespace nsw {

/// RFC 4180 field: quoted (with doubled quotes) when it holds a comma, quote, CR or LF.
QString csvField(const QString& field);
/// One record without its line terminator.
QString csvRecord(const QStringList& fields);

/// Writes @p model's visible rows (top level, in view order) with a header row, as RFC 4180 CSV (CRLF line ends).
/// @p rawRole: when >= 0, numbers are taken from that role (unformatted) instead of the display text, and headers
/// from headerData(@p rawRole) when the model gives one (e.g. "Total Time (ns)").
bool writeModelCsv(const QAbstractItemModel& model, QIODevice& out, int rawRole = -1);

} // namespace nsw

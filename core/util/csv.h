// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <Qt>
#include <functional>

class QAbstractItemModel;
class QIODevice;

namespace nsw {

/// How fields are quoted. Every CSV the project writes (window and CLI) ends its lines with '\n', as nsys does.
enum class CsvQuoting
{
    Rfc4180, ///< quoted (with doubled quotes) when the field holds a comma, quote, CR or LF
    CommaOnly ///< nsys's formatter: wrapped in quotes when the field holds a comma, nothing else
};

/// Model roles the CSV writer asks for (modelroles.h gives them their names in the models' role list).
/// The cell's text exactly as the CLI prints it in CSV (e.g. "993147.0" for an nsys real); a header's text too.
constexpr int CsvTextRole = Qt::UserRole + 30;
/// headerData(0, Horizontal, CsvQuotingRole): an int CsvQuoting, when the model's CSV is not RFC 4180.
constexpr int CsvQuotingRole = Qt::UserRole + 31;

QString csvField(const QString& field, CsvQuoting quoting = CsvQuoting::Rfc4180);
/// One record without its line terminator.
QString csvRecord(const QStringList& fields, CsvQuoting quoting = CsvQuoting::Rfc4180);
/// One record with its line terminator.
QString csvLine(const QStringList& fields, CsvQuoting quoting = CsvQuoting::Rfc4180);
/// csvLine() appended to @p line, and the only place that decides how a CSV line ends. A writer that reuses one line
/// keeps its capacity, so a field megabytes long (a kernel name) is not copied into fresh allocations on every row.
void appendCsvLine(QString& line, const QStringList& fields, CsvQuoting quoting = CsvQuoting::Rfc4180);

/// The one table writer of the window and the CLI: @p model's rows (top level, in view order) under a header row.
/// A cell's text is, first found: CsvTextRole, @p rawRole (when >= 0 and not a string: an unformatted number),
/// DisplayRole. A header's: CsvTextRole, @p rawRole, DisplayRole. @p keepGoing, when given, hears (rows written, rows)
/// every few thousand rows and stops the writing (false returned) by returning false.
bool writeModelCsv(const QAbstractItemModel& model, QIODevice& out, int rawRole = -1,
    const std::function<bool(int, int)>& keepGoing = {});
/// The same into a string (what the CLI prints).
QString modelCsv(const QAbstractItemModel& model, int rawRole = -1);

} // namespace nsw

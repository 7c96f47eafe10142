// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/stats/reporttable.h"

#include <QString>
#include <nlohmann/json.hpp>

class QIODevice;

namespace nsw {

/// `nsys stats --format csv`: header row then one line per row, `\n` line ends, a field quoted only when it holds
/// a comma (as nsys does); reals as Python prints them.
QString reportToCsv(const ReportTable& report);
/// reportToCsv() written line by line to @p out (a trace report's millions of rows never in one string).
bool writeReportCsv(const ReportTable& report, QIODevice& out);
/// Human-readable aligned columns with thousands separators, cells clipped at 100 characters (nsys's "column"
/// format).
QString reportToText(const ReportTable& report);
/// reportToText() written line by line to @p out (two passes over the rows: widths, then lines).
bool writeReportText(const ReportTable& report, QIODevice& out);
/// {"report": name, "title": ..., "columns": [...], "rows": [{header: value...}...]}; reals as JSON numbers.
nlohmann::ordered_json reportToJson(const ReportTable& report);
/// reportToJson() with "rows" holding a placeholder for report @p index of a document writeJsonDocument() writes.
nlohmann::ordered_json reportJsonShell(const ReportTable& report, std::size_t index);
/// document.dump(2) and a line end, written to @p out with each placeholder of reportJsonShell(reports[i], i)
/// replaced by that report's rows, one row at a time: the same bytes as the document with reportToJson()'s.
bool writeJsonDocument(
    const nlohmann::ordered_json& document, const std::vector<const ReportTable*>& reports, QIODevice& out);

/// Text of one cell as the CSV prints it.
QString reportCellText(const ReportValue& value, const ReportColumn& column);
/// Text of one cell as the human-readable table prints it (thousands separators), before clipping.
QString reportDisplayText(const ReportValue& value, const ReportColumn& column);

} // namespace nsw

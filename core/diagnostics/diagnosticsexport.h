// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnostics.h"

#include <QByteArray>
#include <QString>
#include <map>
#include <nlohmann/json.hpp>

namespace nsw {

/// report.json: {tool, trace, focus, window, thresholds, devices, findings, skipped, metrics: {<table id>: [rows as
/// objects keyed by the table's columns]}}; stable keys, raw values (ns, bytes, percent).
nlohmann::ordered_json diagnosticsJson(const DiagnosticsResult& result);

/// What a finding costs, for people: "32.7 ms of GPU time (10.9 % of the window, GPU 1)"; empty without a GPU cost.
QString findingGpuCostText(const DiagnosticsResult& result, const Finding& finding);
/// "164 ms on python3 (144)"; empty without host time.
QString findingHostTimeText(const Finding& finding);

/// One table as CSV (RFC 4180, `\n` line ends, raw values).
QString diagnosticsTableCsv(const DiagnosticsTable& table);
/// One table for people: its title, then aligned columns, values formatted (durations, bytes, two decimals).
QString diagnosticsTableText(const DiagnosticsTable& table);
/// One table's rows as JSON objects keyed by its columns (raw values, null where empty).
nlohmann::ordered_json diagnosticsTableJson(const DiagnosticsTable& table);

/// The findings as plain text (the `findings` command): one block per finding, then what was not checked.
QString findingsText(const DiagnosticsResult& result);

/// report.md: summary, findings with evidence and recommendation, then the main tables.
QString diagnosticsMarkdown(const DiagnosticsResult& result);

/// report.html: one self-contained page (inline CSS; @p pngs, by chart id, embedded as data: URIs when given).
QString diagnosticsHtml(const DiagnosticsResult& result, const std::map<QString, QByteArray>& pngs = {});

} // namespace nsw

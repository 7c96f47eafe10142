// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <nlohmann/json.hpp>

namespace nsw {

/// The JSON of a data file compiled into the program from resources/data/ ("gpupeaks.json"): tables that are data,
/// not logic. The files ship with the build and the tests read every one, so a file that is missing or not valid
/// JSON is a broken build: it stops the program (qFatal) instead of leaving a table empty.
nlohmann::json shippedData(const QString& file);
/// A string of such a file (UTF-8) as a QString; throws, as nlohmann does, when @p value is not a string.
QString shippedText(const nlohmann::json& value);

} // namespace nsw

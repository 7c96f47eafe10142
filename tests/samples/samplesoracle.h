// SPDX-License-Identifier: GPL-3.0-or-later
// Independent SQL counts of an export's CPU samples, for the samples tests: self = samples whose depth-0 frame is
// the function, total = samples with the function at any depth, counted once per sample.
#pragma once

#include "core/profile/profile.h"
#include "core/samples/samplecounts.h"

#include <QString>
#include <map>
#include <utility>

namespace nsw {
class SampleFlatModel;
}

namespace nsw::test {

using FunctionKey = std::pair<QString, QString>; ///< (function, module) as the exports name them

struct SqlSampleCounts
{
    qint64 samples = 0;
    qint64 withoutStack = 0; ///< samples no SAMPLING_CALLCHAINS row belongs to
    std::map<FunctionKey, std::pair<qint64, qint64>> functions; ///< (self, total)
};

/// The counts of the samples COMPOSITE_EVENTS rows matching @p where (an SQL condition on alias e) hold.
SqlSampleCounts sqlSampleCounts(const QString& path, const QString& where = QStringLiteral("1"));

/// The same keyed view of what the workbench counted.
std::map<FunctionKey, std::pair<qint64, qint64>> workbenchCounts(
    const Profile& profile, const std::vector<FunctionCount>& functions);

/// What a Samples pane's Functions table shows, keyed the same way (the "[no call stack]" row left out).
std::map<FunctionKey, std::pair<qint64, qint64>> flatModelCounts(const SampleFlatModel& model);

/// Whether the export has both sampling tables.
bool hasSampleTables(const QString& path);

} // namespace nsw::test

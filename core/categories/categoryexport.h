// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorybreakdown.h"

#include <QString>
#include <nlohmann/json.hpp>
#include <vector>

namespace nsw {

/// One profile's categories, as the exports see them.
struct ProfileCategories
{
    QString profile; ///< display name
    QString path;
    std::shared_ptr<const CategoryTimeline> timeline;
    CategoryBreakdown breakdown;
};

/// gputrc2graph's x label "{model}_{engine}_{file}_{index}" (file without .sqlite / .nsys-rep).
QString modelEngineLabel(const QString& engine, const QString& model, const QString& path, int index);

/// `Profile,Category,Instances,Time (ns),Share (%)`: one row per bar and category with time or instances, then
/// the CPU (non-GPU) row; categories in rule order. With per-GPU bars the profile column names the GPU too.
QString categoriesCsv(const std::vector<ProfileCategories>& profiles);
/// Aligned text for the terminal.
QString categoriesTable(const std::vector<ProfileCategories>& profiles);
nlohmann::ordered_json categoriesJson(const std::vector<ProfileCategories>& profiles, const QString& engine,
    const QString& model, const QStringList& ruleFiles);

/// gputrc2graph's result.csv (Model_Engine, Category, Instances, Name, Elapsed Time (sec); sorted by category, then
/// by time) followed by our columns: Total Time (sec) (summed durations), Time Mode, Rule (1-based, empty when
/// none matches). "Elapsed Time (sec)" is the time in the chosen mode; with g2g it is what the script computes.
/// A CPU(non-GPU) row (Instances 1) follows each profile that has a wall time.
QString mappingCsv(const std::vector<ProfileCategories>& profiles, const QString& engine, const QString& model);

} // namespace nsw

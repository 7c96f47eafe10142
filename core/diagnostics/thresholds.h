// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"

#include <QString>
#include <QStringList>
#include <map>
#include <vector>

namespace nsw {

/// A named, documented finding threshold (`--threshold name=value`, the pane's settings).
struct ThresholdSpec
{
    QString name; ///< "gpu_idle_pct"
    double defaultValue = 0;
    QString unit; ///< "%", "ms", "us", "count", "per s"
    QString description; ///< what it decides, one sentence
};

/// The thresholds of @p group ("findings", "ranks") in resources/data/thresholds.json, in its order.
std::vector<ThresholdSpec> shippedThresholdSpecs(const char* group);
/// Every threshold the findings use, in a stable order (the group "findings").
const std::vector<ThresholdSpec>& thresholdSpecs();
const ThresholdSpec* findThresholdSpec(const QString& name);

/// Threshold values: the defaults of thresholdSpecs() unless overridden.
class Thresholds
{
public:
    /// The value of a known threshold (its default when not overridden); 0 for an unknown name.
    double value(const QString& name) const;
    /// Overrides one threshold; a Usage error naming the threshold for an unknown name or a value that is not a
    /// finite number >= 0.
    Status set(const QString& name, double value);
    /// Parses "name=value" (value a number); Usage errors name the text.
    Status parseAssignment(const QString& assignment);
    /// Only the overridden ones, by name.
    const std::map<QString, double>& overrides() const { return m_overrides; }
    /// "name=value" for the report headers, e.g. "gpu_idle_pct=10".
    QString describe(const QString& name) const;

private:
    std::map<QString, double> m_overrides;
};

} // namespace nsw

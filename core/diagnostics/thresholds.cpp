// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/thresholds.h"

#include "core/util/findby.h"
#include "core/util/shippeddata.h"

#include <cmath>

namespace nsw {

std::vector<ThresholdSpec> shippedThresholdSpecs(const char* group)
{
    const nlohmann::json data = shippedData(QStringLiteral("thresholds.json"));
    std::vector<ThresholdSpec> specs;
    for (const nlohmann::json& t : data.at(group))
        specs.push_back({ shippedText(t.at("name")), t.at("default").get<double>(), shippedText(t.at("unit")),
            shippedText(t.at("description")) });
    return specs;
}

const std::vector<ThresholdSpec>& thresholdSpecs()
{
    static const std::vector<ThresholdSpec> specs = shippedThresholdSpecs("findings");
    return specs;
}

const ThresholdSpec* findThresholdSpec(const QString& name)
{
    return findBy(thresholdSpecs(), &ThresholdSpec::name, name);
}

double Thresholds::value(const QString& name) const
{
    if (const auto it = m_overrides.find(name); it != m_overrides.end())
        return it->second;
    const ThresholdSpec* spec = findThresholdSpec(name);
    return spec ? spec->defaultValue : 0.0;
}

Status Thresholds::set(const QString& name, double value)
{
    if (!findThresholdSpec(name)) {
        QStringList names;
        for (const ThresholdSpec& s : thresholdSpecs())
            names << s.name;
        return Status::failure(ErrorKind::Usage,
            QStringLiteral("unknown threshold '%1' (known: %2)").arg(name, names.join(QStringLiteral(", "))));
    }
    if (!std::isfinite(value) || value < 0)
        return Status::failure(
            ErrorKind::Usage, QStringLiteral("threshold '%1' must be a number >= 0, not %2").arg(name).arg(value));
    m_overrides[name] = value;
    return success();
}

Status Thresholds::parseAssignment(const QString& assignment)
{
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return Status::failure(
            ErrorKind::Usage, QStringLiteral("--threshold takes name=value, not '%1'").arg(assignment));
    const QString name = assignment.left(eq).trimmed();
    const QString text = assignment.mid(eq + 1).trimmed();
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok)
        return Status::failure(
            ErrorKind::Usage, QStringLiteral("threshold '%1' must be a number, not '%2'").arg(name, text));
    return set(name, value);
}

QString Thresholds::describe(const QString& name) const
{
    return QStringLiteral("%1=%2").arg(name).arg(value(name));
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparesettings.h"

#include "core/controllers/categorycontroller.h"
#include "core/session/profilesession.h"

#include <QSettings>

namespace nsw {

namespace {
const QString kSettingsGroup = QStringLiteral("compare/");
} // namespace

bool savedNormalizeNames(CompareBy by)
{
    // Runs number their NVTX ranges differently (op_id = 12345), so unnormalized paths rarely match between two
    // profiles.
    const QSettings settings;
    const QString key = kSettingsGroup + QStringLiteral("normalizeNames/") + compareByName(by);
    if (settings.contains(key))
        return settings.value(key).toBool();
    if (by == CompareBy::Kernel) // saved before the setting was per key kind
        return settings.value(kSettingsGroup + QStringLiteral("normalizeNames"), false).toBool();
    return by == CompareBy::Nvtx;
}

CompareController::Settings savedCompareSettings()
{
    const QSettings settings;
    CompareController::Settings s;
    s.by = CompareBy(settings.value(kSettingsGroup + QStringLiteral("by"), int(CompareBy::Kernel)).toInt());
    s.kernelNames = KernelNameMode(settings.value(kSettingsGroup + QStringLiteral("names"), 0).toInt());
    s.normalizeNames = savedNormalizeNames(s.by);
    s.normalization = CompareNormalization(settings.value(kSettingsGroup + QStringLiteral("per"), 0).toInt());
    s.marker = settings.value(kSettingsGroup + QStringLiteral("marker")).toString();
    s.thresholdPercent = settings.value(kSettingsGroup + QStringLiteral("threshold"), 5.0).toDouble();
    s.noiseFloorNs = settings.value(kSettingsGroup + QStringLiteral("noiseFloorNs"), 1000.0).toDouble();
    if (s.normalization == CompareNormalization::PerIteration && s.marker.isEmpty())
        s.normalization = CompareNormalization::None;
    return s;
}

void saveCompareSettings(const CompareController::Settings& s, bool normalizationEdited)
{
    QSettings settings;
    settings.setValue(kSettingsGroup + QStringLiteral("by"), int(s.by));
    settings.setValue(kSettingsGroup + QStringLiteral("names"), int(s.kernelNames));
    if (normalizationEdited)
        settings.setValue(kSettingsGroup + QStringLiteral("normalizeNames/") + compareByName(s.by), s.normalizeNames);
    settings.setValue(kSettingsGroup + QStringLiteral("per"), int(s.normalization));
    settings.setValue(kSettingsGroup + QStringLiteral("marker"), s.marker);
    settings.setValue(kSettingsGroup + QStringLiteral("threshold"), s.thresholdPercent);
    settings.setValue(kSettingsGroup + QStringLiteral("noiseFloorNs"), s.noiseFloorNs);
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cachesettings.h"

#include "core/util/coresettings.h"

#include <QStandardPaths>

namespace nsw {

CacheSettings CacheSettings::fromEnvironment()
{
    CacheSettings settings;
    settings.profiles = true;
    settings.root = qEnvironmentVariable("NSYS_WORKBENCH_CACHE_DIR");
    if (settings.root.isEmpty())
        settings.root = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation)
            + QStringLiteral("/nsys-workbench");
    bool ok = false;
    const qint64 megabytes = qEnvironmentVariable("NSYS_WORKBENCH_CACHE_MAX_MB").toLongLong(&ok);
    if (ok && megabytes >= 0)
        settings.limitBytes = megabytes << 20;
    else if (const qint64 configured = coreSettings().cacheLimitBytes; configured > 0)
        settings.limitBytes = configured;
    return settings;
}

} // namespace nsw

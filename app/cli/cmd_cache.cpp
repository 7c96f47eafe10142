// SPDX-License-Identifier: GPL-3.0-or-later
// nsys-workbench cache list|clear: the entries of the profile cache and of the .nsys-rep export cache.
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/profilecache/profilecodec.h"
#include "core/util/cachestore.h"
#include "core/util/timeformat.h"

#include <QCommandLineParser>
#include <QDir>
#include <nlohmann/json.hpp>

namespace nsw::cli {

namespace {

using Json = nlohmann::ordered_json;

/// What an entry was made from: a cached profile's export and load options, or a report's export.
QString sourceOf(const CacheEntry& e)
{
    if (e.kind == CacheEntry::Kind::Export) {
        const QStringList files = QDir(e.path).entryList({ QStringLiteral("*.sqlite") }, QDir::Files);
        return files.isEmpty() ? QStringLiteral("(no export)") : files.join(QStringLiteral(", "));
    }
    const Result<ProfileCacheKey> key = readProfileCacheKey(e.path);
    if (!key)
        return QStringLiteral("(unusable: %1)").arg(key.errorMessage());
    QString source = key->identity.canonicalPath;
    if (key->parts != LoadEverything || key->kernelColumns != KernelAllColumns)
        source
            += QStringLiteral(" (parts %1, kernel columns %2)").arg(key->parts, 0, 16).arg(key->kernelColumns, 0, 16);
    return source;
}

QString kindName(CacheEntry::Kind kind)
{
    return kind == CacheEntry::Kind::Export ? QStringLiteral("export") : QStringLiteral("profile");
}

int list(bool json)
{
    const CacheSettings& settings = cacheSettings();
    std::vector<CacheEntry> entries = listCacheEntries(settings);
    std::reverse(entries.begin(), entries.end()); // most recently used first
    qint64 total = 0;
    for (const CacheEntry& e : entries)
        total += e.bytes;
    if (json) {
        Json j;
        j["root"] = settings.root.toStdString();
        j["limit_bytes"] = settings.limitBytes;
        j["total_bytes"] = total;
        Json list = Json::array();
        for (const CacheEntry& e : entries)
            list.push_back({ { "kind", kindName(e.kind).toStdString() }, { "path", e.path.toStdString() },
                { "bytes", e.bytes }, { "last_used", e.lastUsed.toString(Qt::ISODate).toStdString() },
                { "source", sourceOf(e).toStdString() } });
        j["entries"] = std::move(list);
        writeStdout(QString::fromStdString(j.dump(2)) + QLatin1Char('\n'));
        return ExitOk;
    }
    QString text = QStringLiteral("Cache %1: %2 in %3 entries (limit %4)\n")
                       .arg(QDir::toNativeSeparators(settings.root), formatBytes(total))
                       .arg(entries.size())
                       .arg(formatBytes(settings.limitBytes));
    for (const CacheEntry& e : entries)
        text += QStringLiteral("  %1  %2  %3  %4\n")
                    .arg(kindName(e.kind).leftJustified(7), formatBytes(e.bytes).rightJustified(10),
                        e.lastUsed.toString(QStringLiteral("yyyy-MM-dd hh:mm")), sourceOf(e));
    writeStdout(text);
    return ExitOk;
}

} // namespace

int runCache(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("action"),
        QStringLiteral("list: every entry, most recently used first; clear: remove them all"),
        QStringLiteral("list|clear"));
    const QCommandLineOption format
        = option("format", QStringLiteral("list as text (default) or json."), "text|json", "text");
    parser.addOption(format);
    int exitCode = ExitOk;
    if (!parseArguments(parser, args, commandHelp("cache"), &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1
        || !checkFormat(parser.value(format), { QStringLiteral("text"), QStringLiteral("json") })) {
        if (positional.size() != 1)
            printError(QStringLiteral("cache: give one action, list or clear"));
        return ExitUsage;
    }
    if (positional.first() == QLatin1String("list"))
        return list(parser.value(format) == QLatin1String("json"));
    if (positional.first() == QLatin1String("clear")) {
        const std::size_t entries = listCacheEntries(cacheSettings()).size();
        const qint64 freed = clearCaches(cacheSettings());
        writeStdout(QStringLiteral("Removed %1 entries (%2) from %3\n")
                        .arg(entries)
                        .arg(formatBytes(freed), QDir::toNativeSeparators(cacheSettings().root)));
        return ExitOk;
    }
    printError(QStringLiteral("cache: unknown action '%1' (list or clear)").arg(positional.first()));
    return ExitUsage;
}

} // namespace nsw::cli

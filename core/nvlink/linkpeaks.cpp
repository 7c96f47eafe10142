// SPDX-License-Identifier: GPL-3.0-or-later
#include "linkpeaks.h"

#include "core/util/userfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <nlohmann/json.hpp>

namespace nsw {

LinkPeakTable LinkPeakTable::defaults()
{
    LinkPeakTable t;
    t.m_entries = {
        { QStringLiteral("A800"), 8, 25.0 },
        { QStringLiteral("H800"), 8, 25.0 },
        { QStringLiteral("GB200"), 18, 50.0 },
        { QStringLiteral("B200"), 18, 50.0 },
        { QStringLiteral("B100"), 18, 50.0 },
        { QStringLiteral("GB100"), 18, 50.0 },
        { QStringLiteral("H100"), 18, 25.0 },
        { QStringLiteral("H200"), 18, 25.0 },
        { QStringLiteral("H20"), 18, 25.0 },
        { QStringLiteral("GH100"), 18, 25.0 },
        { QStringLiteral("A100"), 12, 25.0 },
        { QStringLiteral("GA100"), 12, 25.0 },
        { QStringLiteral("V100"), 6, 25.0 },
        { QStringLiteral("GV100"), 6, 25.0 },
        { QStringLiteral("P100"), 4, 20.0 },
        { QStringLiteral("GP100"), 4, 20.0 },
    };
    return t;
}

QString LinkPeakTable::configPath()
{
    // Not AppConfigLocation: the headless CLI and the window set different organisation names.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
        .filePath(QStringLiteral("nsys-workbench/nvlink-link-peaks.json"));
}

LinkPeakTable LinkPeakTable::load(QString* warning)
{
    const QString path = configPath();
    if (!QFileInfo::exists(path))
        return defaults();
    QString error;
    const std::optional<QByteArray> bytes = readUserFile(path, &error);
    LinkPeakTable t;
    if (!bytes || !fromJson(*bytes, t, &error)) {
        if (warning)
            *warning = QStringLiteral("%1: %2; using the built-in table").arg(path, error);
        return defaults();
    }
    return t;
}

QByteArray LinkPeakTable::toJson() const
{
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const LinkPeakEntry& e : m_entries)
        entries.push_back({ { "pattern", e.pattern.toStdString() }, { "links", e.links },
            { "gbps_per_link_per_direction", e.gbpsPerLink } });
    const nlohmann::ordered_json doc = { { "version", 1 }, { "gpus", entries } };
    return QByteArray::fromStdString(doc.dump(2) + "\n");
}

bool LinkPeakTable::fromJson(const QByteArray& json, LinkPeakTable& out, QString* error)
{
    auto fail = [error](const QString& what) {
        if (error)
            *error = what;
        return false;
    };
    const auto doc = nlohmann::json::parse(json.constData(), json.constData() + json.size(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return fail(QStringLiteral("not a JSON object"));
    const auto gpus = doc.find("gpus");
    if (gpus == doc.end() || !gpus->is_array())
        return fail(QStringLiteral("no \"gpus\" array"));
    std::vector<LinkPeakEntry> entries;
    for (const auto& g : *gpus) {
        if (!g.is_object() || !g.contains("pattern") || !g["pattern"].is_string() || !g.contains("links")
            || !g["links"].is_number_integer() || !g.contains("gbps_per_link_per_direction")
            || !g["gbps_per_link_per_direction"].is_number())
            return fail(QStringLiteral("each GPU needs \"pattern\", \"links\" and \"gbps_per_link_per_direction\""));
        LinkPeakEntry e;
        e.pattern = QString::fromStdString(g["pattern"].get<std::string>()).trimmed();
        e.links = g["links"].get<int>();
        e.gbpsPerLink = g["gbps_per_link_per_direction"].get<double>();
        if (e.pattern.isEmpty() || e.links <= 0 || !(e.gbpsPerLink > 0))
            return fail(
                QStringLiteral("GPU '%1': pattern, links and bandwidth must be set and positive").arg(e.pattern));
        entries.push_back(e);
    }
    out.m_entries = std::move(entries);
    return true;
}

QString LinkPeakTable::save(const QString& path) const
{
    const QString target = path.isEmpty() ? configPath() : path;
    QDir().mkpath(QFileInfo(target).absolutePath());
    QSaveFile file(target);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(target, file.errorString());
    file.write(toJson());
    if (!file.commit())
        return QStringLiteral("%1: %2").arg(target, file.errorString());
    return {};
}

const LinkPeakEntry* LinkPeakTable::match(const QString& gpuName) const
{
    for (const LinkPeakEntry& e : m_entries)
        if (!e.pattern.isEmpty() && gpuName.contains(e.pattern, Qt::CaseInsensitive))
            return &e;
    return nullptr;
}

} // namespace nsw

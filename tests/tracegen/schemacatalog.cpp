// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemacatalog.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <map>
#include <memory>
#include <mutex>

namespace nsw::tracegen {

namespace {

const QString kResourceDir = QStringLiteral(":/nsw/tracegen/schemas");

QList<MetaRow> metaRows(const QJsonValue& v)
{
    QList<MetaRow> out;
    for (const QJsonValue& r : v.toArray()) {
        const QJsonArray a = r.toArray();
        out.append({ a.at(0).toString(), a.at(1).toString() });
    }
    return out;
}

std::unique_ptr<VersionSchema> load(const QString& version)
{
    QFile f(kResourceDir + QLatin1Char('/') + version + QStringLiteral(".json"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    auto s = std::make_unique<VersionSchema>();
    s->version = o.value(QLatin1String("version")).toString();
    s->sourceFile = o.value(QLatin1String("sourceFile")).toString();
    s->productVersion = o.value(QLatin1String("productVersion")).toString();
    s->schemaVersion = o.value(QLatin1String("schemaVersion")).toString();
    const QJsonObject meta = o.value(QLatin1String("exportMeta")).toObject();
    s->exportMetaTable = meta.value(QLatin1String("table")).toString();
    s->exportMeta = metaRows(meta.value(QLatin1String("rows")));
    s->captureMeta = metaRows(o.value(QLatin1String("captureMeta")));
    for (const QJsonValue& r : o.value(QLatin1String("systemEnv")).toArray())
        s->systemEnv.append({ r.toArray().at(0).toString(), r.toArray().at(1).toInt() });
    for (const QJsonValue& tv : o.value(QLatin1String("tables")).toArray()) {
        const QJsonObject t = tv.toObject();
        TableSchema ts;
        ts.name = t.value(QLatin1String("name")).toString();
        ts.origin = t.value(QLatin1String("origin")).toString();
        ts.note = t.value(QLatin1String("note")).toString();
        ts.sql = t.value(QLatin1String("sql")).toString();
        for (const QJsonValue& cv : t.value(QLatin1String("columns")).toArray()) {
            const QJsonArray c = cv.toArray();
            ts.columns.append({ c.at(0).toString(), c.at(1).toString(), c.at(2).toBool(), c.at(3).toInt() });
        }
        for (const QJsonValue& rv : t.value(QLatin1String("rows")).toArray())
            ts.rows.append(rv.toArray().toVariantList());
        s->tables.append(std::move(ts));
    }
    return s;
}

} // namespace

int TableSchema::columnIndex(QStringView column) const
{
    for (qsizetype i = 0; i < columns.size(); ++i) {
        if (columns.at(i).name == column)
            return int(i);
    }
    return -1;
}

const TableSchema* VersionSchema::table(QStringView name) const
{
    for (const TableSchema& t : tables) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

int SchemaCatalog::compareVersions(QStringView a, QStringView b)
{
    auto key = [](QStringView v) {
        const qsizetype dot = v.indexOf(QLatin1Char('.'));
        const int major = v.left(dot < 0 ? v.size() : dot).toInt();
        const int minor = dot < 0 ? 0 : v.mid(dot + 1).toInt();
        return std::pair(major, minor);
    };
    const auto ka = key(a), kb = key(b);
    return ka < kb ? -1 : (kb < ka ? 1 : 0);
}

QStringList SchemaCatalog::versions()
{
    QStringList out;
    for (const QString& f : QDir(kResourceDir).entryList({ QStringLiteral("*.json") }, QDir::Files))
        out.append(f.chopped(5));
    std::sort(out.begin(), out.end(), [](const QString& a, const QString& b) { return compareVersions(a, b) < 0; });
    return out;
}

const VersionSchema* SchemaCatalog::find(const QString& version)
{
    static std::mutex mutex;
    static std::map<QString, std::unique_ptr<VersionSchema>> cache;
    const std::lock_guard lock(mutex);
    auto it = cache.find(version);
    if (it == cache.end())
        it = cache.emplace(version, load(version)).first;
    return it->second.get();
}

} // namespace nsw::tracegen

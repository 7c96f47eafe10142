// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariantList>

namespace nsw::tracegen {

struct ColumnSchema
{
    QString name;
    QString type; // as PRAGMA table_info reports it
    bool notNull = false;
    int pk = 0;
};

struct TableSchema
{
    QString name;
    // "real": taken from the version's real export; "derived": from another version's table, see note;
    // "documented": from NVIDIA's schema reference (no real file has it).
    QString origin;
    QString note;
    QString sql; // CREATE TABLE text exactly as nsys writes it
    QList<ColumnSchema> columns;
    QList<QVariantList> rows; // fixed content (ENUM_* tables)

    int columnIndex(QStringView column) const;
    bool isReal() const { return origin == QLatin1String("real"); }
};

struct MetaRow
{
    QString name;
    QString value; // may hold ${TOKEN} placeholders filled in by writeSessionTables()
};

struct SystemEnvKey
{
    QString name;
    int nameEnum = 0;
};

/// Everything nsw_tracegen knows about one nsys version's export, extracted from a real export of that version by
/// tools/extract_schemas.py and compiled in as a resource.
struct VersionSchema
{
    QString version;
    QString sourceFile;
    QString productVersion;
    QString schemaVersion;
    QString exportMetaTable; // "", "EXPORT_META_DATA" or "META_DATA_EXPORT"
    QList<MetaRow> exportMeta;
    QList<MetaRow> captureMeta;
    QList<SystemEnvKey> systemEnv;
    QList<TableSchema> tables;

    const TableSchema* table(QStringView name) const;
};

class SchemaCatalog
{
public:
    /// Supported versions, oldest first ("2021", "2022.1", ...).
    static QStringList versions();
    /// nullptr when the version is unknown. The returned object lives for the whole program.
    static const VersionSchema* find(const QString& version);
    /// -1/0/1 comparing "2022.4" style versions numerically.
    static int compareVersions(QStringView a, QStringView b);
};

} // namespace nsw::tracegen

// SPDX-License-Identifier: GPL-3.0-or-later
#include "oracleexports.h"

#include "generator.h"
#include "schemacatalog.h"
#include "testutils.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <memory>
#include <mutex>

namespace nsw::test {

namespace {

struct GeneratedSet
{
    QTemporaryDir dir;
    std::map<QString, QString> byVersion;
    std::map<QString, QString> labels;
    QString pairBefore, pairAfter;
};

QString generate(const QTemporaryDir& dir, tracegen::GeneratorConfig c, const QString& name)
{
    c.outPath = dir.filePath(name);
    tracegen::generateExport(c);
    return c.outPath;
}

const GeneratedSet& generatedSet()
{
    static std::once_flag once;
    static std::unique_ptr<GeneratedSet> set;
    std::call_once(once, [] {
        set = std::make_unique<GeneratedSet>();
        int i = 0;
        for (const QString& version : tracegen::SchemaCatalog::versions()) {
            tracegen::GeneratorConfig c;
            c.schemaVersion = version;
            c.workload = i++ % 2 ? tracegen::Workload::Training : tracegen::Workload::LlmInference;
            c.kernels = 3000;
            c.gpus = 2;
            c.layers = 4;
            c.seed = quint64(i);
            c.cudaGraphs = c.workload == tracegen::Workload::LlmInference && i % 4 == 1;
            c.hpcActivity = true; // unified memory, OpenMP and OpenACC tables for the nsys stats reports that read them
            c.cpuSamples = 4000; // written where the version has the sampling tables (2022.1 on)
            set->byVersion[version] = generate(set->dir, c, QStringLiteral("generated-%1.sqlite").arg(version));
            set->labels[version] = QStringLiteral("generated %1 %2")
                                       .arg(version,
                                           c.workload == tracegen::Workload::Training ? QStringLiteral("training")
                                                                                      : QStringLiteral("inference"));
        }
        tracegen::GeneratorConfig pair;
        pair.workload = tracegen::Workload::Training;
        pair.kernels = 4000;
        pair.seed = 101;
        set->pairBefore = generate(set->dir, pair, QStringLiteral("pair-before.sqlite"));
        pair.kernels = 3600;
        pair.seed = 102;
        set->pairAfter = generate(set->dir, pair, QStringLiteral("pair-after.sqlite"));
    });
    return *set;
}

} // namespace

qsizetype realOracleExportCount()
{
    const QString shared = QFileInfo(sharedTracesDir()).canonicalFilePath();
    qsizetype real = 0;
    for (const OracleExport& e : oracleExports())
        real += !shared.isEmpty() && QFileInfo(e.path).canonicalFilePath().startsWith(shared) ? 1 : 0;
    return real;
}

QString generatedExport(const QString& schemaVersion)
{
    const GeneratedSet& set = generatedSet();
    const auto it = set.byVersion.find(schemaVersion);
    return it == set.byVersion.end() ? QString() : it->second;
}

namespace {
QString realOr(const QString& fileName, const QString& generated)
{
    const QString real = sharedTracesDir() + QLatin1Char('/') + fileName;
    return !sharedTracesDir().isEmpty() && QFileInfo::exists(real) ? real : generated;
}
} // namespace

QString pairBefore()
{
    return realOr(QStringLiteral("nsys2026.2_h100x2_mfu_before_nccl.sqlite"), generatedSet().pairBefore);
}

QString pairAfter()
{
    return realOr(QStringLiteral("nsys2026.2_h100x2_mfu_after_nccl.sqlite"), generatedSet().pairAfter);
}

QString demoExport()
{
    return QStringLiteral(NSW_SOURCE_DIR "/resources/demo/demo-llm-inference.sqlite");
}

QList<OracleExport> oracleExports()
{
    QList<OracleExport> out;
    const GeneratedSet& set = generatedSet();
    for (const auto& [version, path] : set.byVersion)
        out.append({ set.labels.at(version), path });
    out.append({ QStringLiteral("demo"), demoExport() });
    for (const QString& real : sharedTraces())
        out.append({ QFileInfo(real).fileName(), real });
    return out;
}

} // namespace nsw::test

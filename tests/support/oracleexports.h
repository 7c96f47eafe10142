// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QStandardPaths>
#include <QString>

namespace nsw::test {

/// One export an SQL-oracle test checks the project against.
struct OracleExport
{
    QString label; ///< test row name: "generated 2022.1 training", "demo", or the real file's name
    QString path;
};

/// Every export an SQL-oracle test runs on: one export made by the project's generator for every schema version it
/// knows (alternating inference and training workloads, generated once per test process), the demo, and the real
/// exports in ../shared/traces when present. So a clean clone without ../shared still runs every oracle.
QList<OracleExport> oracleExports();

/// How many of oracleExports() are real exports from ../shared/traces.
qsizetype realOracleExportCount();

/// The generated export for @p schemaVersion (as in oracleExports()).
QString generatedExport(const QString& schemaVersion);

/// A before/after pair of two-GPU training exports with NCCL: the real nsys2026.2_h100x2_mfu_{before,after}_nccl
/// exports when ../shared/traces has them, otherwise two generated ones (same workload, different seeds and lengths).
QString pairBefore();
QString pairAfter();

/// The demo profile shipped in resources/demo.
QString demoExport();

/// True when the environment says ../shared/traces must be there (NSW_REQUIRE_SHARED_TRACES=1, set by .ci/run):
/// a test that needs a real export then fails instead of skipping.
bool sharedTracesRequired();

} // namespace nsw::test

/// Skips the current test with @p message, or fails it when ../shared/traces is required.
#define NSW_SKIP_WITHOUT_SHARED_TRACES(message)                                                                        \
    do {                                                                                                               \
        if (nsw::test::sharedTracesRequired())                                                                         \
            QFAIL("NSW_REQUIRE_SHARED_TRACES is set but ../shared/traces is missing: " message);                       \
        QSKIP(message);                                                                                                \
    } while (false)

/// Sets @p path to the nsys on PATH; skips the current test with @p message when there is none, or fails it when the
/// environment says nsys must be there (NSW_REQUIRE_NSYS=1).
#define NSW_FIND_NSYS_OR_SKIP(path, message)                                                                           \
    do {                                                                                                               \
        path = QStandardPaths::findExecutable(QStringLiteral("nsys"));                                                 \
        if (path.isEmpty()) {                                                                                          \
            if (qEnvironmentVariableIntValue("NSW_REQUIRE_NSYS") == 1)                                                 \
                QFAIL("NSW_REQUIRE_NSYS is set but nsys is not on PATH");                                              \
            QSKIP(message);                                                                                            \
        }                                                                                                              \
    } while (false)

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
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

} // namespace nsw::test

namespace nsw::test {
inline QByteArray skipReason(const char* message)
{
    return QByteArray(message);
}
inline QByteArray skipReason(const QString& message)
{
    return message.toUtf8();
}
} // namespace nsw::test

/// Skips the current test with @p message (text or QString), or fails it when the environment variable @p required
/// is 1: CI sets NSW_REQUIRE_NSYS and NSW_REQUIRE_SHARED_TRACES (.ci/run), since it installs what those tests need.
#define NSW_SKIP_UNLESS_REQUIRED(required, message)                                                                    \
    do {                                                                                                               \
        const QByteArray nswSkipReason = nsw::test::skipReason(message);                                               \
        if (qEnvironmentVariableIntValue(required) == 1)                                                               \
            QFAIL(QByteArray(required " is set: " + nswSkipReason).constData());                                       \
        QSKIP(nswSkipReason.constData());                                                                              \
    } while (false)

/// Skips the current test with @p message, or fails it when ../shared/traces is required.
#define NSW_SKIP_WITHOUT_SHARED_TRACES(message) NSW_SKIP_UNLESS_REQUIRED("NSW_REQUIRE_SHARED_TRACES", message)

/// Sets @p path to the nsys on PATH; skips the current test with @p message when there is none, or fails it when the
/// environment says nsys must be there (NSW_REQUIRE_NSYS=1).
#define NSW_FIND_NSYS_OR_SKIP(path, message)                                                                           \
    do {                                                                                                               \
        path = QStandardPaths::findExecutable(QStringLiteral("nsys"));                                                 \
        if (path.isEmpty())                                                                                            \
            NSW_SKIP_UNLESS_REQUIRED("NSW_REQUIRE_NSYS", "nsys is not on PATH: " message);                            \
    } while (false)

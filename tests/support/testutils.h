// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractItemModel>
#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QStringList>

namespace nsw::test {

/// Walks any model into indented lines "a | b | c" (column texts of DisplayRole) for QCOMPARE against an
/// expected tree.
QStringList printModel(const QAbstractItemModel& model, const QModelIndex& parent = {}, int depth = 0);

/// The real exports in ../shared/traces when present (empty when absent: callers QSKIP and say so).
QString sharedTracesDir();
/// The project's source folder (the tests read shipped files from it).
QString sourceDir();
QStringList sharedTraces();

/// @p value rounded half away from zero at one decimal on its exact binary value, as nsys's reports round (SQLite's
/// round() since 3.43; Debian 12's SQLite 3.40 adds 0.05 in long double first, so 982079.85 - stored as
/// 982079.849999... - reads .9 there): SQL oracles fetch unrounded values and round them here.
QString roundedText(double value);

/// SHA-256 of a file's bytes.
QByteArray fileHash(const QString& path);
/// Names (with sizes) of every entry of a folder, for "nothing was created next to the trace" checks.
QStringList folderListing(const QString& folder);

} // namespace nsw::test

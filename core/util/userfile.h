// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

namespace nsw {

/// Rule files, phase maps and settings files are a few KB; a bigger one is not one of them.
inline constexpr qint64 kMaxUserFileBytes = qint64(16) << 20;

/// The whole of a small file the user names (a rule file, a phase map), or nullopt with @p reason set to why not
/// (without the path: callers name the file their own way). Refuses what is not a regular file before opening it
/// (opening a FIFO blocks until a writer comes, a device never ends) and a file over @p maxBytes, and never reads more
/// than @p maxBytes + 1 bytes (a file that grows while it is read is refused too).
std::optional<QByteArray> readUserFile(const QString& path, QString* reason, qint64 maxBytes = kMaxUserFileBytes);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace nsw {

/// The "Name:  N kB" field @p name of a /proc/<pid>/status text in KiB, or -1 when the text has no such field.
qint64 procStatusFieldKiB(const QByteArray& status, const QByteArray& name);

/// The field @p name of this process's /proc/self/status in KiB (VmHWM: the peak resident memory; RssAnon,
/// RssFile: what it holds now), or -1 when it cannot be read.
qint64 procStatusKiB(const QByteArray& name);

} // namespace nsw

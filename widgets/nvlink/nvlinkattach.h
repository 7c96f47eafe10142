// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/tracefolder.h"

#include <QStringList>
#include <functional>

class QWidget;

namespace nsw {

class ProfileSession;

/// Reads NVF1 recordings off the GUI thread and adds them to @p session's "nvlink" attachment (a recording already
/// attached is replaced). @p done gets the errors and the warnings (a recording that does not overlap the capture),
/// each naming its file; without it they are shown in a message box over @p parent.
void attachNvlinkRecordings(ProfileSession* session, std::vector<RecordingChoice> recordings, QWidget* parent,
    std::function<void(const QStringList& errors, const QStringList& warnings)> done = {});

/// Asks for .bin files and their GPUs, then attaches them.
void attachNvlinkRecordingInteractively(ProfileSession* session, QWidget* parent);

/// What opening a trace folder means once NVF1 recordings are in it: one export plus the recordings.
struct TraceFolderPlan
{
    enum Outcome
    {
        NoRecordings, ///< open the folder's exports as usual
        Cancelled,
        Ready
    };
    Outcome outcome = NoRecordings;
    QString exportPath;
    std::vector<RecordingChoice> recordings;
};

/// Deterministic choice (defaultExport, defaultRecordingChoices); a dialog only when it is ambiguous.
TraceFolderPlan planTraceFolder(const QString& folder, QWidget* parent);

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"

#include <QObject>
#include <QString>
#include <functional>
#include <map>

class QAbstractItemModel;
class QIODevice;
class QWidget;

namespace nsw {

/// Writes one export off the GUI thread into @p out (a QSaveFile) with progress and cancel through @p job; it reads
/// only what it owns or shares immutably. Returns an error message, or "" when written.
using ExportWriter = std::function<QString(QIODevice& out, const JobContext& job)>;
/// Any other long step of an export (a report folder): the same without a file.
using ExportWork = std::function<QString(const JobContext& job)>;

/// The window's exports (CSV, PNG, report folder), each off the GUI thread with a row in the window's progress strip
/// (taskStarted... taskEnded: its progress and Cancel). A file appears under its name only once complete: it is
/// written to a temporary file renamed at the end (QSaveFile), so a cancelled or failed export leaves nothing.
class BackgroundExports : public QObject
{
    Q_OBJECT
public:
    explicit BackgroundExports(QObject* parent = nullptr);
    ~BackgroundExports() override;
    /// Writes @p fileName with @p writer; @p done (on the GUI thread) gets "" or why it was not written.
    void writeFile(const QString& title, const QString& fileName, ExportWriter writer,
        std::function<void(const QString& error)> done = {});
    void run(const QString& title, const QString& target, ExportWork work,
        std::function<void(const QString& error)> done = {});
    void cancel(int task);
    int running() const { return int(m_tokens.size()); }

    /// The runner of @p widget's window (the main window makes one), or a process-wide one without a strip.
    static BackgroundExports* of(const QWidget* widget);

Q_SIGNALS:
    void taskStarted(int task, const QString& title, const QString& target);
    void taskProgress(int task, int permille, const QString& stage);
    void taskEnded(int task, const QString& title, const QString& target, const QString& error);

private:
    int m_next = 0;
    std::map<int, CancelToken> m_tokens;
};

/// What writeModelCsv(@p model, RawValueRole) writes (the CLI's CSV), as an ExportWriter: a model that can hand over
/// a snapshot of itself (CsvSnapshotSource: millions of rows) is written from it off the GUI thread; any other is
/// written to memory now (small tables) and the bytes in the background.
ExportWriter csvWriter(const QAbstractItemModel& model);

} // namespace nsw

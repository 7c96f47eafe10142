// SPDX-License-Identifier: GPL-3.0-or-later
#include "backgroundexport.h"

#include "core/jobs/handoff.h"
#include "core/jobs/mainthreadcall.h"
#include "core/models/csvsnapshot.h"
#include "core/models/modelroles.h"

#include <QPointer>
#include <QSaveFile>
#include <QWidget>
#include <atomic>
#include <memory>

namespace nsw {

BackgroundExports::BackgroundExports(QObject* parent)
    : QObject(parent)
{
    setObjectName(QStringLiteral("backgroundExports"));
}

BackgroundExports::~BackgroundExports()
{
    for (auto& [task, token] : m_tokens)
        token.cancel();
}

BackgroundExports* BackgroundExports::of(const QWidget* widget)
{
    if (widget)
        if (auto* runner = widget->window()->findChild<BackgroundExports*>(
                QStringLiteral("backgroundExports"), Qt::FindDirectChildrenOnly))
            return runner;
    static BackgroundExports* detached = new BackgroundExports; // panes shown without the window (tests)
    return detached;
}

void BackgroundExports::cancel(int task)
{
    if (const auto it = m_tokens.find(task); it != m_tokens.end())
        it->second.cancel();
}

void BackgroundExports::run(
    const QString& title, const QString& target, ExportWork work, std::function<void(const QString&)> done)
{
    const int task = ++m_next;
    const CancelToken token;
    m_tokens.emplace(task, token);
    Q_EMIT taskStarted(task, title, target);
    QPointer<BackgroundExports> self(this);
    // Progress at most every 100 ms: the strip need not hear more.
    auto last = std::make_shared<std::atomic<qint64>>(-1);
    const JobContext job(token, [self, task, last](const Progress& p) {
        const qint64 permille = qint64(std::clamp(p.fraction, 0.0, 1.0) * 1000);
        if (last->exchange(permille) == permille)
            return;
        postToMainThread([self, task, permille, stage = p.stage]() {
            if (self)
                Q_EMIT self->taskProgress(task, int(permille), stage);
        });
    });
    startInPool([self, task, job, title, target, work = std::move(work), done = std::move(done)]() {
        QString error = job.isCancelled() ? QStringLiteral("cancelled") : work(job);
        if (error.isEmpty() && job.isCancelled())
            error = QStringLiteral("cancelled");
        postToMainThread([self, task, title, target, error, done]() {
            if (self) {
                self->m_tokens.erase(task);
                Q_EMIT self->taskEnded(task, title, target, error);
            }
            if (done)
                done(error);
        });
    });
}

void BackgroundExports::writeFile(
    const QString& title, const QString& fileName, ExportWriter writer, std::function<void(const QString&)> done)
{
    run(
        title, fileName,
        [fileName, writer = std::move(writer)](const JobContext& job) -> QString {
            QSaveFile file(fileName);
            if (!file.open(QIODevice::WriteOnly))
                return QStringLiteral("%1: %2").arg(fileName, file.errorString());
            const QString error = writer(file, job);
            if (!error.isEmpty() || job.isCancelled()) {
                file.cancelWriting();
                return error.isEmpty() ? QStringLiteral("cancelled") : error;
            }
            if (!file.commit())
                return QStringLiteral("%1: %2").arg(fileName, file.errorString());
            return {};
        },
        std::move(done));
}

ExportWriter csvWriter(const QAbstractItemModel& model)
{
    if (const auto* source = dynamic_cast<const CsvSnapshotSource*>(&model)) {
        std::shared_ptr<QAbstractItemModel> snapshot = source->csvSnapshot();
        return [snapshot](QIODevice& out, const JobContext& job) -> QString {
            const bool written = writeModelCsv(*snapshot, out, RawValueRole, [&](int done, int rows) {
                job.report(QStringLiteral("Writing rows"), rows > 0 ? double(done) / rows : 0.0);
                return !job.isCancelled();
            });
            return written || job.isCancelled() ? QString() : out.errorString();
        };
    }
    const QByteArray bytes = modelCsv(model, RawValueRole).toUtf8();
    return [bytes](QIODevice& out, const JobContext&) -> QString {
        return out.write(bytes) == bytes.size() ? QString() : out.errorString();
    };
}

} // namespace nsw

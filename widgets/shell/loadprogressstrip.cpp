// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadprogressstrip.h"

#include "core/session/loadjob.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <memory>

namespace nsw {

namespace {
QString elapsedText(qint64 ms)
{
    const qint64 s = ms / 1000;
    return s < 60 ? QObject::tr("%1 s").arg(s) : QObject::tr("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

/// A label that never asks for the width of its whole text (a long path must not widen the window).
QLabel* shrinkableLabel(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    label->setMinimumWidth(60);
    return label;
}
} // namespace

LoadProgressStrip::LoadProgressStrip(QWidget* parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this))
    , m_clock(new QTimer(this))
{
    m_layout->setContentsMargins(6, 2, 6, 2);
    m_layout->setSpacing(2);
    m_clock->setInterval(1000);
    connect(m_clock, &QTimer::timeout, this, &LoadProgressStrip::updateElapsed);
}

LoadProgressStrip::Row LoadProgressStrip::makeRowWidgets(const QString& title, const QString& toolTip)
{
    Row row;
    row.widget = new QWidget(this);
    row.widget->setObjectName(QStringLiteral("loadRow"));
    row.widget->setToolTip(toolTip);
    auto* layout = new QHBoxLayout(row.widget);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* name = shrinkableLabel(title, row.widget);
    name->setObjectName(QStringLiteral("loadName"));
    row.bar = new QProgressBar(row.widget);
    row.bar->setRange(0, 0); // busy until the first real progress value
    row.bar->setFixedWidth(220);
    row.stage = shrinkableLabel(tr("Opening"), row.widget);
    row.stage->setObjectName(QStringLiteral("loadStage"));
    row.elapsed = new QLabel(elapsedText(0), row.widget);
    row.elapsed->setObjectName(QStringLiteral("loadElapsed"));
    row.cancel = new QPushButton(tr("Cancel"), row.widget);
    row.cancel->setObjectName(QStringLiteral("loadCancel"));
    layout->addWidget(name, 2);
    layout->addWidget(row.bar);
    layout->addWidget(row.stage, 2);
    layout->addWidget(row.elapsed);
    layout->addWidget(row.cancel);
    connect(row.cancel, &QPushButton::clicked, row.cancel, [cancel = row.cancel]() {
        cancel->setEnabled(false);
        cancel->setText(tr("Cancelling…"));
    });
    return row;
}

void LoadProgressStrip::showProgress(const Row& row, int permille, const QString& stage)
{
    if (permille >= 0) {
        row.bar->setRange(0, 1000);
        row.bar->setValue(permille);
    }
    row.stage->setText(stage);
}

LoadProgressStrip::Row LoadProgressStrip::makeRow(LoadJob* job)
{
    const Row row
        = makeRowWidgets(tr("Loading <b>%1</b>").arg(QFileInfo(job->path()).fileName().toHtmlEscaped()), job->path());
    // QProgressBar paints a new value at once (repaint(), not at the window's next paint): a load reports hundreds of
    // steps, and each stopped the GUI thread for a paint. Ten a second are plenty; a new stage shows at once.
    connect(job, &LoadJob::progress, row.widget,
        [this, row, shown = std::make_shared<QElapsedTimer>()](int permille, const QString& text) {
            if (shown->isValid() && shown->elapsed() < 100 && text == row.stage->text())
                return;
            shown->start();
            showProgress(row, permille, text);
        });
    connect(row.cancel, &QPushButton::clicked, job, &LoadJob::cancel);
    return row;
}

void LoadProgressStrip::addJob(LoadJob* job)
{
    const Row row = makeRow(job);
    m_layout->addWidget(row.widget);
    m_rows[job] = row;
    rowsChanged();
}

void LoadProgressStrip::removeJob(LoadJob* job)
{
    const auto it = m_rows.find(job);
    if (it == m_rows.end())
        return;
    delete it->second.widget;
    m_rows.erase(it);
    rowsChanged();
}

void LoadProgressStrip::addTask(int task, const QString& title, const QString& target, std::function<void()> cancel)
{
    Row row = makeRowWidgets(title, target);
    row.stage->setText(tr("Starting"));
    row.clock.start();
    connect(row.cancel, &QPushButton::clicked, this, std::move(cancel));
    m_layout->addWidget(row.widget);
    m_tasks[task] = row;
    rowsChanged();
}

void LoadProgressStrip::setTaskProgress(int task, int permille, const QString& stage)
{
    if (const auto it = m_tasks.find(task); it != m_tasks.end())
        showProgress(it->second, permille, stage);
}

void LoadProgressStrip::removeTask(int task)
{
    const auto it = m_tasks.find(task);
    if (it == m_tasks.end())
        return;
    delete it->second.widget;
    m_tasks.erase(it);
    rowsChanged();
}

void LoadProgressStrip::rowsChanged()
{
    if (hasContent())
        m_clock->start();
    else
        m_clock->stop();
    Q_EMIT contentChanged(hasContent());
}

QWidget* LoadProgressStrip::rowOfTask(int task) const
{
    const auto it = m_tasks.find(task);
    return it == m_tasks.end() ? nullptr : it->second.widget;
}

QWidget* LoadProgressStrip::rowOf(const LoadJob* job) const
{
    const auto it = m_rows.find(const_cast<LoadJob*>(job));
    return it == m_rows.end() ? nullptr : it->second.widget;
}

void LoadProgressStrip::updateElapsed()
{
    for (const auto& [job, row] : m_rows)
        row.elapsed->setText(elapsedText(job->elapsedMilliseconds()));
    for (const auto& [task, row] : m_tasks)
        row.elapsed->setText(elapsedText(row.clock.elapsed()));
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadprogressstrip.h"

#include "core/session/loadjob.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

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

LoadProgressStrip::Row LoadProgressStrip::makeRow(LoadJob* job)
{
    Row row;
    row.widget = new QWidget(this);
    row.widget->setObjectName(QStringLiteral("loadRow"));
    row.widget->setToolTip(job->path());
    auto* layout = new QHBoxLayout(row.widget);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* name
        = shrinkableLabel(tr("Loading <b>%1</b>").arg(QFileInfo(job->path()).fileName().toHtmlEscaped()), row.widget);
    name->setObjectName(QStringLiteral("loadName"));
    row.bar = new QProgressBar(row.widget);
    row.bar->setRange(0, 0); // busy until the first real progress value
    row.bar->setFixedWidth(220);
    row.stage = shrinkableLabel(tr("Opening"), row.widget);
    row.stage->setObjectName(QStringLiteral("loadStage"));
    row.elapsed = new QLabel(elapsedText(0), row.widget);
    row.elapsed->setObjectName(QStringLiteral("loadElapsed"));
    auto* cancel = new QPushButton(tr("Cancel"), row.widget);
    cancel->setObjectName(QStringLiteral("loadCancel"));
    layout->addWidget(name, 2);
    layout->addWidget(row.bar);
    layout->addWidget(row.stage, 2);
    layout->addWidget(row.elapsed);
    layout->addWidget(cancel);
    connect(job, &LoadJob::progress, row.widget, [bar = row.bar, stage = row.stage](int permille, const QString& text) {
        if (permille >= 0) {
            bar->setRange(0, 1000);
            bar->setValue(permille);
        }
        stage->setText(text);
    });
    connect(cancel, &QPushButton::clicked, job, [job, cancel]() {
        cancel->setEnabled(false);
        cancel->setText(tr("Cancelling…"));
        job->cancel();
    });
    return row;
}

void LoadProgressStrip::addJob(LoadJob* job)
{
    const Row row = makeRow(job);
    m_layout->addWidget(row.widget);
    m_rows[job] = row;
    m_clock->start();
    Q_EMIT contentChanged(true);
}

void LoadProgressStrip::removeJob(LoadJob* job)
{
    const auto it = m_rows.find(job);
    if (it == m_rows.end())
        return;
    delete it->second.widget;
    m_rows.erase(it);
    if (m_rows.empty())
        m_clock->stop();
    Q_EMIT contentChanged(hasContent());
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
}

} // namespace nsw

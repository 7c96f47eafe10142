// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadprogressstrip.h"

#include "core/session/loadjob.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace nsw {

LoadProgressStrip::LoadProgressStrip(QWidget* parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this))
{
    m_layout->setContentsMargins(6, 2, 6, 2);
    hide();
}

void LoadProgressStrip::addJob(LoadJob* job)
{
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* name = new QLabel(tr("Loading %1").arg(QFileInfo(job->path()).fileName()), row);
    auto* stage = new QLabel(row);
    auto* bar = new QProgressBar(row);
    bar->setRange(0, 0); // busy until the first real progress value
    bar->setMaximumWidth(320);
    auto* cancel = new QPushButton(tr("Cancel"), row);
    layout->addWidget(name);
    layout->addWidget(bar, 1);
    layout->addWidget(stage);
    layout->addWidget(cancel);
    m_layout->addWidget(row);
    m_rows[job] = row;
    connect(job, &LoadJob::progress, bar, [bar, stage](int permille, const QString& text) {
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
    updateVisibility();
}

void LoadProgressStrip::removeJob(LoadJob* job)
{
    const auto it = m_rows.find(job);
    if (it == m_rows.end())
        return;
    delete it->second;
    m_rows.erase(it);
    updateVisibility();
}

void LoadProgressStrip::showError(const QString& message)
{
    auto* row = new QWidget(this);
    row->setObjectName(QStringLiteral("loadError"));
    row->setStyleSheet(QStringLiteral("#loadError { background: #fdecea; } QLabel { color: #8a1c13; }"));
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(6, 2, 6, 2);
    auto* label = new QLabel(message, row);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* dismiss = new QPushButton(tr("Dismiss"), row);
    layout->addWidget(label, 1);
    layout->addWidget(dismiss);
    m_layout->addWidget(row);
    m_errors.push_back(row);
    connect(dismiss, &QPushButton::clicked, this, [this, row]() {
        m_errors.erase(std::remove(m_errors.begin(), m_errors.end(), row), m_errors.end());
        row->deleteLater();
        updateVisibility();
    });
    updateVisibility();
}

QStringList LoadProgressStrip::errors() const
{
    QStringList texts;
    for (const QWidget* row : m_errors)
        texts.append(row->findChild<QLabel*>()->text());
    return texts;
}

void LoadProgressStrip::updateVisibility()
{
    setVisible(hasContent());
    Q_EMIT contentChanged(hasContent());
}

} // namespace nsw

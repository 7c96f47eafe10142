// SPDX-License-Identifier: GPL-3.0-or-later
#include "startpage.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace nsw {

StartPage::StartPage(QWidget* parent)
    : QWidget(parent)
    , m_recent(new QListWidget(this))
    , m_error(new QLabel(this))
{
    auto* title = new QLabel(tr("<h2>nsys-workbench</h2>"
                                "<p>Open an nsys report (<tt>.nsys-rep</tt>) or SQLite export, or a trace folder "
                                "with an export and NVLink recordings.<br>"
                                "Drop files here, or profile an application (Profile menu).</p>"),
        this);
    title->setTextFormat(Qt::RichText);
    title->setWordWrap(true);
    auto* open = new QPushButton(tr("Open…"), this);
    m_error->setObjectName(QStringLiteral("startPageErrors"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::RichText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();
    auto* recentLabel = new QLabel(tr("Recent files:"), this);
    m_recent->setMaximumWidth(700);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(40, 30, 40, 30);
    layout->addWidget(title);
    layout->addWidget(open, 0, Qt::AlignLeft);
    layout->addWidget(m_error);
    layout->addSpacing(12);
    layout->addWidget(recentLabel);
    layout->addWidget(m_recent, 1);
    connect(open, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(m_recent, &QListWidget::itemActivated, this,
        [this](QListWidgetItem* item) { Q_EMIT fileRequested(item->data(Qt::UserRole).toString()); });
}

void StartPage::setRecentFiles(const QStringList& files)
{
    m_recent->clear();
    for (const QString& f : files) {
        auto* item = new QListWidgetItem(QStringLiteral("%1   —   %2").arg(QFileInfo(f).fileName(), f), m_recent);
        item->setData(Qt::UserRole, f);
    }
}

void StartPage::setErrors(const std::vector<LoadError>& errors)
{
    QString html;
    for (const LoadError& e : errors)
        html += QStringLiteral("<li><b>%1</b>: %2</li>")
                    .arg(e.path.toHtmlEscaped(),
                        (e.kind == ErrorKind::OutOfMemory ? tr("not enough memory: %1").arg(e.reason) : e.reason)
                            .toHtmlEscaped());
    m_error->setText(errors.empty() ? QString() : tr("<p>These could not be opened:</p><ul>%1</ul>").arg(html));
    m_error->setVisible(!errors.empty());
}

QString StartPage::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

} // namespace nsw

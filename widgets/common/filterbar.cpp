// SPDX-License-Identifier: GPL-3.0-or-later
#include "filterbar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>

namespace nsw {

FilterBar::FilterBar(QWidget* parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(this))
    , m_regex(new QCheckBox(tr("Regex"), this))
    , m_error(new QLabel(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_edit->setClearButtonEnabled(true);
    m_edit->setPlaceholderText(tr("Filter by name…"));
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_regex);
    layout->addWidget(m_error);
    // Debounce typing so that a large table is not refiltered on every key.
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(150);
    connect(m_edit, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, this, [this]() { Q_EMIT filterChanged(text(), isRegex()); });
    connect(m_regex, &QCheckBox::toggled, this, [this]() { Q_EMIT filterChanged(text(), isRegex()); });
}

QString FilterBar::text() const
{
    return m_edit->text();
}

bool FilterBar::isRegex() const
{
    return m_regex->isChecked();
}

void FilterBar::setPlaceholder(const QString& text)
{
    m_edit->setPlaceholderText(text);
}

void FilterBar::setError(const QString& error)
{
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    m_edit->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 1px solid #c0392b; }"));
}

} // namespace nsw

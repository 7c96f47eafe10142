// SPDX-License-Identifier: GPL-3.0-or-later
#include "loaderrorbanners.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace nsw {

namespace {
QString outOfMemoryPrefix(const QString& path)
{
    return QStringLiteral("not enough memory to load %1: ").arg(path);
}
} // namespace

LoadError LoadError::fromMessage(const QString& path, const QString& message, ErrorKind kind)
{
    const QString prefix = kind == ErrorKind::OutOfMemory ? outOfMemoryPrefix(path) : path + QStringLiteral(": ");
    return { path, message.startsWith(prefix) ? message.mid(prefix.size()) : message, kind };
}

QString LoadError::text() const
{
    return kind == ErrorKind::OutOfMemory ? outOfMemoryPrefix(path) + reason
                                          : QStringLiteral("%1: %2").arg(path, reason);
}

LoadErrorBanners::LoadErrorBanners(QWidget* parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this))
{
    m_layout->setContentsMargins(6, 2, 6, 2);
    m_layout->setSpacing(2);
}

QWidget* LoadErrorBanners::makeBanner(const LoadError& error)
{
    auto* banner = new QWidget(this);
    banner->setObjectName(QStringLiteral("loadError"));
    banner->setAttribute(Qt::WA_StyledBackground);
    banner->setStyleSheet(
        QStringLiteral("#loadError { background: #fdecea; border: 1px solid #f5c2bd; } QLabel { color: #8a1c13; }"));
    auto* layout = new QHBoxLayout(banner);
    layout->setContentsMargins(8, 3, 4, 3);
    const QString text = error.kind == ErrorKind::OutOfMemory
        ? tr("Not enough memory to load <b>%1</b>: %2. The open profiles stay; close some, or open it on a machine "
             "with more memory.")
        : tr("Could not open <b>%1</b>: %2");
    auto* label
        = new QLabel(text.arg(QFileInfo(error.path).fileName().toHtmlEscaped(), error.reason.toHtmlEscaped()), banner);
    label->setObjectName(QStringLiteral("loadErrorText"));
    label->setToolTip(error.text());
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // a long path must not widen the window
    auto* openAnother = new QPushButton(tr("Open another…"), banner);
    openAnother->setObjectName(QStringLiteral("openAnother"));
    auto* dismiss = new QPushButton(tr("Dismiss"), banner);
    dismiss->setObjectName(QStringLiteral("dismissLoadError"));
    auto* dismissAll = new QPushButton(tr("Dismiss all"), banner);
    dismissAll->setObjectName(QStringLiteral("dismissAllLoadErrors"));
    dismissAll->hide();
    layout->addWidget(label, 1);
    layout->addWidget(openAnother);
    layout->addWidget(dismiss);
    layout->addWidget(dismissAll);
    connect(dismissAll, &QPushButton::clicked, this, &LoadErrorBanners::dismissAll);
    connect(openAnother, &QPushButton::clicked, this, &LoadErrorBanners::openAnotherRequested);
    connect(dismiss, &QPushButton::clicked, this, [this, banner]() {
        const auto it = std::find(m_banners.begin(), m_banners.end(), banner);
        if (it != m_banners.end())
            this->dismiss(int(it - m_banners.begin()));
    });
    return banner;
}

void LoadErrorBanners::add(const LoadError& error)
{
    QWidget* banner = makeBanner(error);
    m_layout->addWidget(banner);
    m_errors.push_back(error);
    m_banners.push_back(banner);
    updateDismissAll();
    Q_EMIT errorsChanged();
}

void LoadErrorBanners::dismissAll()
{
    for (QWidget* banner : m_banners) {
        banner->hide();
        banner->deleteLater();
    }
    m_banners.clear();
    m_errors.clear();
    Q_EMIT errorsChanged();
}

void LoadErrorBanners::updateDismissAll()
{
    for (std::size_t i = 0; i < m_banners.size(); ++i)
        m_banners[i]
            ->findChild<QPushButton*>(QStringLiteral("dismissAllLoadErrors"))
            ->setVisible(i == 0 && m_banners.size() > 1);
}

void LoadErrorBanners::dismiss(int index)
{
    if (index < 0 || std::size_t(index) >= m_errors.size())
        return;
    m_banners[std::size_t(index)]->deleteLater();
    m_banners[std::size_t(index)]->hide();
    m_banners.erase(m_banners.begin() + index);
    m_errors.erase(m_errors.begin() + index);
    updateDismissAll();
    Q_EMIT errorsChanged();
}

QWidget* LoadErrorBanners::banner(int index) const
{
    return index >= 0 && std::size_t(index) < m_banners.size() ? m_banners[std::size_t(index)] : nullptr;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"

#include <QString>
#include <QWidget>
#include <vector>

class QVBoxLayout;

namespace nsw {

/// A load that failed: the file (or folder) and why.
struct LoadError
{
    QString path;
    QString reason;
    ErrorKind kind = ErrorKind::Input; ///< OutOfMemory: the reason says how much the load needs
    /// Splits a loader message ("PATH: reason", "not enough memory to load PATH: it needs about 3.2 GB") into its
    /// parts; a message that does not start with the path is kept whole as the reason.
    static LoadError fromMessage(const QString& path, const QString& message, ErrorKind kind = ErrorKind::Input);
    QString text() const;
    bool operator==(const LoadError&) const = default;
};

/// Failed loads, one banner each (file, reason, Dismiss, Open another…), until the user dismisses them: unlike a
/// status bar message they do not go away while nobody looks. With two or more, the first banner also offers
/// "Dismiss all".
class LoadErrorBanners : public QWidget
{
    Q_OBJECT
public:
    explicit LoadErrorBanners(QWidget* parent = nullptr);
    void add(const LoadError& error);
    void dismiss(int index);
    void dismissAll();
    const std::vector<LoadError>& errors() const { return m_errors; }
    bool hasContent() const { return !m_errors.empty(); }
    /// The banner widget of error @p index (for tests: what a person sees).
    QWidget* banner(int index) const;

Q_SIGNALS:
    void errorsChanged();
    void openAnotherRequested();

private:
    QWidget* makeBanner(const LoadError& error);
    /// "Dismiss all" shows on the first banner while there are several.
    void updateDismissAll();

    QVBoxLayout* m_layout;
    std::vector<LoadError> m_errors;
    std::vector<QWidget*> m_banners;
};

} // namespace nsw

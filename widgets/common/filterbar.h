// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace nsw {

/// Text filter with a regex toggle; an invalid expression is refused and its error shown next to it.
class FilterBar : public QWidget
{
    Q_OBJECT
public:
    explicit FilterBar(QWidget* parent = nullptr);
    QString text() const;
    bool isRegex() const;
    void setPlaceholder(const QString& text);
    /// Shows an error (empty clears it).
    void setError(const QString& error);
    QLineEdit* lineEdit() const { return m_edit; }

Q_SIGNALS:
    void filterChanged(const QString& text, bool regex);

private:
    QLineEdit* m_edit;
    QCheckBox* m_regex;
    QLabel* m_error;
};

} // namespace nsw

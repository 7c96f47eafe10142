// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

namespace nsw {

/// A one-line label that never asks for more width than it is given: its text is elided on the right to the width
/// it has, the whole text in its tooltip. For text of any length in a row of the main window (an NVTX range's label
/// can be thousands of characters), which would otherwise widen the window past the screen.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    void setFullText(const QString& text);
    const QString& fullText() const { return m_fullText; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QString m_fullText;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLayout>
#include <QList>

namespace nsw {

/// Lays its items out left to right and wraps them onto further rows when the width runs out, so that a pane's
/// controls stay whole in a narrow dock instead of being squeezed until their text is cut.
class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget* parent = nullptr);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    /// Places the items in @p rect (only computes when @p apply is false); returns the height they take.
    int arrange(const QRect& rect, bool apply) const;
    int spacingOrDefault() const;

    QList<QLayoutItem*> m_items;
    int m_laidOutWidth = 0; ///< the width of the last layout pass, and the height its rows took
    int m_laidOutHeight = 0;
};

/// @p label and @p field in one widget, so that a FlowLayout never wraps between them.
QWidget* labelledField(const QString& label, QWidget* field, QWidget* parent);

} // namespace nsw

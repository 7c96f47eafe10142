// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHeaderView>

class QTableView;
class QTreeView;

namespace nsw {

/// A header that elides a title too long for its section with the view's elide mode. Qt 6.4's header clips it
/// instead, on both sides when it is centred: "g2g · nsys2026.2_h100x2_mfu_before_nccl" showed as
/// "6.2_h100x2_mfu_befo", and "Instances" as "nstance".
class ElidingHeader : public QHeaderView
{
    Q_OBJECT
public:
    explicit ElidingHeader(Qt::Orientation orientation, QWidget* parent = nullptr);

    /// Gives @p view an eliding horizontal header (keeping the view's model), unless it has one.
    static void install(QTableView* view);
    static void install(QTreeView* view);
    /// The text @p section shows, as it is painted.
    QString shownText(int section) const;

protected:
    void initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const override;
};

} // namespace nsw

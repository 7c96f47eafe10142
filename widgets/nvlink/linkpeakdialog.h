// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/linkpeaks.h"

#include <QDialog>

class QTableWidget;

namespace nsw {

/// Edits the per-GPU-model NVLink bandwidth table (pattern, links, GB/s per link and direction).
class LinkPeakDialog : public QDialog
{
    Q_OBJECT
public:
    explicit LinkPeakDialog(const LinkPeakTable& table, QWidget* parent = nullptr);
    /// The edited table; rows with an empty pattern or non-positive numbers are dropped.
    LinkPeakTable table() const;

private:
    void fill(const LinkPeakTable& table);
    QTableWidget* m_table;
};

} // namespace nsw

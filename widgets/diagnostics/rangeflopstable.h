// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/rangeflops.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace nsw {

/// FLOPs per NVTX range typed in the window (issue 36 §3): a row per range (its name, or re: and a regular expression
/// the whole name matches), its FLOPs and optionally its bytes per instance. Loads and saves the JSON file
/// `nsys-workbench mfu --ranges` reads (saveRangeFlops(): atomic, never over another kind of file).
class RangeFlopsTable : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        RangeColumn,
        FlopsColumn,
        BytesColumn,
        ColumnCount
    };

    explicit RangeFlopsTable(QWidget* parent = nullptr);

    /// The filled rows (empty rows are skipped); an error naming the row through @p error (empty when valid).
    std::vector<RangeFlops> ranges(QString* error) const;
    void setRanges(const std::vector<RangeFlops>& ranges);
    /// Loads @p path into the table (replacing its rows); an error naming the file, or empty.
    QString load(const QString& path);
    /// Saves the rows to @p path; an error naming the file (or the row), or empty.
    QString save(const QString& path);

    QTableWidget* table() const { return m_table; }
    /// What the last load or save did ("Saved 3 ranges to …") or why it failed.
    QLabel* status() const { return m_status; }

Q_SIGNALS:
    void changed();

private:
    void addRow(const RangeFlops& range = {});
    void showStatus(const QString& text, bool error);

    QTableWidget* m_table;
    QLabel* m_status;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QAbstractItemModel;
class QAbstractItemView;
class QTableView;
class QTreeView;
class QWidget;

namespace nsw {

/// Common setup so that every table behaves the same: sortable on raw values, fixed row heights (smooth with
/// millions of rows), interactive columns, a context menu with Copy.
void setupTableView(QTableView* view);
/// A new table view set up so, showing @p model through a SortFilterProxy (sorted on raw values).
QTableView* newSortableTableView(QAbstractItemModel* model, QWidget* parent);
void setupTreeView(QTreeView* view);
/// Sizes each column to its cells, and to its header only up to @p maxHeaderWidth pixels (a longer header elides, whole
/// in its tooltip): a profile's file name as a header pushed a docked table's numbers out of sight.
void resizeColumnsToCells(QTableView* view, int maxHeaderWidth);

/// Writes the view's model, in view order, with writeModelCsv() (the CLI's CSV) after asking for a file, off the GUI
/// thread (BackgroundExports: a row in the window's progress strip, errors shown when it ends). Returns false when
/// the user cancelled the dialog.
bool exportViewCsvInteractively(QAbstractItemView* view, const QString& suggestedName, QWidget* parent);
/// Writes the view's model to @p fileName; returns an error message or an empty string.
QString exportViewCsv(QAbstractItemView* view, const QString& fileName);
/// The same for a model no view shows (e.g. a chart's bins): writeModelCsv() with raw values.
QString exportModelCsv(const QAbstractItemModel& model, const QString& fileName);
bool exportModelCsvInteractively(const QAbstractItemModel& model, const QString& suggestedName, QWidget* parent);

} // namespace nsw

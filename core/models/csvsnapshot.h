// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractItemModel>
#include <memory>

namespace nsw {

/// A model whose rows are too many to write on the GUI thread (the executions of one kernel: millions) hands a copy
/// of itself over instead: sharing the immutable profile, copying its row order, so that writeModelCsv() on the copy,
/// on another thread, writes what it would on the model, while the model goes on changing with the view.
class CsvSnapshotSource
{
public:
    virtual ~CsvSnapshotSource() = default;
    /// A copy with no thread affinity (moveToThread(nullptr)): usable, then deleted, on any one thread.
    virtual std::unique_ptr<QAbstractItemModel> csvSnapshot() const = 0;
};

} // namespace nsw

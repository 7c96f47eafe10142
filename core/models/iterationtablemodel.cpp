// SPDX-License-Identifier: GPL-3.0-or-later
#include "iterationtablemodel.h"

#include "core/models/modelroles.h"
#include "core/util/timeformat.h"

namespace nsw {

IterationTableModel::IterationTableModel(QObject* parent)
    : ColumnTableModel(parent)
{
    setColumns({
        { .header = tr("Iteration"), .raw = [this](int r) { return at(r).index; } },
        { .header = tr("Marker"),
            .raw =
                [this](int r) {
                    return m_table->isGuess() ? QStringLiteral("guess") : m_table->profile->strings.at(at(r).name);
                },
            .toolTip = [this](int) { return m_table->isGuess() ? QVariant(m_table->detection) : QVariant(); },
            .alignment = kLeft },
        { .header = tr("Start"),
            .rawHeader = QStringLiteral("Start (ns)"),
            .raw = [this](int r) { return qint64(at(r).start - m_table->clockOrigin); },
            .text = secondsText(6) },
        { .header = tr("Duration"),
            .rawHeader = QStringLiteral("Duration (ns)"),
            .raw = [this](int r) { return qint64(at(r).duration()); },
            .text = durationText() },
        { .header = tr("GPU busy"),
            .rawHeader = QStringLiteral("GPU Busy (ns)"),
            .raw = [this](int r) { return qint64(at(r).gpuBusy); },
            .text = durationText() },
        { .header = tr("GPU idle"),
            .rawHeader = QStringLiteral("GPU Idle (ns)"),
            .raw = [this](int r) { return qint64(at(r).idle()); },
            .text = durationText() },
        { .header = tr("Kernels"), .raw = [this](int r) { return at(r).kernels; }, .text = countText() },
        { .header = tr("Top Category"),
            .raw = [this](int r) { return at(r).topCategory; },
            .toolTip =
                [this](int r) {
                    const Iteration& it = at(r);
                    return it.topCategory.isEmpty() ? QVariant()
                                                    : tr("%1 in this iteration (rules %2)")
                                                          .arg(formatDuration(it.topCategoryTime), m_table->rulesLabel);
                },
            .alignment = kLeft },
        { .header = tr("Top Kernel"),
            .raw = [this](int r) { return topKernelAt(r); },
            .toolTip =
                [this](int r) {
                    return tr("%1\n%2 in this iteration").arg(topKernelAt(r), formatDuration(at(r).topKernelTime));
                },
            .alignment = kLeft },
        { .header = tr("Outlier"),
            .raw = [this](int r) { return at(r).outlier ? QStringLiteral("outlier") : QString(); },
            .alignment = kLeft },
    });
}

void IterationTableModel::setTable(std::shared_ptr<const IterationTable> table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

QVariant IterationTableModel::rowData(int row, int role) const
{
    return role == IdentityRole ? QVariant(at(row).index) : QVariant();
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/collectiveskewmodel.h"

#include "core/models/modelroles.h"

namespace nsw {

CollectiveSkewModel::CollectiveSkewModel(QObject* parent)
    : ColumnTableModel(parent)
{
    setColumns({
        { .header = tr("#"), .raw = [](int r) { return r; } },
        { .header = tr("Collective"),
            .raw = [this](int r) { return collectiveName(keyAt(r).kind); },
            .alignment = kLeft },
        { .header = tr("NCCL kernel"),
            .raw = [this](int r) { return keyAt(r).name; },
            .toolTip = [this](int r) { return keyAt(r).name; },
            .alignment = kLeft },
        { .header = tr("NCCL stream"), .raw = [this](int r) { return keyAt(r).stream; } },
        { .header = tr("Instance"), .raw = [this](int r) { return at(r).sequence; } },
        { .header = tr("Iteration"),
            .raw = [this](int r) { return at(r).iteration; },
            .text = [](int, const QVariant& raw) { return raw.toInt() < 0 ? QStringLiteral("-") : raw.toString(); } },
        { .header = tr("First arrival"),
            .rawHeader = QStringLiteral("First Arrival (ns)"),
            .raw = [this](int r) { return qint64(at(r).firstArrival); },
            .text = secondsText(6) },
        { .header = tr("Arrival skew"),
            .rawHeader = QStringLiteral("Skew (ns)"),
            .raw = [this](int r) { return qint64(at(r).skewNs()); },
            .text = durationText() },
        { .header = tr("Last to arrive"),
            .raw = [this](int r) { return at(r).straggler; },
            .text = [](int, const QVariant& raw) { return tr("rank %1").arg(raw.toInt()); } },
        { .header = tr("Transfer"),
            .rawHeader = QStringLiteral("Transfer (ns)"),
            .raw = [this](int r) { return qint64(at(r).transferNs); },
            .text = durationText() },
    });
}

void CollectiveSkewModel::setResult(std::shared_ptr<const RanksResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

QVariant CollectiveSkewModel::rowData(int row, int role) const
{
    return role == IdentityRole ? QVariant(row) : QVariant();
}

} // namespace nsw

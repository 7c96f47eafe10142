// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/ranktablemodel.h"

#include "core/models/modelroles.h"
#include "core/util/timeformat.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace nsw {

namespace {

template <typename T> T middle(std::vector<T> v)
{
    if (v.empty())
        return T {};
    std::sort(v.begin(), v.end());
    return v[(v.size() - 1) / 2];
}

QString signedDuration(TimeNs ns)
{
    return ns < 0 ? QStringLiteral("-") + formatDuration(-ns) : formatDuration(ns);
}

} // namespace

RankTableModel::RankTableModel(QObject* parent)
    : ColumnTableModel(parent)
{
    const Text percent = [](int, const QVariant& raw) {
        return QString(QString::number(raw.toDouble(), 'f', 1) + QStringLiteral(" %"));
    };
    setColumns({
        { .header = tr("Rank"), .raw = [this](int r) { return at(r).rank; } },
        { .header = tr("Host"), .raw = [this](int r) { return m_result->fileOf(at(r)).host; }, .alignment = kLeft },
        { .header = tr("PID"), .raw = [this](int r) { return summaryAt(r).pid; } },
        { .header = tr("GPU"), .raw = [this](int r) { return summaryAt(r).gpuLabel; }, .alignment = kLeft },
        { .header = tr("Export"),
            .raw = [this](int r) { return m_result->fileOf(at(r)).exportPath; },
            .text = [](int, const QVariant& raw) { return QFileInfo(raw.toString()).fileName(); },
            .toolTip = [this](int r) { return m_result->fileOf(at(r)).exportPath; },
            .alignment = kLeft },
        { .header = tr("Clock offset"),
            .rawHeader = QStringLiteral("Clock Offset (ns)"),
            .raw = [this](int r) { return qint64(at(r).clockOffsetNs); },
            .text = [](int, const QVariant& raw) { return signedDuration(raw.toLongLong()); },
            .toolTip = [this](int r) { return at(r).clockSource; } },
        { .header = tr("Iterations"),
            .raw = [this](int r) { return qint64(at(r).iterations.size()); },
            .text =
                [this](int r, const QVariant& raw) {
                    return summaryAt(r).iterationsGuessed ? tr("%1 (guess)").arg(raw.toLongLong()) : raw.toString();
                },
            .toolTip = [this](int r) { return summaryAt(r).iterationDetection; } },
        { .header = tr("Median iteration"),
            .rawHeader = QStringLiteral("Median Iteration (ns)"),
            .raw = [this](int r) { return qint64(mediansAt(r).iteration); },
            .text = durationText() },
        { .header = tr("Compute / iteration"),
            .rawHeader = QStringLiteral("Median Compute (ns)"),
            .raw = [this](int r) { return qint64(mediansAt(r).compute); },
            .text = durationText() },
        { .header = tr("Bubble"),
            .rawHeader = QStringLiteral("Median Bubble (%)"),
            .raw = [this](int r) { return std::round(mediansAt(r).bubble * 100) / 100; },
            .text = percent },
        { .header = tr("Collectives"),
            .raw = [this](int r) { return at(r).collectives; },
            .text = [this](int r, const QVariant& raw) { return at(r).matched ? raw.toString() : tr("not matched"); } },
        { .header = tr("Last arrivals"), .raw = [this](int r) { return at(r).lastArrivals; } },
        { .header = tr("Last share"),
            .rawHeader = QStringLiteral("Last Arrival Share (%)"),
            .raw =
                [this](int r) {
                    const RankRow& row = at(r);
                    return row.collectives > 0
                        ? std::round(10000.0 * double(row.lastArrivals) / double(row.collectives)) / 100
                        : 0.0;
                },
            .text = percent },
        { .header = tr("Wait"),
            .rawHeader = QStringLiteral("Wait (ns)"),
            .raw = [this](int r) { return qint64(at(r).waitNs); },
            .text = durationText() },
        { .header = tr("Wait / iteration"),
            .rawHeader = QStringLiteral("Wait per Iteration (ns)"),
            .raw =
                [this](int r) {
                    const RankRow& row = at(r);
                    return row.iterations.empty() ? qint64(0) : qint64(row.waitNs / TimeNs(row.iterations.size()));
                },
            .text = durationText() },
    });
}

void RankTableModel::setResult(std::shared_ptr<const RanksResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    m_medians.clear();
    if (m_result)
        for (const RankRow& row : m_result->ranks) {
            std::vector<TimeNs> durations, compute;
            std::vector<double> bubble;
            for (const RankIterationCell& c : row.iterations) {
                durations.push_back(c.duration());
                compute.push_back(c.computeNs);
                bubble.push_back(c.bubblePercent());
            }
            m_medians.push_back({ middle(durations), middle(compute), middle(bubble) });
        }
    endResetModel();
}

QVariant RankTableModel::rowData(int row, int role) const
{
    return role == IdentityRole ? QVariant(at(row).rank) : QVariant();
}

} // namespace nsw

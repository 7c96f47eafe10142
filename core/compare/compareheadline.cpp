// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareheadline.h"

#include "core/compare/compareexport.h"
#include "core/util/timeformat.h"

#include <algorithm>
#include <cmath>

namespace nsw {

namespace {
struct Change
{
    const CompareRow* row;
    std::size_t profile;
};

/// The rows with @p status for some profile, the largest cost per call first.
std::vector<Change> changesWith(const Comparison& c, CompareStatus status)
{
    std::vector<Change> out;
    for (const CompareRow& row : c.rows)
        for (std::size_t p = 0; p < row.status.size(); ++p)
            if (p != c.baseline && row.status[p] == status)
                out.push_back({ &row, p });
    std::stable_sort(out.begin(), out.end(), [](const Change& a, const Change& b) {
        return std::fabs(a.row->perCallEffect[a.profile]) > std::fabs(b.row->perCallEffect[b.profile]);
    });
    return out;
}

QString changeText(const Comparison& c, const Change& x)
{
    const CompareCell& base = x.row->cells[c.baseline];
    const CompareCell& other = x.row->cells[x.profile];
    QString text
        = QStringLiteral("%1 %2 (%3 → %4)")
              .arg(compactKeyLabel(x.row->key, c.by, 48), formatComparePercent(x.row->perCallPercent[x.profile]),
                  formatDuration(qint64(std::llround(base.average))),
                  formatDuration(qint64(std::llround(other.average))));
    if (c.profileCount() > 2)
        text += QStringLiteral(" in ") + c.profiles.value(qsizetype(x.profile));
    return text;
}

QString changesLine(const Comparison& c, CompareStatus status, const QString& title, int keys)
{
    const std::vector<Change> changes = changesWith(c, status);
    QStringList parts;
    for (std::size_t i = 0; i < changes.size() && int(i) < keys; ++i)
        parts.append(changeText(c, changes[i]));
    if (changes.size() > std::size_t(keys))
        parts.append(QStringLiteral("%1 more").arg(changes.size() - std::size_t(keys)));
    return title + parts.join(QStringLiteral("; "));
}

QString idleLine(const Comparison& c)
{
    if (c.gpuIdle.size() != c.profileCount() || c.gpuIdle[c.baseline].empty())
        return {};
    const auto idleOf = [&](std::size_t p, int gpu) -> QString {
        for (const GpuIdle& g : c.gpuIdle[p])
            if (g.gpu == gpu)
                return QString::number(g.idlePercent, 'f', 1) + QStringLiteral(" %");
        return QStringLiteral("–");
    };
    QStringList parts;
    for (const GpuIdle& g : c.gpuIdle[c.baseline]) {
        QStringList others;
        for (std::size_t p = 0; p < c.profileCount(); ++p)
            if (p != c.baseline)
                others.append(idleOf(p, g.gpu));
        parts.append(QStringLiteral("GPU %1 %2 → %3")
                         .arg(g.gpu)
                         .arg(idleOf(c.baseline, g.gpu), others.join(QStringLiteral(", "))));
    }
    return QStringLiteral("GPU idle: ") + parts.join(QStringLiteral(", "));
}

QString callsLine(const Comparison& c)
{
    int fewer = 0, more = 0;
    for (const CompareRow& row : c.rows)
        for (std::size_t p = 0; p < row.status.size(); ++p) {
            const QString change = compareChangeText(c, row, p);
            fewer += change.contains(QStringLiteral("fewer calls"));
            more += change.contains(QStringLiteral("more calls"));
        }
    if (fewer + more == 0)
        return {};
    QStringList parts;
    if (fewer > 0)
        parts.append(QStringLiteral("%1 with fewer calls").arg(fewer));
    if (more > 0)
        parts.append(QStringLiteral("%1 with more").arg(more));
    return QStringLiteral("Call counts differ (%1 keys): totals moved with them, so the statuses compare time per "
                          "call and more or fewer calls count as neither")
        .arg(parts.join(QStringLiteral(", ")));
}
} // namespace

QStringList compareHeadline(const Comparison& c, int keys)
{
    if (!c.error.isEmpty() || c.profileCount() < 2)
        return {};
    QStringList lines;
    if (changesWith(c, CompareStatus::Regression).empty())
        lines.append(QStringLiteral("No key is slower per call beyond %1 %").arg(c.thresholdPercent));
    else
        lines.append(changesLine(c, CompareStatus::Regression, QStringLiteral("Slower per call: "), keys));
    if (!changesWith(c, CompareStatus::Improvement).empty())
        lines.append(changesLine(c, CompareStatus::Improvement, QStringLiteral("Faster per call: "), keys));
    if (const QString idle = idleLine(c); !idle.isEmpty())
        lines.append(idle);
    if (const QString calls = callsLine(c); !calls.isEmpty())
        lines.append(calls);
    int counts[5] = {};
    for (const CompareRow& r : c.rows)
        ++counts[int(r.summary)];
    lines.append(QStringLiteral("%1 keys: %2 regressions, %3 improvements, %4 new, %5 removed, %6 unchanged per call "
                                "(threshold %7 %, noise floor %8)")
                     .arg(c.rows.size())
                     .arg(counts[int(CompareStatus::Regression)])
                     .arg(counts[int(CompareStatus::Improvement)])
                     .arg(counts[int(CompareStatus::New)])
                     .arg(counts[int(CompareStatus::Removed)])
                     .arg(counts[int(CompareStatus::Unchanged)])
                     .arg(c.thresholdPercent)
                     .arg(formatCompareDelta(c.noiseFloorNs, c.normalization).mid(1)));
    return lines;
}

} // namespace nsw

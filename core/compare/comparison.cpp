// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison.h"

#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>

namespace nsw {

namespace {
/// @p effect and @p percent: the change per call (a key's row) or of the totals (the totals row).
CompareStatus statusOf(
    const CompareCell& base, const CompareCell& other, double effect, double percent, const CompareOptions& options)
{
    if (!base.present())
        return other.present() ? CompareStatus::New : CompareStatus::Unchanged;
    if (!other.present())
        return CompareStatus::Removed;
    if (std::fabs(effect) <= options.noiseFloorNs)
        return CompareStatus::Unchanged;
    if (percent > options.thresholdPercent)
        return CompareStatus::Regression;
    if (percent < -options.thresholdPercent)
        return CompareStatus::Improvement;
    return CompareStatus::Unchanged;
}

double percentChange(double from, double to)
{
    return from != 0 ? 100.0 * (to - from) / std::fabs(from) : 0.0;
}

CompareStatus summaryOf(const CompareRow& row, std::size_t baseline)
{
    bool first = true;
    bool agree = true;
    CompareStatus common = CompareStatus::Unchanged;
    for (std::size_t p = 0; p < row.status.size(); ++p) {
        if (p == baseline)
            continue;
        if (first)
            common = row.status[p];
        agree &= row.status[p] == common;
        first = false;
    }
    if (agree)
        return common;
    for (const CompareStatus s :
        { CompareStatus::Regression, CompareStatus::New, CompareStatus::Removed, CompareStatus::Improvement })
        if (std::find(row.status.begin(), row.status.end(), s) != row.status.end())
            return s;
    return CompareStatus::Unchanged;
}

/// Fills the derived columns of a row whose cells hold the raw values. A key's status follows its time per call;
/// the totals row's (@p byTotals) its totals.
void finishRow(CompareRow& row, const std::vector<double>& divisor, const std::vector<KeyValue>& gpu,
    const CompareOptions& options, bool byTotals = false)
{
    const std::size_t n = row.cells.size();
    const bool perInstance = options.normalization == CompareNormalization::PerInstance;
    for (std::size_t p = 0; p < n; ++p) {
        CompareCell& c = row.cells[p];
        c.average = c.instances > 0 ? double(c.totalNs) / double(c.instances) : 0.0;
        c.total = perInstance ? c.average : double(c.totalNs) / divisor[p];
        c.count = double(c.instances) / divisor[p];
        c.share = gpu[p].total > 0 ? 100.0 * double(c.totalNs) / double(gpu[p].total) : 0.0;
    }
    const CompareCell& base = row.cells[options.baseline];
    row.deltaInstances.assign(n, 0.0);
    for (std::size_t p = 0; p < n; ++p)
        if (p != options.baseline)
            row.deltaInstances[p] = row.cells[p].count - base.count;
    row.delta.assign(n, 0.0);
    row.deltaPercent.assign(n, 0.0);
    row.perCallEffect.assign(n, 0.0);
    row.perCallPercent.assign(n, 0.0);
    row.status.assign(n, CompareStatus::Unchanged);
    row.maxAbsDelta = 0;
    row.maxAbsPerCallEffect = 0;
    for (std::size_t p = 0; p < n; ++p) {
        if (p == options.baseline)
            continue;
        const CompareCell& other = row.cells[p];
        const double d = other.total - base.total;
        row.delta[p] = d;
        if (base.total != 0)
            row.deltaPercent[p] = 100.0 * d / std::fabs(base.total);
        else if (d != 0)
            row.deltaPercent[p]
                = d > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
        const bool both = base.present() && other.present();
        const double perCall = other.average - base.average;
        row.perCallEffect[p] = !both ? d : perInstance ? perCall : perCall * other.count;
        row.perCallPercent[p] = both ? percentChange(base.average, other.average) : 0.0;
        row.status[p] = byTotals ? statusOf(base, other, d, row.deltaPercent[p], options)
                                 : statusOf(base, other, row.perCallEffect[p], row.perCallPercent[p], options);
        row.maxAbsDelta = std::max(row.maxAbsDelta, std::fabs(d));
        row.maxAbsPerCallEffect = std::max(row.maxAbsPerCallEffect, std::fabs(row.perCallEffect[p]));
    }
    row.summary = summaryOf(row, options.baseline);
}
} // namespace

QString compareNormalizationName(CompareNormalization n)
{
    switch (n) {
    case CompareNormalization::None:
        return QStringLiteral("none");
    case CompareNormalization::PerSecond:
        return QStringLiteral("second");
    case CompareNormalization::PerIteration:
        return QStringLiteral("iteration");
    case CompareNormalization::PerInstance:
        return QStringLiteral("instance");
    }
    return {};
}

std::optional<CompareNormalization> parseCompareNormalization(const QString& name)
{
    for (const CompareNormalization n : { CompareNormalization::None, CompareNormalization::PerSecond,
             CompareNormalization::PerIteration, CompareNormalization::PerInstance })
        if (compareNormalizationName(n) == name)
            return n;
    return std::nullopt;
}

QString compareStatusName(CompareStatus status)
{
    switch (status) {
    case CompareStatus::Unchanged:
        return QStringLiteral("unchanged");
    case CompareStatus::New:
        return QStringLiteral("new");
    case CompareStatus::Removed:
        return QStringLiteral("removed");
    case CompareStatus::Regression:
        return QStringLiteral("regression");
    case CompareStatus::Improvement:
        return QStringLiteral("improvement");
    }
    return {};
}

QString Comparison::unit() const
{
    switch (normalization) {
    case CompareNormalization::None:
        return QStringLiteral("ns");
    case CompareNormalization::PerSecond:
        return QStringLiteral("ns/s");
    case CompareNormalization::PerIteration:
        return QStringLiteral("ns/iteration");
    case CompareNormalization::PerInstance:
        return QStringLiteral("ns/instance");
    }
    return {};
}

int Comparison::rowOf(const QString& key) const
{
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (rows[r].key == key)
            return int(r);
    return -1;
}

namespace {

/// Checks that every profile has keys of one kind and takes their GPU totals, warnings and normalization divisors;
/// false (with c.error) when one cannot be compared.
bool takeProfiles(const std::vector<CompareProfile>& profiles, const CompareOptions& options, Comparison& c,
    std::vector<KeyValue>& gpu)
{
    const std::size_t n = profiles.size();
    c.by = profiles.front().keys ? profiles.front().keys->by : CompareBy::Kernel;
    gpu.assign(n, {});
    c.divisor.assign(n, 1.0);
    for (std::size_t p = 0; p < n; ++p) {
        if (!profiles[p].keys) {
            c.error = QStringLiteral("%1: no data").arg(profiles[p].label);
            return false;
        }
        const ProfileKeys& k = *profiles[p].keys;
        if (k.by != c.by) {
            c.error = QStringLiteral("%1: keyed by %2, the others by %3")
                          .arg(profiles[p].label, compareByName(k.by), compareByName(c.by));
            return false;
        }
        gpu[p] = k.gpu;
        c.gpuIdle.push_back(k.gpuIdle);
        for (const QString& w : k.warnings)
            c.warnings.append(QStringLiteral("%1: %2").arg(profiles[p].label, w));
        if (options.normalization == CompareNormalization::PerSecond) {
            if (k.captureNs <= 0) {
                c.error = QStringLiteral("%1: no capture span to normalize by").arg(profiles[p].label);
                return false;
            }
            c.divisor[p] = double(k.captureNs) / 1e9;
        } else if (options.normalization == CompareNormalization::PerIteration) {
            if (profiles[p].iterations <= 0) {
                c.error = QStringLiteral("%1: no instance of the iteration marker").arg(profiles[p].label);
                return false;
            }
            c.divisor[p] = double(profiles[p].iterations);
        }
    }
    return true;
}

/// One row per key of any profile, in order of first appearance, each with one cell per profile.
void mergeKeys(const std::vector<CompareProfile>& profiles, Comparison& c)
{
    const std::size_t n = profiles.size();
    QHash<QString, std::size_t> rowOfKey;
    for (std::size_t p = 0; p < n; ++p) {
        const ProfileKeys& k = *profiles[p].keys;
        for (std::size_t i = 0; i < k.size(); ++i) {
            auto it = rowOfKey.find(k.keys[i]);
            if (it == rowOfKey.end()) {
                it = rowOfKey.insert(k.keys[i], c.rows.size());
                CompareRow row;
                row.key = k.keys[i];
                row.topLevel = k.topLevel[i] != 0;
                row.cells.resize(n);
                c.rows.push_back(std::move(row));
            }
            CompareCell& cell = c.rows[*it].cells[p];
            // A key met twice in one profile has no single median.
            cell.median = cell.present() ? std::numeric_limits<double>::quiet_NaN() : k.values[i].median;
            cell.totalNs += k.values[i].total;
            cell.instances += k.values[i].instances;
        }
    }
}

/// Largest change per call first, then largest total, then by key.
void sortRows(Comparison& c)
{
    // Sort indexes on precomputed keys, then move each row once (rows are heavy: five vectors and a string).
    std::vector<double> largest(c.rows.size(), 0.0);
    for (std::size_t r = 0; r < c.rows.size(); ++r)
        for (const CompareCell& x : c.rows[r].cells)
            largest[r] = std::max(largest[r], x.total);
    std::vector<std::size_t> order(c.rows.size());
    for (std::size_t r = 0; r < order.size(); ++r)
        order[r] = r;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const CompareRow& ra = c.rows[a];
        const CompareRow& rb = c.rows[b];
        if (ra.maxAbsPerCallEffect != rb.maxAbsPerCallEffect)
            return ra.maxAbsPerCallEffect > rb.maxAbsPerCallEffect;
        if (largest[a] != largest[b])
            return largest[a] > largest[b];
        return ra.key < rb.key;
    });
    std::vector<CompareRow> sorted;
    sorted.reserve(c.rows.size());
    for (const std::size_t r : order)
        sorted.push_back(std::move(c.rows[r]));
    c.rows = std::move(sorted);
}

} // namespace

Comparison compareProfiles(const std::vector<CompareProfile>& profiles, const CompareOptions& options)
{
    Comparison c;
    c.normalization = options.normalization;
    c.baseline = options.baseline;
    c.thresholdPercent = options.thresholdPercent;
    c.noiseFloorNs = options.noiseFloorNs;
    const std::size_t n = profiles.size();
    for (const CompareProfile& p : profiles)
        c.profiles.append(p.label);
    if (n == 0)
        return c;
    if (options.baseline >= n) {
        c.error = QStringLiteral("baseline %1 is not one of the %2 profiles").arg(options.baseline).arg(n);
        return c;
    }
    std::vector<KeyValue> gpu;
    if (!takeProfiles(profiles, options, c, gpu))
        return c;
    mergeKeys(profiles, c);
    for (CompareRow& row : c.rows)
        finishRow(row, c.divisor, gpu, options);
    c.totals.key = QStringLiteral("(all GPU time)");
    c.totals.cells.resize(n);
    for (std::size_t p = 0; p < n; ++p) {
        c.totals.cells[p].totalNs = gpu[p].total;
        c.totals.cells[p].instances = gpu[p].instances;
    }
    finishRow(c.totals, c.divisor, gpu, options, true);
    sortRows(c);
    return c;
}

QString compareChangeText(const Comparison& comparison, const CompareRow& row, std::size_t p)
{
    if (p >= row.status.size() || p == comparison.baseline)
        return {};
    const CompareCell& base = row.cells[comparison.baseline];
    const CompareCell& other = row.cells[p];
    if (!base.present() || !other.present())
        return {};
    QStringList words;
    const CompareStatus status = row.status[p];
    if (status == CompareStatus::Regression || status == CompareStatus::Improvement) {
        // (The totals row is judged on its totals: its time per call may not have moved.)
        const double perCall = percentChange(base.average, other.average);
        if (std::fabs(perCall) > comparison.thresholdPercent)
            words.append(perCall > 0 ? QStringLiteral("slower") : QStringLiteral("faster"));
    }
    // Calls per unit of the comparison (totals, per second or per iteration); as counted in per-instance mode.
    const double calls = comparison.normalization == CompareNormalization::PerInstance
        ? percentChange(double(base.instances), double(other.instances))
        : percentChange(base.count, other.count);
    if (std::fabs(calls) > comparison.thresholdPercent)
        words.append(calls > 0 ? QStringLiteral("more calls") : QStringLiteral("fewer calls"));
    return words.join(QStringLiteral(", "));
}

QString compareStatusText(const Comparison& comparison, const CompareRow& row)
{
    const QString status = compareStatusName(row.summary);
    for (std::size_t p = 0; p < row.status.size(); ++p)
        if (p != comparison.baseline && row.status[p] == row.summary)
            if (const QString change = compareChangeText(comparison, row, p); !change.isEmpty())
                return QStringLiteral("%1 (%2)").arg(status, change);
    return status;
}

std::vector<std::size_t> rowsRegressingAbove(const Comparison& comparison, double percent)
{
    std::vector<std::size_t> out;
    for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
        const CompareRow& row = comparison.rows[r];
        for (std::size_t p = 0; p < row.delta.size(); ++p)
            if (p != comparison.baseline && row.delta[p] > comparison.noiseFloorNs && row.deltaPercent[p] > percent) {
                out.push_back(r);
                break;
            }
    }
    return out;
}

} // namespace nsw

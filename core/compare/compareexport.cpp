// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareexport.h"

#include "core/categories/categorytimeline.h"
#include "core/compare/compareheadline.h"
#include "core/util/timeformat.h"

#include <algorithm>
#include <cmath>

namespace nsw {

namespace {
QString suffix(CompareNormalization n)
{
    switch (n) {
    case CompareNormalization::None:
        return {};
    case CompareNormalization::PerSecond:
        return QStringLiteral("/s");
    case CompareNormalization::PerIteration:
        return QStringLiteral("/it");
    case CompareNormalization::PerInstance:
        return QStringLiteral("/inst");
    }
    return {};
}

bool countsAreIntegral(CompareNormalization n)
{
    return n == CompareNormalization::None || n == CompareNormalization::PerInstance;
}

nlohmann::ordered_json number(double v, bool integral)
{
    if (integral)
        return std::int64_t(std::llround(v));
    return v;
}
} // namespace

QStringList compactProfileLabels(const QStringList& labels, int maxChars)
{
    static const QString kSeparator = QStringLiteral(" · "); // "run.sqlite · iteration 5": an iteration entry
    QStringList out;
    for (QString l : labels) {
        for (const QLatin1String ext : { QLatin1String(".sqlite"), QLatin1String(".nsys-rep") }) {
            if (l.endsWith(ext))
                l.chop(ext.size());
            l.replace(ext + kSeparator, kSeparator);
        }
        out.append(l);
    }
    const bool tooLong = std::any_of(out.begin(), out.end(), [&](const QString& l) { return l.size() > maxChars; });
    if (out.size() > 1 && tooLong) {
        qsizetype prefix = out.front().size();
        qsizetype suffix = out.front().size();
        for (const QString& l : out) {
            prefix = std::min(prefix, l.size());
            suffix = std::min(suffix, l.size());
            qsizetype i = 0;
            while (i < prefix && l[i] == out.front()[i])
                ++i;
            prefix = i;
            qsizetype j = 0;
            while (j < suffix && l[l.size() - 1 - j] == out.front()[out.front().size() - 1 - j])
                ++j;
            suffix = j;
        }
        // An iteration entry's name after its profile's: cut there ("iteration 1", not "…1").
        if (const qsizetype separator = out.front().left(prefix).lastIndexOf(kSeparator); separator > 3)
            prefix = separator;
        // What differs is what matters. A label that is all prefix and suffix (a profile beside its own iterations)
        // stays whole; the others lose what they share with it, a separator included ("iteration 5").
        const auto rest = [&](const QString& l) { return l.size() - prefix - (suffix > 3 ? suffix : 0); };
        const qsizetype whole = std::count_if(out.begin(), out.end(), [&](const QString& l) { return rest(l) <= 0; });
        if (whole < out.size() && (prefix > 3 || suffix > 3))
            for (QString& l : out) {
                if (rest(l) <= 0)
                    continue;
                QString middle = l.mid(prefix > 3 ? prefix : 0, prefix > 3 ? rest(l) : l.size() - suffix);
                if (prefix > 3)
                    middle
                        = middle.startsWith(kSeparator) ? middle.mid(kSeparator.size()) : QStringLiteral("…") + middle;
                l = middle + (suffix > 3 ? QStringLiteral("…") : QString());
            }
    }
    for (QString& l : out)
        if (l.size() > maxChars)
            l = l.left(maxChars / 2 - 1) + QStringLiteral("…") + l.right(maxChars / 2);
    return out;
}

QString compactKeyLabel(const QString& key, CompareBy by, int maxChars)
{
    QString label = key;
    if (by == CompareBy::Kernel && key.contains(QLatin1Char('(')))
        label = shortNameOf(key);
    if (label.size() <= maxChars)
        return label;
    if (by == CompareBy::Nvtx)
        return QStringLiteral("…") + label.right(maxChars - 1);
    return label.left(maxChars / 2 - 1) + QStringLiteral("…") + label.right(maxChars / 2);
}

QString formatCompareValue(double ns, CompareNormalization normalization)
{
    return formatDuration(std::llround(ns)) + suffix(normalization);
}

QString formatCompareDelta(double ns, CompareNormalization normalization)
{
    const qint64 rounded = std::llround(ns);
    return (rounded >= 0 ? QStringLiteral("+") : QString()) + formatDuration(rounded) + suffix(normalization);
}

QString formatComparePercent(double percent)
{
    if (std::isinf(percent))
        return percent > 0 ? QStringLiteral("new") : QStringLiteral("-inf");
    return (percent >= 0 ? QStringLiteral("+") : QString()) + QString::number(percent, 'f', 1) + QStringLiteral(" %");
}

QString formatCompareInstancesDelta(double delta, CompareNormalization normalization)
{
    const QString sign = delta >= 0 ? QStringLiteral("+") : QString();
    return sign
        + (countsAreIntegral(normalization) ? QString::number(std::llround(delta)) : QString::number(delta, 'f', 2));
}

nlohmann::ordered_json compareJson(const Comparison& c)
{
    const bool integral = c.normalization == CompareNormalization::None;
    const bool perInstance = c.normalization == CompareNormalization::PerInstance;
    nlohmann::ordered_json out;
    out["by"] = compareByName(c.by).toStdString();
    auto profiles = nlohmann::ordered_json::array();
    for (const QString& p : c.profiles)
        profiles.push_back(p.toStdString());
    out["profiles"] = std::move(profiles);
    auto headline = nlohmann::ordered_json::array();
    for (const QString& line : compareHeadline(c))
        headline.push_back(line.toStdString());
    out["headline"] = std::move(headline);
    auto idle = nlohmann::ordered_json::array();
    for (const std::vector<GpuIdle>& gpus : c.gpuIdle) {
        auto perGpu = nlohmann::ordered_json::array();
        for (const GpuIdle& g : gpus)
            perGpu.push_back({ { "gpu", g.gpu }, { "idle_pct", g.idlePercent } });
        idle.push_back(std::move(perGpu));
    }
    out["gpu_idle"] = std::move(idle);
    auto rows = nlohmann::ordered_json::array();
    for (const CompareRow& row : c.rows) {
        nlohmann::ordered_json r;
        r["key"] = row.key.toStdString();
        auto values = nlohmann::ordered_json::array();
        auto delta = nlohmann::ordered_json::array();
        auto percent = nlohmann::ordered_json::array();
        auto deltaInstances = nlohmann::ordered_json::array();
        for (std::size_t p = 0; p < row.cells.size(); ++p) {
            const CompareCell& cell = row.cells[p];
            nlohmann::ordered_json v;
            if (perInstance) {
                v["total_ns"] = cell.totalNs;
                v["instances"] = cell.instances;
                v["average_ns"] = cell.average;
                v["median_ns"]
                    = std::isnan(cell.median) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(cell.median);
            } else {
                v["total_ns"] = integral ? nlohmann::ordered_json(cell.totalNs) : nlohmann::ordered_json(cell.total);
                v["instances"] = integral ? nlohmann::ordered_json(cell.instances) : nlohmann::ordered_json(cell.count);
            }
            values.push_back(std::move(v));
            deltaInstances.push_back(number(row.deltaInstances[p], countsAreIntegral(c.normalization)));
            delta.push_back(number(row.delta[p], integral));
            if (std::isinf(row.deltaPercent[p]))
                percent.push_back(nullptr);
            else
                percent.push_back(row.deltaPercent[p]);
        }
        r["values"] = std::move(values);
        r["delta_ns"] = std::move(delta);
        r["delta_pct"] = std::move(percent);
        r["delta_instances"] = std::move(deltaInstances);
        r["status"] = compareStatusName(row.summary).toStdString();
        auto perCall = nlohmann::ordered_json::array();
        for (std::size_t p = 0; p < row.cells.size(); ++p)
            perCall.push_back(row.cells[p].present() && row.cells[c.baseline].present()
                    ? nlohmann::ordered_json(row.perCallPercent[p])
                    : nlohmann::ordered_json(nullptr));
        r["per_call_pct"] = std::move(perCall);
        auto change = nlohmann::ordered_json::array();
        for (std::size_t p = 0; p < row.cells.size(); ++p)
            change.push_back(compareChangeText(c, row, p).toStdString());
        r["change"] = std::move(change);
        rows.push_back(std::move(r));
    }
    out["rows"] = std::move(rows);
    return out;
}

QString compareText(const Comparison& c)
{
    const bool perInstance = c.normalization == CompareNormalization::PerInstance;
    QStringList header { QStringLiteral("Status") };
    for (std::size_t p = 0; p < c.profileCount(); ++p) {
        header.append(c.profiles[qsizetype(p)] + (p == c.baseline ? QStringLiteral(" (baseline)") : QString()));
        if (perInstance) {
            header.append(QStringLiteral("Median"));
            header.append(QStringLiteral("Instances"));
        }
        if (p != c.baseline) {
            header.append(QStringLiteral("Delta"));
            header.append(QStringLiteral("Delta instances"));
            header.append(QStringLiteral("Delta %"));
        }
    }
    header.append(QStringLiteral("Key"));
    std::vector<QStringList> lines { header };
    auto addRow = [&](const CompareRow& row) {
        QStringList line { compareStatusText(c, row) };
        for (std::size_t p = 0; p < row.cells.size(); ++p) {
            const CompareCell& cell = row.cells[p];
            line.append(cell.present() ? formatCompareValue(cell.total, c.normalization) : QStringLiteral("-"));
            if (perInstance) {
                line.append(cell.present() && !std::isnan(cell.median)
                        ? formatCompareValue(cell.median, c.normalization)
                        : QStringLiteral("-"));
                line.append(QString::number(cell.instances));
            }
            if (p != c.baseline) {
                line.append(formatCompareDelta(row.delta[p], c.normalization));
                line.append(formatCompareInstancesDelta(row.deltaInstances[p], c.normalization));
                line.append(formatComparePercent(row.deltaPercent[p]));
            }
        }
        line.append(row.key);
        lines.push_back(line);
    };
    addRow(c.totals);
    for (const CompareRow& row : c.rows)
        addRow(row);
    std::vector<qsizetype> width(std::size_t(header.size()), 0);
    for (const QStringList& line : lines)
        for (qsizetype i = 0; i + 1 < line.size(); ++i)
            width[std::size_t(i)] = std::max(width[std::size_t(i)], line[i].size());
    QString text = QStringLiteral("Compared by %1, baseline %2, unit %3, threshold %4 %, noise floor %5 ns\n")
                       .arg(compareByName(c.by), c.profiles.value(qsizetype(c.baseline)), c.unit())
                       .arg(c.thresholdPercent)
                       .arg(c.noiseFloorNs);
    for (const QString& line : compareHeadline(c))
        text += line + QLatin1Char('\n');
    text += QLatin1Char('\n');
    for (const QStringList& line : lines) {
        QString out;
        for (qsizetype i = 0; i < line.size(); ++i) {
            if (i + 1 == line.size())
                out += line[i];
            else if (i == 0)
                out += line[i].leftJustified(width[std::size_t(i)]) + QStringLiteral("  ");
            else
                out += line[i].rightJustified(width[std::size_t(i)]) + QStringLiteral("  ");
        }
        text += out + QLatin1Char('\n');
    }
    return text;
}

} // namespace nsw

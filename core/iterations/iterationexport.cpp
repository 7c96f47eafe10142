// SPDX-License-Identifier: GPL-3.0-or-later
#include "iterationexport.h"

#include "core/util/timeformat.h"

#include <nlohmann/json.hpp>

namespace nsw {

namespace {

QString elided(const QString& text, int width)
{
    return text.size() <= width ? text : text.left(width - 1) + QChar(0x2026);
}

std::string utf8(const QString& s)
{
    return s.toStdString();
}

} // namespace

QString iterationDefinitions()
{
    return QStringLiteral(
        "GPU busy = time in the iteration when at least one GPU runs a kernel or memory operation (union over all "
        "GPUs, clipped to the iteration); GPU idle = duration - GPU busy; kernels = kernels overlapping the "
        "iteration (nsys's range filter), top kernel = the name with the most summed duration among them, top category "
        "the same for the categories of "
        "the rules; outlier = "
        "|duration - median| > 3 x 1.4826 x MAD");
}

QString iterationsText(const IterationTable& table)
{
    QString text = QStringLiteral("Iterations of %1\n").arg(table.profile->meta.filePath);
    if (table.isGuess())
        text += QStringLiteral("GUESS - no iteration marker found. ");
    text += QStringLiteral("Detection: %1\n").arg(table.detection);
    text += iterationDefinitions() + QStringLiteral(".\n");
    if (!table.rulesLabel.isEmpty())
        text += QStringLiteral("Categories: rules %1.\n").arg(table.rulesLabel);
    text += QStringLiteral("%1 iterations, median duration %2, MAD %3, median iteration %4; start is on the "
                           "session clock (the export's own timestamps).\n\n")
                .arg(table.iterations.size())
                .arg(formatDuration(qint64(table.medianDurationNs)), formatDuration(qint64(table.madNs)))
                .arg(table.medianIteration());
    const QStringList header = { QStringLiteral("#"), QStringLiteral("Marker"), QStringLiteral("Start (s)"),
        QStringLiteral("Duration"), QStringLiteral("GPU busy"), QStringLiteral("GPU idle"), QStringLiteral("Kernels"),
        QStringLiteral("Outlier"), QStringLiteral("Top category"), QStringLiteral("Top kernel") };
    std::vector<QStringList> rows;
    for (std::size_t i = 0; i < table.iterations.size(); ++i) {
        const Iteration& it = table.iterations[i];
        rows.push_back({ QString::number(it.index),
            table.isGuess() ? QStringLiteral("guess") : table.profile->strings.at(it.name),
            formatSeconds(it.start - table.clockOrigin, 6), formatDuration(it.duration()), formatDuration(it.gpuBusy),
            formatDuration(it.idle()), QString::number(it.kernels), it.outlier ? QStringLiteral("outlier") : QString(),
            it.topCategory, elided(table.profile->strings.at(it.topKernel), 80) });
    }
    std::vector<qsizetype> width(header.size());
    for (qsizetype c = 0; c < header.size(); ++c) {
        width[std::size_t(c)] = header[c].size();
        for (const QStringList& r : rows)
            width[std::size_t(c)] = std::max(width[std::size_t(c)], r[c].size());
    }
    const auto line = [&](const QStringList& cells) -> QString {
        QString l;
        for (qsizetype c = 0; c < cells.size(); ++c) {
            const bool left = c == 1 || c >= 7;
            const int w = int(width[std::size_t(c)]);
            if (c + 1 == cells.size())
                l += cells[c];
            else
                l += (left ? cells[c].leftJustified(w) : cells[c].rightJustified(w)) + QStringLiteral("  ");
        }
        return l + QLatin1Char('\n');
    };
    text += line(header);
    for (const QStringList& r : rows)
        text += line(r);
    return text;
}

QString iterationsJson(const IterationTable& table, const QStringList& warnings)
{
    using Json = nlohmann::ordered_json;
    Json detection = { { "method", table.isGuess() ? "gpu_idle_gaps" : "nvtx_marker" }, { "guess", table.isGuess() },
        { "marker", utf8(table.marker) }, { "description", utf8(table.detection) },
        { "rules", utf8(table.rulesLabel) } };
    if (table.isGuess()) {
        detection["gap_threshold_ns"] = table.gapThreshold;
        detection["confidence"] = utf8(table.confidenceName());
    }
    Json iterations = Json::array();
    for (const Iteration& it : table.iterations)
        iterations.push_back({ { "index", it.index },
            { "marker", table.isGuess() ? std::string() : utf8(table.profile->strings.at(it.name)) },
            { "start_ns", it.start - table.clockOrigin }, { "duration_ns", it.duration() },
            { "gpu_busy_ns", it.gpuBusy }, { "gpu_idle_ns", it.idle() }, { "kernels", it.kernels },
            { "top_kernel", utf8(table.profile->strings.at(it.topKernel)) }, { "top_kernel_ns", it.topKernelTime },
            { "top_category", utf8(it.topCategory) }, { "top_category_ns", it.topCategoryTime },
            { "outlier", it.outlier } });
    Json warningList = Json::array();
    for (const QString& w : warnings)
        warningList.push_back(utf8(w));
    const Json doc = { { "file", utf8(table.profile->meta.filePath) }, { "detection", detection },
        { "definitions", utf8(iterationDefinitions()) }, { "median_ns", table.medianDurationNs },
        { "mad_ns", table.madNs }, { "median_iteration", table.medianIteration() }, { "iterations", iterations },
        { "warnings", warningList } };
    return QString::fromStdString(doc.dump(2)) + QLatin1Char('\n');
}

} // namespace nsw

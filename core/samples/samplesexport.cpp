// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/samples/samplesexport.h"

#include "core/util/csv.h"

#include <algorithm>
#include <map>

namespace nsw {

namespace {

QString pct(qint64 part, qint64 whole)
{
    return QString::number(samplePercent(part, whole), 'f', 2);
}

/// Preorder of a tree given as parent/children arrays, children by total samples (then name), skipping empty nodes.
template <typename Tree, typename Self, typename Total>
std::vector<SampleTreeRow> preorder(const Profile& profile, const Tree& tree, Self self, Total total)
{
    std::vector<SampleTreeRow> rows;
    rows.reserve(tree.size()); // written only as far as it fills
    std::vector<std::pair<std::int32_t, std::int32_t>> stack; // (node, its parent's row)
    struct Kid
    {
        qint64 total;
        std::uint32_t name; ///< the rank of its name: a node can have a million children, sorted on every re-focus
        std::int32_t node;
    };
    std::vector<Kid> kids;
    const std::shared_ptr<const std::vector<std::uint32_t>> ranks = sampleNameRanksOf(profile);
    const auto pushChildren = [&](std::int32_t node, std::int32_t row) {
        kids.clear();
        for (const std::int32_t c : tree.children(node))
            if (total(c) > 0)
                kids.push_back({ qint64(total(c)), (*ranks)[std::size_t(tree.function[std::size_t(c)] + 1)], c });
        std::sort(kids.begin(), kids.end(),
            [](const Kid& a, const Kid& b) { return a.total != b.total ? a.total > b.total : a.name < b.name; });
        for (auto it = kids.rbegin(); it != kids.rend(); ++it)
            stack.emplace_back(it->node, row);
    };
    pushChildren(0, -1);
    while (!stack.empty()) {
        const auto [node, parentRow] = stack.back();
        stack.pop_back();
        const std::uint32_t depth = parentRow < 0 ? 0 : rows[std::size_t(parentRow)].depth + 1;
        rows.push_back(
            { node, parentRow, depth, tree.function[std::size_t(node)], qint64(self(node)), qint64(total(node)) });
        pushChildren(node, std::int32_t(rows.size() - 1));
    }
    return rows;
}

nlohmann::ordered_json functionJson(
    const Profile& profile, std::int32_t function, qint64 self, qint64 total, qint64 samples)
{
    nlohmann::ordered_json j;
    j["function"] = sampleFunctionName(profile, function).toStdString();
    j["module"] = sampleModuleName(profile, function).toStdString();
    j["self"] = self;
    j["total"] = total;
    j["self_pct"] = samplePercent(self, samples);
    j["total_pct"] = samplePercent(total, samples);
    j["kernel"] = sampleIsKernel(profile, function);
    j["unresolved"] = sampleIsUnresolved(profile, function);
    return j;
}

QString markdownCell(QString text)
{
    return text.replace(QLatin1Char('|'), QLatin1String("\\|")).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

} // namespace

std::vector<SampleTreeRow> topDownRows(const Profile& profile, const SampleCallTree& tree, const SampleCounts& counts)
{
    return preorder(
        profile, tree, [&](std::int32_t n) { return counts.self[std::size_t(n)]; },
        [&](std::int32_t n) { return counts.total[std::size_t(n)]; });
}

std::vector<SampleTreeRow> bottomUpRows(const Profile& profile, const SampleBottomUp& tree)
{
    return preorder(
        profile, tree, [&](std::int32_t n) { return tree.self[std::size_t(n)]; },
        [&](std::int32_t n) { return tree.total[std::size_t(n)]; });
}

bool sampleIsKernel(const Profile& profile, std::int32_t function)
{
    const CpuFunctionTable& f = profile.cpuSamples.functions;
    return function >= 0 && std::size_t(function) < f.size()
        && (f.flags[std::size_t(function)] & CpuFunctionTable::kKernelMode);
}

bool sampleIsUnresolved(const Profile& profile, std::int32_t function)
{
    const CpuFunctionTable& f = profile.cpuSamples.functions;
    return function >= 0 && std::size_t(function) < f.size()
        && (f.flags[std::size_t(function)] & (CpuFunctionTable::kUnresolved | CpuFunctionTable::kNoSymbol));
}

QString sampleFrameLabel(const Profile& profile, std::int32_t function)
{
    QString label = sampleFunctionName(profile, function);
    if (sampleIsKernel(profile, function))
        label += QStringLiteral(" [kernel]");
    if (sampleIsUnresolved(profile, function)
        && profile.cpuSamples.functions.symbol[std::size_t(function)] != kNoString)
        label += QStringLiteral(" [unresolved]");
    return label;
}

QString sampleTreeCsv(const Profile& profile, std::span<const SampleTreeRow> rows, qint64 samples)
{
    QString out = csvLine({ QStringLiteral("Depth"), QStringLiteral("Function"), QStringLiteral("Module"),
        QStringLiteral("Self"), QStringLiteral("Total"), QStringLiteral("Self %"), QStringLiteral("Total %") });
    for (const SampleTreeRow& r : rows)
        out += csvLine(
            { QString::number(r.depth), sampleFunctionName(profile, r.function), sampleModuleName(profile, r.function),
                QString::number(r.self), QString::number(r.total), pct(r.self, samples), pct(r.total, samples) });
    return out;
}

QString sampleCollapsed(const Profile& profile, const SampleCallTree& tree, const SampleCounts& counts)
{
    // The frame text of each function once; each stack's text from its parent's (nodes come after their parents).
    const auto frameText = [&](std::int32_t function) {
        QString name = sampleFunctionName(profile, function);
        name.replace(QLatin1Char(';'), QLatin1Char(':')).replace(QLatin1Char('\n'), QLatin1Char(' '));
        return sampleIsKernel(profile, function) ? name + QStringLiteral("_[k]") : name;
    };
    std::map<QString, qint64> lines;
    if (counts.self[SampleCallTree::kRoot] > 0)
        lines[QStringLiteral("[no call stack]")] += counts.self[SampleCallTree::kRoot];
    for (std::size_t v = 1; v < tree.size(); ++v) {
        if (counts.self[v] == 0)
            continue;
        std::vector<std::int32_t> path;
        for (auto up = std::int32_t(v); up != SampleCallTree::kRoot; up = tree.parent[std::size_t(up)])
            path.push_back(tree.function[std::size_t(up)]);
        QString stack;
        for (auto it = path.rbegin(); it != path.rend(); ++it)
            stack += (stack.isEmpty() ? QString() : QStringLiteral(";")) + frameText(*it);
        lines[stack] += counts.self[v];
    }
    QString out;
    for (const auto& [stack, n] : lines)
        out += stack + QLatin1Char(' ') + QString::number(n) + QLatin1Char('\n');
    return out;
}

namespace {

/// Function, module, self, total and their percentages, as the Markdown tables show a function.
QStringList markdownCells(const Profile& profile, std::int32_t function, qint64 self, qint64 total, qint64 samples)
{
    return { markdownCell(sampleFrameLabel(profile, function)), markdownCell(sampleModuleName(profile, function)),
        QString::number(self), QString::number(total), pct(self, samples), pct(total, samples) };
}

QString markdownTable(
    const QString& heading, const QStringList& columns, const QString& alignment, const std::vector<QStringList>& rows)
{
    QString out = heading + QStringLiteral("\n\n| ") + columns.join(QStringLiteral(" | ")) + QStringLiteral(" |\n")
        + alignment + QLatin1Char('\n');
    for (const QStringList& row : rows)
        out += QStringLiteral("| ") + row.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
    return out;
}

const QStringList kMarkdownColumns { QStringLiteral("Function"), QStringLiteral("Module"), QStringLiteral("Self"),
    QStringLiteral("Total"), QStringLiteral("Self %"), QStringLiteral("Total %") };

} // namespace

QString sampleFlatMarkdown(
    const Profile& profile, std::span<const FunctionCount> functions, qint64 samples, const QString& heading)
{
    std::vector<QStringList> rows;
    for (const FunctionCount& f : functions)
        rows.push_back(markdownCells(profile, f.function, f.self, f.total, samples));
    return markdownTable(heading, kMarkdownColumns, QStringLiteral("|---|---|---:|---:|---:|---:|"), rows);
}

QString sampleTreeMarkdown(
    const Profile& profile, std::span<const SampleTreeRow> rows, qint64 samples, const QString& heading)
{
    std::vector<QStringList> cells;
    for (const SampleTreeRow& r : rows)
        cells.push_back(
            QStringList { QString::number(r.depth) } + markdownCells(profile, r.function, r.self, r.total, samples));
    return markdownTable(heading, QStringList { QStringLiteral("Depth") } + kMarkdownColumns,
        QStringLiteral("|---:|---|---|---:|---:|---:|---:|"), cells);
}

nlohmann::ordered_json sampleFlatJson(const Profile& profile, std::span<const FunctionCount> functions, qint64 samples)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const FunctionCount& f : functions)
        out.push_back(functionJson(profile, f.function, f.self, f.total, samples));
    return out;
}

nlohmann::ordered_json sampleTreeJson(const Profile& profile, std::span<const SampleTreeRow> rows, qint64 samples)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        nlohmann::ordered_json j;
        j["id"] = i;
        j["parent"] = rows[i].parentRow;
        j["depth"] = rows[i].depth;
        j.update(functionJson(profile, rows[i].function, rows[i].self, rows[i].total, samples));
        out.push_back(std::move(j));
    }
    return out;
}

} // namespace nsw

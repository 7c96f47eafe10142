// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxexport.h"

#include "util/timeformat.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace nsw {

namespace {

std::vector<std::int32_t> sortedChildren(const NvtxTree& tree, std::int32_t node)
{
    std::vector<std::int32_t> children = tree.nodes[std::size_t(node)].children;
    std::stable_sort(children.begin(), children.end(), [&tree](std::int32_t a, std::int32_t b) {
        const NvtxNode& na = tree.nodes[std::size_t(a)];
        const NvtxNode& nb = tree.nodes[std::size_t(b)];
        if (na.gpuTime != nb.gpuTime)
            return na.gpuTime > nb.gpuTime;
        if (na.cpuTime != nb.cpuTime)
            return na.cpuTime > nb.cpuTime;
        return tree.label(a) < tree.label(b);
    });
    return children;
}

double rounded(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

nlohmann::ordered_json nodeJson(const NvtxTree& tree, std::int32_t node)
{
    const NvtxNode& n = tree.nodes[std::size_t(node)];
    nlohmann::ordered_json j;
    j["kind"] = nvtxKindName(n.kind).toStdString();
    j["name"] = tree.label(node).toStdString();
    if (n.kind == NvtxNode::Kind::Range || n.kind == NvtxNode::Kind::Kernel)
        j["path"] = tree.path(node).toStdString();
    j["instances"] = n.instances;
    j["cpu_ns"] = n.cpuTime;
    j["gpu_ns"] = n.gpuTime;
    j["projected_ns"] = n.projectedSpan;
    j["kernels"] = n.kernels;
    j["mem_ops"] = n.memOps;
    j["gpu_pct"] = rounded(nvtxGpuPercent(tree, node), 3);
    if (n.unterminated)
        j["unterminated"] = n.unterminated;
    if (n.crossThread)
        j["cross_thread"] = n.crossThread;
    if (!n.children.empty()) {
        nlohmann::ordered_json children = nlohmann::ordered_json::array();
        for (const std::int32_t c : sortedChildren(tree, node))
            children.push_back(nodeJson(tree, c));
        j["children"] = std::move(children);
    }
    return j;
}

QString code(const QString& text)
{
    const QString fence = text.contains(QLatin1Char('`')) ? QStringLiteral("`` ") : QStringLiteral("`");
    const QString close = text.contains(QLatin1Char('`')) ? QStringLiteral(" ``") : QStringLiteral("`");
    return fence + text + close;
}

QString percent(double value)
{
    return QString::number(value, 'f', 1) + QStringLiteral(" %");
}

} // namespace

std::vector<NvtxFlatRow> nvtxPreorder(const NvtxTree& tree)
{
    std::vector<NvtxFlatRow> rows;
    if (tree.nodes.empty())
        return rows;
    rows.reserve(tree.nodes.size() - 1);
    std::vector<NvtxFlatRow> stack;
    const std::vector<std::int32_t> top = sortedChildren(tree, 0);
    for (auto it = top.rbegin(); it != top.rend(); ++it)
        stack.push_back({ *it, 1 });
    while (!stack.empty()) {
        const NvtxFlatRow r = stack.back();
        stack.pop_back();
        rows.push_back(r);
        const std::vector<std::int32_t> children = sortedChildren(tree, r.node);
        for (auto it = children.rbegin(); it != children.rend(); ++it)
            stack.push_back({ *it, r.depth + 1 });
    }
    return rows;
}

double nvtxGpuPercent(const NvtxTree& tree, std::int32_t node)
{
    const TimeNs total = tree.coverage.totalNs;
    return total > 0 ? 100.0 * double(tree.nodes[std::size_t(node)].gpuTime) / double(total) : 0.0;
}

QString nvtxGroupingName(NvtxGrouping grouping)
{
    switch (grouping) {
    case NvtxGrouping::ByThread:
        return QStringLiteral("thread");
    case NvtxGrouping::ByProcess:
        return QStringLiteral("process");
    case NvtxGrouping::Merged:
        return QStringLiteral("merged");
    }
    return {};
}

QString nvtxKindName(NvtxNode::Kind kind)
{
    switch (kind) {
    case NvtxNode::Kind::Root:
        return QStringLiteral("root");
    case NvtxNode::Kind::Process:
        return QStringLiteral("process");
    case NvtxNode::Kind::Thread:
        return QStringLiteral("thread");
    case NvtxNode::Kind::Range:
        return QStringLiteral("range");
    case NvtxNode::Kind::Kernel:
        return QStringLiteral("kernel");
    }
    return {};
}

nlohmann::ordered_json nvtxTreeToJson(const NvtxTree& tree, const std::vector<NvtxPhaseRow>* phases)
{
    nlohmann::ordered_json j;
    j["file"] = tree.profile ? tree.profile->meta.filePath.toStdString() : std::string();
    j["grouping"] = nvtxGroupingName(tree.options.grouping).toStdString();
    j["normalized"] = tree.options.normalizeNames;
    j["coverage"] = { { "attributed_ns", tree.coverage.attributedNs }, { "total_ns", tree.coverage.totalNs },
        { "pct", rounded(tree.coverage.percent(), 2) } };
    j["kernels"] = { { "attributed", tree.coverage.attributedKernels }, { "total", tree.coverage.totalKernels } };
    j["ranges"] = tree.ranges;
    j["marks"] = tree.marks;
    j["unterminated"] = tree.unterminated;
    j["cross_thread"] = tree.crossThread;
    if (phases) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const NvtxPhaseRow& p : *phases) {
            const double pct
                = tree.coverage.totalNs > 0 ? 100.0 * double(p.gpuTime) / double(tree.coverage.totalNs) : 0.0;
            rows.push_back({ { "phase", p.phase.toStdString() }, { "instances", p.instances }, { "cpu_ns", p.cpuTime },
                { "gpu_ns", p.gpuTime }, { "kernels", p.kernels }, { "gpu_pct", rounded(pct, 3) } });
        }
        j["phases"] = std::move(rows);
    }
    nlohmann::ordered_json roots = nlohmann::ordered_json::array();
    if (!tree.nodes.empty())
        for (const std::int32_t c : sortedChildren(tree, 0))
            roots.push_back(nodeJson(tree, c));
    j["tree"] = std::move(roots);
    return j;
}

QString nvtxTreeToMarkdown(const NvtxTree& tree, const std::vector<NvtxPhaseRow>* phases)
{
    QString md;
    const QString file = tree.profile ? QFileInfo(tree.profile->meta.filePath).fileName() : QString();
    md += QStringLiteral("# NVTX ranges: %1\n\n").arg(file);
    const NvtxCoverage& c = tree.coverage;
    md += QStringLiteral("Coverage: %1 of kernel time is inside NVTX ranges (%2 of %3, %4 of %5 kernels).\n")
              .arg(percent(c.percent()), formatDuration(c.attributedNs), formatDuration(c.totalNs))
              .arg(c.attributedKernels)
              .arg(c.totalKernels);
    md += QStringLiteral("Ranges: %1 (%2 unterminated, %3 ended on another thread); marks: %4. Grouping: %5%6.\n")
              .arg(tree.ranges)
              .arg(tree.unterminated)
              .arg(tree.crossThread)
              .arg(tree.marks)
              .arg(nvtxGroupingName(tree.options.grouping),
                  tree.options.normalizeNames ? QStringLiteral(", numbers in names normalized") : QString());
    if (phases) {
        md += QStringLiteral(
            "\n## Phases\n\n| Phase | Ranges | CPU | GPU | GPU % | Kernels |\n|---|---:|---:|---:|---:|---:|\n");
        for (const NvtxPhaseRow& p : *phases) {
            const double pct = c.totalNs > 0 ? 100.0 * double(p.gpuTime) / double(c.totalNs) : 0.0;
            md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                      .arg(p.phase)
                      .arg(p.instances)
                      .arg(formatDuration(p.cpuTime), formatDuration(p.gpuTime), percent(pct))
                      .arg(p.kernels);
        }
    }
    md += QStringLiteral("\n## Tree\n\n");
    for (const NvtxFlatRow& r : nvtxPreorder(tree)) {
        const NvtxNode& n = tree.nodes[std::size_t(r.node)];
        const QString indent(2 * (r.depth - 1), QLatin1Char(' '));
        const QString gpu
            = QStringLiteral("GPU %1 (%2)").arg(formatDuration(n.gpuTime), percent(nvtxGpuPercent(tree, r.node)));
        switch (n.kind) {
        case NvtxNode::Kind::Kernel:
            md += QStringLiteral("%1- %2 ×%3 · %4\n").arg(indent, code(tree.label(r.node))).arg(n.instances).arg(gpu);
            break;
        case NvtxNode::Kind::Range:
            md += QStringLiteral("%1- **%2** ×%3 · CPU %4 · %5 · span %6 · %7 kernels%8\n")
                      .arg(indent, code(tree.label(r.node)))
                      .arg(n.instances)
                      .arg(formatDuration(n.cpuTime), gpu, formatDuration(n.projectedSpan))
                      .arg(n.kernels)
                      .arg(n.unterminated ? QStringLiteral(" · %1 unterminated").arg(n.unterminated) : QString());
            break;
        default:
            md += QStringLiteral("%1- %2 · %3 · %4 kernels\n").arg(indent, tree.label(r.node), gpu).arg(n.kernels);
            break;
        }
    }
    return md;
}

} // namespace nsw

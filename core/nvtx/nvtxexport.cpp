// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxexport.h"

#include "core/util/timeformat.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

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

/// Collects text and hands it to the device in large writes.
class ChunkedWriter
{
public:
    explicit ChunkedWriter(QIODevice& out)
        : m_out(out)
    {
        m_buffer.reserve(kChunk + 4096);
    }
    ChunkedWriter& operator<<(std::string_view text)
    {
        m_buffer.append(text);
        if (m_buffer.size() >= kChunk)
            flush();
        return *this;
    }
    ChunkedWriter& operator<<(const char* text) { return *this << std::string_view(text); }
    ChunkedWriter& operator<<(const QString& text)
    {
        const QByteArray utf8 = text.toUtf8();
        return *this << std::string_view(utf8.constData(), std::size_t(utf8.size()));
    }
    bool flush()
    {
        if (m_ok && !m_buffer.empty())
            m_ok = m_out.write(m_buffer.data(), qint64(m_buffer.size())) == qint64(m_buffer.size());
        m_buffer.clear();
        return m_ok;
    }

private:
    static constexpr std::size_t kChunk = std::size_t(1) << 20;
    QIODevice& m_out;
    std::string m_buffer;
    bool m_ok = true;
};

std::string jsonString(const QString& text)
{
    return nlohmann::ordered_json(text.toStdString()).dump();
}

/// One node at @p depth (1 = a child of the root) as nlohmann's dump(2) prints it when the object's opening brace is
/// at column @p indent.
void writeNodeJson(const NvtxTree& tree, std::int32_t node, int depth, int indent, ChunkedWriter& w)
{
    const NvtxNode& n = tree.nodes[std::size_t(node)];
    const std::string pad(std::size_t(indent) + 2, ' ');
    bool first = true;
    const auto key = [&](std::string_view name) {
        w << (first ? "{\n" : ",\n") << pad << "\"" << name << "\": ";
        first = false;
    };
    const auto integer = [&](std::string_view name, qint64 value) {
        key(name);
        w << std::to_string(value);
    };
    key("kind");
    w << jsonString(nvtxKindName(n.kind));
    key("name");
    w << jsonString(tree.outputLabel(node));
    if (n.kind == NvtxNode::Kind::Range || n.kind == NvtxNode::Kind::Kernel) {
        key("path");
        w << jsonString(tree.outputPath(node));
    }
    integer("instances", n.instances);
    integer("cpu_ns", n.cpuTime);
    integer("gpu_ns", n.gpuTime);
    integer("projected_ns", n.projectedSpan);
    integer("kernels", n.kernels);
    integer("mem_ops", n.memOps);
    key("gpu_pct");
    w << nlohmann::ordered_json(rounded(nvtxGpuPercent(tree, node), 3)).dump();
    if (n.unterminated)
        integer("unterminated", n.unterminated);
    if (n.crossThread)
        integer("cross_thread", n.crossThread);
    if (!n.children.empty() && depth >= kMaxExportedNvtxDepth) {
        const NvtxFolding folded = nvtxFoldedBelow(tree, depth, node, depth);
        integer("folded_levels", folded.levels);
        integer("folded_nodes", folded.nodes);
    } else if (!n.children.empty()) {
        key("children");
        const std::string childPad(std::size_t(indent) + 4, ' ');
        bool firstChild = true;
        for (const std::int32_t c : sortedChildren(tree, node)) {
            w << (firstChild ? "[\n" : ",\n") << childPad;
            firstChild = false;
            writeNodeJson(tree, c, depth + 1, indent + 4, w);
        }
        w << "\n" << pad << "]";
    }
    w << "\n" << std::string(std::size_t(indent), ' ') << "}";
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

NvtxFolding nvtxFoldedBelow(const NvtxTree& tree, int maxDepth, std::int32_t node, int nodeDepth)
{
    NvtxFolding folded;
    if (tree.nodes.empty())
        return folded;
    std::vector<std::pair<std::int32_t, int>> stack { { node, nodeDepth } };
    while (!stack.empty()) {
        const auto [n, depth] = stack.back();
        stack.pop_back();
        if (depth > maxDepth) {
            ++folded.nodes;
            folded.levels = std::max(folded.levels, depth - maxDepth);
        }
        for (const std::int32_t c : tree.nodes[std::size_t(n)].children)
            stack.emplace_back(c, depth + 1);
    }
    return folded;
}

std::vector<NvtxFlatRow> nvtxPreorder(const NvtxTree& tree, int maxDepth)
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
        if (r.depth >= maxDepth)
            continue;
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

bool writeNvtxTreeJson(const NvtxTree& tree, const std::vector<NvtxPhaseRow>* phases, QIODevice& out,
    const nlohmann::ordered_json* context)
{
    nlohmann::ordered_json j;
    j["file"] = tree.profile ? tree.profile->meta.filePath.toStdString() : std::string();
    j["grouping"] = nvtxGroupingName(tree.options.grouping).toStdString();
    j["normalized"] = tree.options.normalizeNames;
    if (context)
        for (const auto& [key, value] : context->items())
            j[key] = value;
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
    std::string header = j.dump(2);
    header.resize(header.size() - 2); // "\n}": the tree follows
    ChunkedWriter w(out);
    w << header << ",\n  \"tree\": ";
    const std::vector<std::int32_t> roots = tree.nodes.empty() ? std::vector<std::int32_t> {} : sortedChildren(tree, 0);
    for (std::size_t i = 0; i < roots.size(); ++i) {
        w << (i == 0 ? "[\n    " : ",\n    ");
        writeNodeJson(tree, roots[i], 1, 4, w);
    }
    w << (roots.empty() ? "[]" : "\n  ]") << "\n}\n";
    return w.flush();
}

bool writeNvtxTreeMarkdown(const NvtxTree& tree, const std::vector<NvtxPhaseRow>* phases, QIODevice& out)
{
    QString md;
    ChunkedWriter w(out);
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
    w << md;
    for (const NvtxFlatRow& r : nvtxPreorder(tree)) {
        const NvtxNode& n = tree.nodes[std::size_t(r.node)];
        const QString indent(2 * (r.depth - 1), QLatin1Char(' '));
        const QString gpu
            = QStringLiteral("GPU %1 (%2)").arg(formatDuration(n.gpuTime), percent(nvtxGpuPercent(tree, r.node)));
        switch (n.kind) {
        case NvtxNode::Kind::Kernel:
            w << QStringLiteral("%1- %2 ×%3 · %4\n")
                     .arg(indent, code(tree.outputLabel(r.node)))
                     .arg(n.instances)
                     .arg(gpu);
            break;
        case NvtxNode::Kind::Range:
            w << QStringLiteral("%1- **%2** ×%3 · CPU %4 · %5 · span %6 · %7 kernels%8\n")
                     .arg(indent, code(tree.outputLabel(r.node)))
                     .arg(n.instances)
                     .arg(formatDuration(n.cpuTime), gpu, formatDuration(n.projectedSpan))
                     .arg(n.kernels)
                     .arg(n.unterminated ? QStringLiteral(" · %1 unterminated").arg(n.unterminated) : QString());
            break;
        default:
            w << QStringLiteral("%1- %2 · %3 · %4 kernels\n").arg(indent, tree.outputLabel(r.node), gpu).arg(n.kernels);
            break;
        }
        if (r.depth >= kMaxExportedNvtxDepth && !n.children.empty()) {
            const NvtxFolding folded = nvtxFoldedBelow(tree, r.depth, r.node, r.depth);
            w << QStringLiteral("%1  - … %2 deeper levels folded (%3 nodes)\n")
                     .arg(indent)
                     .arg(folded.levels)
                     .arg(folded.nodes);
        }
    }
    return w.flush();
}

} // namespace nsw

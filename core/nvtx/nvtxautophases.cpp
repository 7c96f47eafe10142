// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvtx/nvtxautophases.h"

#include <QHash>
#include <QSet>
#include <algorithm>

namespace nsw {

namespace {

using Level = std::vector<std::int32_t>;

class LevelFinder
{
public:
    explicit LevelFinder(const NvtxTree& tree)
        : m_tree(tree)
    { }

    /// The range's name up to its numbers, whether or not the tree was built with normalized names.
    QString name(std::int32_t node) const
    {
        const QString& name = m_tree.names[std::size_t(m_tree.nodes[std::size_t(node)].name)];
        return m_tree.options.normalizeNames ? name : normalizeNvtxName(name);
    }

    /// "domain:name" up to the name's numbers: what ranges of one phase share.
    QString label(std::int32_t node) const
    {
        const NvtxNode& n = m_tree.nodes[std::size_t(node)];
        return nvtxRangeLabel(m_tree.domainLabels[std::size_t(n.domain)], name(node));
    }

    bool isRange(std::int32_t node) const
    {
        return node >= 0 && m_tree.nodes[std::size_t(node)].kind == NvtxNode::Kind::Range;
    }

    Level rangesUnder(const Level& parents) const
    {
        Level level;
        for (const std::int32_t p : parents)
            for (const std::int32_t c : m_tree.nodes[std::size_t(p)].children)
                if (isRange(c))
                    level.push_back(c);
        return level;
    }

    /// The outermost ranges of the marker (a marker range inside another is part of it), whatever their depth.
    Level markerRanges(const QStringList& markerNames) const
    {
        QSet<QString> markers;
        for (const QString& name : markerNames)
            markers.insert(normalizeNvtxName(name));
        std::vector<char> inMarker(m_tree.nodes.size(), 0);
        Level found;
        for (std::size_t i = 1; i < m_tree.nodes.size(); ++i) {
            const NvtxNode& n = m_tree.nodes[i];
            inMarker[i] = inMarker[std::size_t(n.parent)];
            if (!inMarker[i] && n.kind == NvtxNode::Kind::Range && markers.contains(name(std::int32_t(i)))) {
                inMarker[i] = 1;
                found.push_back(std::int32_t(i));
            }
        }
        return found;
    }

    Level outermostRanges() const
    {
        Level level;
        for (std::size_t i = 1; i < m_tree.nodes.size(); ++i)
            if (isRange(std::int32_t(i)) && !isRange(m_tree.nodes[i].parent))
                level.push_back(std::int32_t(i));
        return level;
    }

    /// The one label all ranges of @p level share, or empty when they have several.
    QString onlyLabel(const Level& level) const
    {
        QString only;
        for (const std::int32_t node : level) {
            const QString label = this->label(node);
            if (!only.isEmpty() && label != only)
                return {};
            only = label;
        }
        return only;
    }

private:
    const NvtxTree& m_tree;
};

QString markerWords(const QStringList& names)
{
    if (names.size() == 1)
        return names.front();
    return QStringLiteral("%1 … %2").arg(names.front(), names.back());
}

} // namespace

NvtxLevelPhases nvtxLevelPhases(const NvtxTree& tree, const QStringList& markerNames)
{
    NvtxLevelPhases out;
    const LevelFinder finder(tree);
    Level level;
    if (!markerNames.isEmpty()) {
        level = finder.rangesUnder(finder.markerRanges(markerNames));
        out.level
            = QStringLiteral("the NVTX ranges directly under the iteration marker (%1)").arg(markerWords(markerNames));
    }
    if (level.empty()) {
        level = finder.outermostRanges();
        QStringList wrappers;
        for (QString only = finder.onlyLabel(level); !only.isEmpty(); only = finder.onlyLabel(level)) {
            Level under = finder.rangesUnder(level);
            if (under.empty())
                break;
            wrappers << only;
            level = std::move(under);
        }
        out.level = wrappers.isEmpty()
            ? QStringLiteral("the outermost NVTX ranges")
            : QStringLiteral("the NVTX ranges under %1").arg(wrappers.join(QStringLiteral(" > ")));
    }
    if (level.empty()) {
        out.missing = QStringLiteral("no NVTX ranges");
        return out;
    }
    if (const QString only = finder.onlyLabel(level); !only.isEmpty()) {
        out.missing = QStringLiteral("%1 all have one name (%2): no phases to compare").arg(out.level, only);
        return out;
    }
    QHash<QString, std::size_t> rowOf;
    const NvtxTable& nvtx = tree.profile->nvtx;
    const auto earlier = [&](std::int64_t a, std::int64_t b) {
        return b < 0 || (a >= 0 && std::pair(nvtx.start[std::size_t(a)], a) < std::pair(nvtx.start[std::size_t(b)], b));
    };
    for (const std::int32_t node : level) {
        const QString label = finder.label(node);
        auto it = rowOf.find(label);
        if (it == rowOf.end()) {
            it = rowOf.insert(label, out.rows.size());
            out.rows.push_back({ label });
        }
        const NvtxNode& n = tree.nodes[std::size_t(node)];
        NvtxPhaseRow& row = out.rows[it.value()];
        row.instances += n.instances;
        row.cpuTime += n.cpuTime;
        row.gpuTime += n.gpuTime;
        row.kernels += n.kernels;
        if (earlier(n.firstRow, row.firstRow))
            row.firstRow = n.firstRow;
    }
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const NvtxPhaseRow& a, const NvtxPhaseRow& b) {
        return a.gpuTime != b.gpuTime ? a.gpuTime > b.gpuTime : a.cpuTime > b.cpuTime;
    });
    return out;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxphases.h"

#include "core/util/boundedregex.h"
#include "core/util/numberformat.h"
#include "core/util/stringlists.h"
#include "core/util/userfile.h"

#include <QHash>
#include <QRegularExpression>
#include <nlohmann/json.hpp>

namespace nsw {

NvtxPhaseMap NvtxPhaseMap::fromJson(const QByteArray& json, QString* error)
{
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return NvtxPhaseMap();
    };
    nlohmann::ordered_json doc;
    try {
        doc = nlohmann::ordered_json::parse(json.constData(), json.constData() + json.size());
    } catch (const nlohmann::json::parse_error& e) {
        return fail(QStringLiteral("not valid JSON (%1)").arg(QString::fromUtf8(e.what())));
    }
    if (!doc.is_object())
        return fail(QStringLiteral("expected a JSON object {\"phase\": [\"pattern\", ...]}"));
    if (doc.empty())
        return fail(QStringLiteral("defines no phase"));
    NvtxPhaseMap map;
    for (const auto& [key, value] : doc.items()) {
        const QString phase = QString::fromStdString(key);
        if (phase.isEmpty())
            return fail(QStringLiteral("a phase has an empty name"));
        if (!value.is_array())
            return fail(QStringLiteral("phase \"%1\": expected an array of patterns").arg(phase));
        Phase p;
        p.name = phase;
        for (const auto& item : value) {
            if (!item.is_string())
                return fail(QStringLiteral("phase \"%1\": every pattern must be a string").arg(phase));
            const QString text = QString::fromStdString(item.get<std::string>());
            Pattern pattern;
            if (text.startsWith(QLatin1String("re:"))) {
                const QRegularExpression check(text.mid(3));
                if (!check.isValid())
                    return fail(QStringLiteral("phase \"%1\": invalid regular expression \"%2\": %3")
                                    .arg(phase, text.mid(3), check.errorString()));
                if (const qsizetype at = pcreRecursionAt(text.mid(3)); at >= 0)
                    return fail(QStringLiteral("phase \"%1\": regular expression \"%2\": recursion at offset %3 is "
                                               "not supported (its cost has no bound)")
                                    .arg(phase, text.mid(3))
                                    .arg(at));
                pattern.regex = std::make_shared<const BoundedRegex>(text.mid(3), false);
                ++map.m_regexCount;
            } else if (text.isEmpty()) {
                return fail(QStringLiteral("phase \"%1\": empty pattern").arg(phase));
            } else {
                pattern.substring = text;
            }
            p.patterns.push_back(std::move(pattern));
        }
        map.m_phases.push_back(std::move(p));
    }
    return map;
}

NvtxPhaseMap NvtxPhaseMap::load(const QString& fileName, QString* error)
{
    QString reason;
    const std::optional<QByteArray> bytes = readUserFile(fileName, &reason);
    if (!bytes) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(fileName, reason);
        return {};
    }
    NvtxPhaseMap map = fromJson(*bytes, &reason);
    if (!reason.isEmpty() && error)
        *error = QStringLiteral("%1: %2").arg(fileName, reason);
    return map;
}

QStringList NvtxPhaseMap::phases() const
{
    return textsOf(m_phases, &Phase::name);
}

int NvtxPhaseMap::phaseOf(const QString& name, Budget* budget) const
{
    if (budget) {
        budget->lastOverBudget = budget->lastNotTried = false;
        budget->overBudget.resize(std::size_t(m_regexCount), 0);
    }
    std::size_t regexIndex = 0;
    for (std::size_t i = 0; i < m_phases.size(); ++i)
        for (const Pattern& pattern : m_phases[i].patterns) {
            if (!pattern.regex) {
                if (name.contains(pattern.substring, Qt::CaseInsensitive))
                    return int(i);
                continue;
            }
            int* overBudget = budget ? &budget->overBudget[regexIndex++] : nullptr;
            if (overBudget && *overBudget >= BoundedRegex::kMaxOverBudgetSubjects) {
                budget->lastNotTried = true;
                continue;
            }
            switch (pattern.regex->search(name, budget ? budget->matchLimit() : BoundedRegex::kMatchLimit)) {
            case BoundedRegex::Outcome::Match:
                return int(i);
            case BoundedRegex::Outcome::NoMatch:
                break;
            case BoundedRegex::Outcome::OverBudget:
                if (budget) {
                    ++*overBudget;
                    ++budget->overBudgetTotal;
                    budget->lastOverBudget = true;
                }
                break;
            }
        }
    return -1;
}

namespace {

/// The phase of each distinct name, matched once (a tree repeats names under many parents), and the names some
/// pattern could not decide.
class PhaseLookup
{
public:
    explicit PhaseLookup(const NvtxPhaseMap& map)
        : m_map(map)
    { }

    int phaseOf(const QString& name)
    {
        if (const auto it = m_phases.constFind(name); it != m_phases.constEnd())
            return it.value();
        const int phase = m_map.phaseOf(name, &m_budget);
        if (m_budget.lastOverBudget)
            m_overBudget.append(name);
        else if (m_budget.lastNotTried)
            ++m_notTried;
        m_phases.insert(name, phase);
        return phase;
    }

    QString warning() const
    {
        if (m_overBudget.isEmpty())
            return {};
        QString text = QStringLiteral("phase map: a pattern is too expensive on '%1'").arg(m_overBudget.front());
        if (m_overBudget.size() > 1)
            text += QStringLiteral(" and %1").arg(
                countOf(m_overBudget.size() - 1, QStringLiteral("other name"), QStringLiteral("other names")));
        if (m_notTried > 0)
            text += QStringLiteral(", not tried on %1")
                        .arg(countOf(m_notTried, QStringLiteral("more name"), QStringLiteral("more names")));
        const QString limit = m_budget.matchLimit() == BoundedRegex::kMatchLimit
            ? QString::number(BoundedRegex::kMatchLimit)
            : QStringLiteral("%1 (%2 once the map's patterns had gone over it %3 times)")
                  .arg(BoundedRegex::kMatchLimit)
                  .arg(BoundedRegex::kSpentMatchLimit)
                  .arg(BoundedRegex::kMaxOverBudgetTotal);
        return text
            + QStringLiteral(" (over the regex's budget of %1 steps per name: not counted as matching it)").arg(limit);
    }

private:
    const NvtxPhaseMap& m_map;
    NvtxPhaseMap::Budget m_budget;
    QHash<QString, int> m_phases;
    QStringList m_overBudget;
    qint64 m_notTried = 0;
};

} // namespace

std::vector<NvtxPhaseRow> nvtxPhaseTimes(const NvtxTree& tree, const NvtxPhaseMap& map, QStringList* warnings)
{
    PhaseLookup lookup(map);
    const QStringList phases = map.phases();
    std::vector<NvtxPhaseRow> rows(std::size_t(phases.size()) + 1);
    for (int i = 0; i < phases.size(); ++i)
        rows[std::size_t(i)].phase = phases[i];
    rows.back().phase = kUnmappedPhase;
    const auto unmapped = int(phases.size());

    // Once per node (aggregated path), never per instance; parents come before children.
    std::vector<int> phase(tree.nodes.size(), unmapped);
    for (std::size_t i = 1; i < tree.nodes.size(); ++i) {
        const NvtxNode& n = tree.nodes[i];
        if (n.kind != NvtxNode::Kind::Range)
            continue;
        const NvtxNode& parent = tree.nodes[std::size_t(n.parent)];
        const bool parentIsRange = parent.kind == NvtxNode::Kind::Range;
        int own = lookup.phaseOf(tree.names[std::size_t(n.name)]);
        if (own < 0 && n.domain > 0)
            own = lookup.phaseOf(tree.label(std::int32_t(i)));
        phase[i] = own >= 0 ? own : (parentIsRange ? phase[std::size_t(n.parent)] : unmapped);
        NvtxPhaseRow& row = rows[std::size_t(phase[i])];
        if (!parentIsRange || phase[std::size_t(n.parent)] != phase[i]) {
            row.instances += n.instances;
            row.cpuTime += n.cpuTime;
        }
        qint64 selfKernels = n.kernels;
        for (const std::int32_t c : n.children)
            if (tree.nodes[std::size_t(c)].kind == NvtxNode::Kind::Range)
                selfKernels -= tree.nodes[std::size_t(c)].kernels;
        row.gpuTime += tree.selfGpuTime(std::int32_t(i));
        row.kernels += selfKernels;
    }
    if (const QString w = lookup.warning(); !w.isEmpty() && warnings)
        warnings->append(w);
    return rows;
}

} // namespace nsw

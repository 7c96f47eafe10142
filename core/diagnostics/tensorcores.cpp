// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/tensorcores.h"

#include "core/categories/ruleevaluation.h"
#include "core/categories/rulelibrary.h"

#include <QRegularExpression>
#include <algorithm>
#include <map>
#include <unordered_map>

namespace nsw {

std::shared_ptr<const RuleList> shippedTensorCoreRules()
{
    static const std::shared_ptr<const RuleList> rules = [] {
        const RuleSource source = RuleLibrary::shippedSet(QStringLiteral("tensorcores"));
        const RuleEngine* engine = source.document.engine(QStringLiteral("tensorcores"));
        const RuleList* list = engine ? engine->model(QStringLiteral("name-heuristic")) : nullptr;
        return list ? std::make_shared<const RuleList>(*list) : std::make_shared<const RuleList>();
    }();
    return rules;
}

std::shared_ptr<const RuleList> tensorCoreRulesOf(const RuleLibrary& library)
{
    const QString engine = QStringLiteral("tensorcores");
    const QStringList models = library.models(engine);
    if (models.isEmpty())
        return shippedTensorCoreRules();
    const QString model
        = models.contains(QStringLiteral("name-heuristic")) ? QStringLiteral("name-heuristic") : models.first();
    const RuleList* list = library.find(engine, model);
    return list ? std::make_shared<const RuleList>(*list) : shippedTensorCoreRules();
}

TensorCoreResult computeTensorCores(
    const AnalysisContext& c, const std::shared_ptr<const RuleList>& rulesIn, const JobContext& job)
{
    TensorCoreResult out;
    const std::shared_ptr<const RuleList> rules = rulesIn ? rulesIn : shippedTensorCoreRules();
    out.rules = rules->engine + QLatin1Char('/') + rules->model;
    const Profile& p = *c.profile;
    // Each distinct name is matched once.
    std::unordered_map<StringRef, int> nameIndex;
    NameSet names;
    struct PerName
    {
        qint64 instances = 0;
        TimeNs ns = 0;
    };
    std::vector<PerName> perName;
    std::map<int, std::unordered_map<int, TimeNs>> byDevice; // device -> name index -> time
    c.forEachKernel([&](std::size_t i) {
        const StringRef ref = c.kernelNameRef(i);
        auto [it, added] = nameIndex.try_emplace(ref, int(names.size()));
        if (added) {
            names.demangled << p.strings.at(ref);
            names.shortNames << p.strings.at(i < p.kernels.shortName.size() ? p.kernels.shortName[i] : ref);
            perName.emplace_back();
        }
        ++perName[std::size_t(it->second)].instances;
        perName[std::size_t(it->second)].ns += p.kernels.duration(i);
        byDevice[c.kernelDevice[i]][it->second] += p.kernels.duration(i);
    });
    if (job.isCancelled())
        return out;
    RuleMatchCache cache(names);
    const RuleEvaluation evaluation = evaluateRules(*rules, cache, nullptr);
    auto tensorCore = [&](int name) {
        const int rule = evaluation.ruleOfName[std::size_t(name)];
        return rule >= 0 && rules->rules[std::size_t(rule)].category == kTensorCoreCategory;
    };
    out.total.device = -1;
    for (const auto& [device, times] : byDevice) {
        TensorCoreDevice d;
        d.device = device;
        for (const auto& [name, ns] : times) {
            d.kernelNs += ns;
            d.tensorCoreNs += tensorCore(name) ? ns : 0;
        }
        out.total.kernelNs += d.kernelNs;
        out.total.tensorCoreNs += d.tensorCoreNs;
        out.devices.push_back(d);
    }
    static const QRegularExpression matrix(
        QStringLiteral("gemm|matmul|conv|gemv|mma|_mm_|bmm"), QRegularExpression::CaseInsensitiveOption);
    for (std::size_t n = 0; n < perName.size(); ++n)
        if (!tensorCore(int(n)))
            out.biggestOthers.push_back({ names.demangled[qsizetype(n)], perName[n].instances, perName[n].ns,
                out.total.kernelNs > 0 ? 100.0 * double(perName[n].ns) / double(out.total.kernelNs) : 0.0,
                matrix.match(names.demangled[qsizetype(n)]).hasMatch() });
    std::sort(out.biggestOthers.begin(), out.biggestOthers.end(),
        [](const auto& a, const auto& b) { return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name; });
    if (out.biggestOthers.size() > 10)
        out.biggestOthers.resize(10);
    return out;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparecontroller.h"

#include "core/controllers/categorycontroller.h"
#include "core/jobs/logging.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"

#include <QCryptographicHash>
#include <algorithm>
#include <map>
#include <set>

namespace nsw {

namespace {
/// Per session: the entries of the last few key choices (most recent last) and the iteration counts per marker.
struct CompareCache
{
    static constexpr std::size_t kMaxEntries = 12; ///< key choices × (the profile and its compared iterations)
    std::vector<std::pair<QString, std::shared_ptr<const CompareEntry>>> entries;
    std::map<QString, std::int64_t> iterations;

    std::shared_ptr<const CompareEntry> find(const QString& spec) const
    {
        for (const auto& [s, e] : entries)
            if (s == spec)
                return e;
        return nullptr;
    }
    void put(const QString& spec, std::shared_ptr<const CompareEntry> entry)
    {
        std::erase_if(entries, [&](const auto& e) { return e.first == spec; });
        entries.emplace_back(spec, std::move(entry));
        if (entries.size() > kMaxEntries)
            entries.erase(entries.begin());
    }
};

std::shared_ptr<CompareCache> cacheOf(ProfileSession* session)
{
    auto cache = session->attachment<CompareCache>(CompareController::attachmentKey());
    if (!cache) {
        cache = std::make_shared<CompareCache>();
        session->setAttachment(CompareController::attachmentKey(), cache);
    }
    return cache;
}

/// The part of a cache key that names a session's focus ("" for the whole capture).
QString focusKey(const FocusRange& focus)
{
    return focus.isActive() ? QStringLiteral("/focus/%1:%2").arg(focus.start).arg(focus.end) : QString();
}

struct Input
{
    QPointer<ProfileSession> session;
    QString label;
    ProfilePtr profile;
    FocusRange focus; ///< the session's: its keys count what overlaps it
    std::shared_ptr<const CompareEntry> entry;
    std::shared_ptr<const KernelIndex> index;
    std::shared_ptr<CategorySessionData> categories;
    std::int64_t iterations = -1;
};

struct Output
{
    std::vector<std::shared_ptr<const CompareEntry>> entries;
    std::vector<std::shared_ptr<CategorySessionData>> builtCategories; ///< timelines built here, to attach
    std::vector<std::int64_t> iterations;
    Comparison comparison;
    int computed = 0;
};

/// The session's entry for @p settings, built on the session's kernel index and category data when it holds them
/// (category data built here lands in @p builtCategories, to attach to the session).
/// Its error (a cancel, or e.g. a rule set too large to evaluate) when it fails.
Result<std::shared_ptr<const CompareEntry>> computeEntry(const Input& in, const CompareController::Settings& settings,
    const RuleList& rules, TimeMode mode, std::shared_ptr<CategorySessionData>* builtCategories, const JobContext& job)
{
    CompareEntryRequest request;
    request.profile = in.profile;
    request.options.by = settings.by;
    request.options.kernelNames = settings.kernelNames;
    request.options.normalizeNames = settings.normalizeNames;
    request.options.rules = rules;
    request.options.timeMode = mode;
    request.focus = in.focus;
    request.forLinking = true;
    request.index = in.index;
    if (settings.by == CompareBy::Category) {
        std::shared_ptr<CategorySessionData> data = in.categories;
        if (!data) {
            data = std::make_shared<CategorySessionData>();
            data->timeline = CategoryTimeline::build(in.profile);
            data->matches = std::make_shared<RuleMatchCache>(
                NameSet { data->timeline->demangledNames(), data->timeline->shortNames() });
            *builtCategories = data;
        }
        request.categoryTimeline = data->timeline;
        request.categoryMatches = data->matches;
    }
    Result<CompareEntry> entry = computeCompareEntry(request, job);
    if (!entry)
        return entry.failureAs<std::shared_ptr<const CompareEntry>>();
    return std::shared_ptr<const CompareEntry>(std::make_shared<const CompareEntry>(std::move(*entry)));
}

int keyIndex(const CompareEntry& entry, const QString& key)
{
    const auto& keys = entry.keys->keys;
    const auto it = std::find(keys.begin(), keys.end(), key);
    return it == keys.end() ? -1 : int(it - keys.begin());
}
} // namespace

CompareController::CompareController(Workbench* workbench, CategoryController* categories, QObject* parent)
    : QObject(parent)
    , m_workbench(workbench)
    , m_categories(categories)
{
    connect(workbench, &Workbench::sessionAdded, this, &CompareController::onSessionAdded);
    connect(workbench, &Workbench::sessionAboutToBeRemoved, this, &CompareController::onSessionRemoved);
    for (ProfileSession* s : workbench->sessions())
        connect(s, &ProfileSession::displayNameChanged, this, &CompareController::recompute);
    // Each entry follows the focus of its profile.
    connect(workbench, &Workbench::focusChanged, this, [this](ProfileSession* s) {
        if (isIncluded(s))
            recompute();
    });
    if (categories) {
        const auto categoriesChanged = [this]() {
            if (m_settings.by == CompareBy::Category)
                recompute();
        };
        connect(categories, &CategoryController::rulesChanged, this, categoriesChanged);
        connect(categories, &CategoryController::optionsChanged, this, categoriesChanged);
    }
}

CompareController::~CompareController() = default;

QString CompareController::attachmentKey()
{
    return QStringLiteral("compare");
}

void CompareController::activate()
{
    if (m_active)
        return;
    m_active = true;
    recompute();
}

std::vector<ProfileSession*> CompareController::profiles() const
{
    std::vector<ProfileSession*> out;
    for (ProfileSession* s : m_workbench->sessions())
        if (isIncluded(s))
            out.push_back(s);
    return out;
}

bool CompareController::isIncluded(const ProfileSession* session) const
{
    return std::none_of(m_excluded.begin(), m_excluded.end(), [session](const auto& e) { return e == session; });
}

void CompareController::setIncluded(ProfileSession* session, bool included)
{
    if (included == isIncluded(session))
        return;
    std::erase_if(m_excluded, [session](const auto& e) { return !e || e == session; });
    if (!included)
        m_excluded.emplace_back(session);
    Q_EMIT profilesChanged();
    recompute();
}

QString CompareController::IterationEntry::label() const
{
    return (session ? session->displayName() : QString()) + QStringLiteral(" · ") + range.label;
}

void CompareController::addIteration(ProfileSession* session, const FocusRange& range)
{
    if (!session || !range.isActive())
        return;
    for (const IterationEntry& e : m_iterations)
        if (e.session == session && e.range.start == range.start && e.range.end == range.end)
            return;
    m_iterations.push_back({ session, range });
    Q_EMIT profilesChanged();
    recompute();
}

void CompareController::removeIteration(std::size_t index)
{
    if (index >= m_iterations.size())
        return;
    eraseIteration(index);
    Q_EMIT profilesChanged();
    recompute();
}

void CompareController::eraseIteration(std::size_t index)
{
    m_iterations.erase(m_iterations.begin() + std::ptrdiff_t(index));
    if (m_baselineIteration == int(index)) {
        m_baselineIteration = -1;
        m_baselinePicked = false; // back to the first profile opened
    } else if (m_baselineIteration > int(index)) {
        --m_baselineIteration;
    }
}

bool CompareController::isBaseline(const Member& member) const
{
    return m_baselineIteration >= 0 ? member.iteration == m_baselineIteration
                                    : member.iteration < 0 && member.session == m_baseline;
}

std::vector<CompareController::Member> CompareController::members() const
{
    std::vector<Member> out;
    for (ProfileSession* s : profiles())
        out.push_back({ s, -1, s->displayName() });
    for (std::size_t i = 0; i < m_iterations.size(); ++i)
        if (ProfileSession* s = m_iterations[i].session)
            out.push_back({ s, int(i), m_iterations[i].label() });
    return out;
}

std::size_t CompareController::baselineMember() const
{
    const std::vector<Member> all = members();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (isBaseline(all[i]))
            return i;
    return 0;
}

void CompareController::setBaselineMember(std::size_t index)
{
    const std::vector<Member> all = members();
    if (index >= all.size())
        return;
    if (all[index].iteration < 0) {
        setBaseline(all[index].session);
        return;
    }
    m_baselinePicked = true;
    if (m_baselineIteration == all[index].iteration)
        return;
    m_baselineIteration = all[index].iteration;
    Q_EMIT profilesChanged();
    recompute();
}

void CompareController::setBaseline(ProfileSession* session)
{
    m_baselinePicked = session != nullptr;
    const bool wasIteration = m_baselineIteration >= 0;
    m_baselineIteration = -1;
    if (session == m_baseline && !wasIteration)
        return;
    m_baseline = session;
    if (session && !isIncluded(session)) {
        setIncluded(session, true);
        return;
    }
    Q_EMIT profilesChanged();
    recompute();
}

void CompareController::setSettings(const Settings& settings)
{
    if (settings == m_settings)
        return;
    m_settings = settings;
    Q_EMIT settingsChanged();
    recompute();
}

RuleList CompareController::categoryRules() const
{
    if (m_categories)
        return m_categories->rules();
    static const RuleList fallback = [] {
        QStringList problems;
        const RuleLibrary library = RuleLibrary::loadDefault(&problems);
        for (const QString& p : problems)
            qCWarning(lcJobs).noquote() << "category rules:" << p;
        if (const RuleList* l = library.find(QStringLiteral("vllm"), QStringLiteral("llama")))
            return *l;
        const QString engine = library.engines().value(0);
        const RuleList* l = library.find(engine, library.models(engine).value(0));
        return l ? *l : RuleList {};
    }();
    return fallback;
}

TimeMode CompareController::categoryTimeMode() const
{
    return m_categories ? m_categories->timeMode() : TimeMode::Global;
}

QString CompareController::specKey() const
{
    switch (m_settings.by) {
    case CompareBy::Kernel:
        return QStringLiteral("kernel/%1/%2").arg(int(m_settings.kernelNames)).arg(m_settings.normalizeNames);
    case CompareBy::Nvtx:
        return QStringLiteral("nvtx/%1").arg(m_settings.normalizeNames);
    case CompareBy::Category: {
        // The working rules may be edited at any time: key on their content.
        QCryptographicHash hash(QCryptographicHash::Sha1);
        const RuleList rules = categoryRules();
        hash.addData((rules.engine + QLatin1Char('\n') + rules.model).toUtf8());
        for (const CategoryRule& r : rules.rules)
            hash.addData(QStringLiteral("\n%1\t%2\t%3").arg(r.key(), r.category).arg(int(r.name)).toUtf8());
        return QStringLiteral("category/%1/%2")
            .arg(timeModeName(categoryTimeMode()), QString::fromLatin1(hash.result().toHex()));
    }
    }
    return {};
}

void CompareController::updateAutomaticBaseline()
{
    // Until the user picks one, the baseline is the first profile opened (sessions are in open order), even when
    // a later one finished loading first.
    if (m_baselinePicked && (m_baselineIteration >= 0 || (m_baseline && isIncluded(m_baseline))))
        return;
    const std::vector<ProfileSession*> sessions = profiles();
    m_baseline = sessions.empty() ? nullptr : sessions.front();
}

void CompareController::onSessionAdded(ProfileSession* session)
{
    connect(session, &ProfileSession::displayNameChanged, this, &CompareController::recompute);
    connect(session, &ProfileSession::loadCompleted, this, &CompareController::recompute);
    updateAutomaticBaseline();
    Q_EMIT profilesChanged();
    recompute();
}

void CompareController::onSessionRemoved(ProfileSession* session)
{
    // Still listed by the workbench until it is deleted: exclude it now (the pointer clears itself afterwards).
    std::erase_if(m_excluded, [](const auto& e) { return !e; });
    m_excluded.emplace_back(session);
    for (std::size_t i = m_iterations.size(); i-- > 0;)
        if (m_iterations[i].session == session)
            eraseIteration(i);
    if (m_baseline == session) {
        m_baseline = nullptr;
        m_baselinePicked = false;
    }
    Q_EMIT profilesChanged();
    recompute();
}

std::shared_ptr<const CompareEntry> CompareController::entry(const ProfileSession* session) const
{
    if (!session)
        return nullptr;
    const auto cache = session->attachment<CompareCache>(attachmentKey());
    return cache ? cache->find(specKey() + focusKey(session->focus())) : nullptr;
}

void CompareController::recompute()
{
    if (!m_active)
        return;
    std::vector<Member> members = this->members();
    // A profile still loading its CUDA API calls and NVTX joins the comparison once whole (no partial numbers).
    std::erase_if(members, [](const Member& m) { return !m.session->isComplete(); });
    updateAutomaticBaseline();
    if (members.empty()) {
        m_job.cancel();
        m_computing = false;
        m_comparison = {};
        Q_EMIT resultsChanged();
        return;
    }
    const QString spec = specKey();
    std::vector<Input> inputs;
    std::vector<QString> specs; ///< per input: spec and its session's focus
    CompareOptions options;
    for (std::size_t i = 0; i < members.size(); ++i) {
        ProfileSession* s = members[i].session;
        const int iteration = members[i].iteration;
        if (isBaseline(members[i]))
            options.baseline = i;
        Input in;
        in.session = s;
        in.label = members[i].label;
        in.profile = s->profile();
        // An iteration entry counts what overlaps its iteration, whatever the profile's own focus.
        in.focus = iteration < 0 ? s->focus() : m_iterations[std::size_t(iteration)].range;
        specs.push_back(spec + focusKey(in.focus));
        const auto cache = cacheOf(s);
        in.entry = cache->find(specs.back());
        if (m_settings.by == CompareBy::Kernel && m_settings.kernelNames == KernelNameMode::Demangled)
            in.index = s->kernelIndex(KernelNameMode::Demangled); // built with the load
        if (m_settings.by == CompareBy::Category)
            in.categories = s->attachment<CategorySessionData>(CategoryController::attachmentKey());
        if (m_settings.normalization == CompareNormalization::PerIteration) {
            const auto it = cache->iterations.find(m_settings.marker + focusKey(in.focus));
            in.iterations = it == cache->iterations.end() ? -1 : it->second;
        }
        inputs.push_back(std::move(in));
    }
    options.normalization = m_settings.normalization;
    options.thresholdPercent = m_settings.thresholdPercent;
    options.noiseFloorNs = m_settings.noiseFloorNs;
    m_computing = true;
    const Settings settings = m_settings;
    const RuleList rules = m_settings.by == CompareBy::Category ? categoryRules() : RuleList {};
    const TimeMode mode = categoryTimeMode();
    m_job.run<std::shared_ptr<Output>>(
        [inputs, settings, rules, mode, options](const JobContext& job) -> Result<std::shared_ptr<Output>> {
            auto out = std::make_shared<Output>();
            std::vector<CompareProfile> profiles;
            for (const Input& in : inputs) {
                std::shared_ptr<CategorySessionData> built;
                std::shared_ptr<const CompareEntry> entry = in.entry;
                if (!entry) {
                    Result<std::shared_ptr<const CompareEntry>> computed
                        = computeEntry(in, settings, rules, mode, &built, job);
                    if (!computed)
                        return Result<std::shared_ptr<Output>>::failure(
                            computed.error().kind, in.label + QStringLiteral(": ") + computed.errorMessage());
                    entry = *computed;
                    ++out->computed;
                }
                std::int64_t iterations = in.iterations;
                if (settings.normalization == CompareNormalization::PerIteration && iterations < 0)
                    iterations
                        = settings.marker.isEmpty() ? 0 : countIterations(*in.profile, settings.marker, in.focus);
                out->entries.push_back(entry);
                out->builtCategories.push_back(built);
                out->iterations.push_back(iterations);
                profiles.push_back({ in.label, entry->keys, std::max<std::int64_t>(iterations, 0) });
            }
            out->comparison = compareProfiles(profiles, options);
            return out;
        },
        [this, inputs, specs, settings](Result<std::shared_ptr<Output>> computed) {
            m_computing = false;
            if (!computed) {
                m_comparison = Comparison {};
                m_comparison.error = computed.errorMessage();
                Q_EMIT resultsChanged();
                return;
            }
            const std::shared_ptr<Output>& out = *computed;
            m_computed += out->computed;
            for (std::size_t i = 0; i < inputs.size(); ++i) {
                ProfileSession* s = inputs[i].session;
                if (!s)
                    continue;
                const auto cache = cacheOf(s);
                cache->put(specs[i], out->entries[i]);
                if (settings.normalization == CompareNormalization::PerIteration)
                    cache->iterations[settings.marker + focusKey(inputs[i].focus)] = out->iterations[i];
                if (out->builtCategories[i] && !s->attachment<CategorySessionData>(CategoryController::attachmentKey()))
                    s->setAttachment(CategoryController::attachmentKey(), out->builtCategories[i]);
            }
            m_comparison = std::move(out->comparison);
            Q_EMIT resultsChanged();
        });
}

std::shared_ptr<const std::vector<char>> CompareController::kernelRows(
    const ProfileSession* session, const QString& key) const
{
    const auto e = entry(session);
    if (!e)
        return nullptr;
    const int k = keyIndex(*e, key);
    const std::size_t kernels = session->profile()->kernels.size();
    if (e->breakdown) {
        const int category = e->breakdown->categoryIndex(key);
        if (category < 0)
            return std::make_shared<const std::vector<char>>(kernels, 0);
        return kernelRowsOfCategory(*e->timeline, *e->breakdown, category);
    }
    auto rows = std::make_shared<std::vector<char>>(kernels, 0);
    if (k < 0)
        return rows;
    if (e->index) {
        const auto& groups = e->index->groups();
        const auto& order = e->index->order();
        for (std::size_t g = 0; g < groups.size(); ++g)
            if (e->keyOfGroup[g] == k)
                for (std::uint32_t i = groups[g].begin; i < groups[g].end; ++i)
                    (*rows)[order[i]] = 1;
    } else if (e->tree) {
        for (std::size_t n = 0; n < e->keyOfNode.size(); ++n)
            if (e->keyOfNode[n] == k) {
                const std::vector<char> under = nvtxKernelRows(*e->tree, std::int32_t(n));
                for (std::size_t r = 0; r < under.size() && r < rows->size(); ++r)
                    (*rows)[r] |= under[r];
            }
    }
    return rows;
}

QStringList CompareController::kernelNames(const ProfileSession* session, const QString& key) const
{
    const auto e = entry(session);
    if (!e || !e->index)
        return {};
    const int k = keyIndex(*e, key);
    if (k < 0)
        return {};
    const Profile& p = *session->profile();
    std::set<StringRef> names;
    const auto& groups = e->index->groups();
    const auto& order = e->index->order();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (e->keyOfGroup[g] != k)
            continue;
        if (e->index->mode() == KernelNameMode::Demangled) {
            names.insert(groups[g].name);
            continue;
        }
        for (std::uint32_t i = groups[g].begin; i < groups[g].end; ++i)
            names.insert(p.kernels.demangledName[order[i]]);
    }
    QStringList out;
    for (const StringRef n : names)
        out.append(p.strings.at(n));
    return out;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorycontroller.h"

#include "core/categories/categoryrun.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/util/findby.h"
#include "core/util/userfile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <map>

namespace nsw {

namespace {
QString fileNameFor(const QString& engine)
{
    QString name = engine;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return (name.isEmpty() ? QStringLiteral("rules") : name) + QStringLiteral(".json");
}

struct Input
{
    QPointer<ProfileSession> session;
    std::shared_ptr<CategorySessionData> data;
    WallTimeSource wall;
    FocusRange focus;
};
} // namespace

CategoryController::CategoryController(Workbench* workbench, QObject* parent)
    : QObject(parent)
    , m_workbench(workbench)
{
    reloadLibrary();
    if (!select(QStringLiteral("vllm"), QStringLiteral("llama"))) {
        const QStringList engines = m_library.engines();
        if (!engines.isEmpty())
            select(engines.first(), m_library.models(engines.first()).value(0));
    }
    connect(workbench, &Workbench::sessionAdded, this, &CategoryController::onSessionAdded);
    connect(workbench, &Workbench::focusChanged, this, &CategoryController::recompute);
    connect(workbench, &Workbench::sessionAboutToBeRemoved, this, [this](ProfileSession* s) {
        m_timelineJobs.erase(s); // cancels a build: the closed profile is not kept alive by it
        m_timelineErrors.erase(s);
        std::erase_if(m_results, [s](const SessionResult& r) { return r.session == s || !r.session; });
        Q_EMIT resultsChanged();
    });
    for (ProfileSession* s : workbench->sessions())
        onSessionAdded(s);
}

CategoryController::~CategoryController() = default;

QString CategoryController::attachmentKey()
{
    return QStringLiteral("categories");
}

void CategoryController::attachTimeline(ProfileSession* session, std::shared_ptr<const CategoryTimeline> timeline)
{
    auto data = std::make_shared<CategorySessionData>();
    data->matches = std::make_shared<RuleMatchCache>(NameSet { timeline->demangledNames(), timeline->shortNames() });
    data->timeline = std::move(timeline);
    session->setAttachment(attachmentKey(), data);
}

void CategoryController::onSessionAdded(ProfileSession* session)
{
    connect(session, &ProfileSession::wallTimeChanged, this, [this]() {
        if (m_wallSource == WallSource::Entered)
            recompute();
    });
    connect(session, &ProfileSession::displayNameChanged, this, &CategoryController::resultsChanged);
    connect(session, &ProfileSession::loadCompleted, this, [this, session]() {
        if (m_active)
            ensureTimeline(session);
    });
    if (m_active)
        ensureTimeline(session);
}

void CategoryController::activate()
{
    if (m_active)
        return;
    m_active = true;
    for (ProfileSession* s : m_workbench->sessions())
        ensureTimeline(s);
    recompute();
}

void CategoryController::ensureTimeline(ProfileSession* session)
{
    // Not while a staged load still reads the rest: the chart waits for it anyway, and the build would compete with
    // the load for memory and cores.
    if (!session->isComplete())
        return;
    if (session->attachment<CategorySessionData>(attachmentKey())) {
        recompute();
        return;
    }
    std::unique_ptr<JobSlot>& slot = m_timelineJobs[session];
    if (slot)
        return; // being built
    slot = std::make_unique<JobSlot>(this);
    QPointer<ProfileSession> guard(session);
    const ProfilePtr profile = session->profile();
    slot->run<std::shared_ptr<const CategoryTimeline>>(
        [profile](const JobContext& job) { return orCancelled(CategoryTimeline::build(profile, job.cancelToken())); },
        [this, guard](Result<std::shared_ptr<const CategoryTimeline>> timeline) {
            if (!guard)
                return;
            m_timelineJobs.erase(guard.data());
            if (!timeline)
                m_timelineErrors[guard.data()] = guard->displayName() + QStringLiteral(": ") + timeline.errorMessage();
            else if (!guard->attachment<CategorySessionData>(attachmentKey()))
                attachTimeline(guard, std::move(*timeline));
            recompute();
        });
}

void CategoryController::reloadLibrary()
{
    m_problems.clear();
    m_library = RuleLibrary::loadDefault(&m_problems);
    Q_EMIT libraryChanged();
}

bool CategoryController::select(const QString& engine, const QString& model)
{
    const RuleList* list = m_library.find(engine, model);
    if (!list)
        return false;
    m_rules = *list;
    Q_EMIT selectionChanged();
    Q_EMIT rulesChanged();
    recompute();
    return true;
}

void CategoryController::setRules(const RuleList& rules)
{
    m_rules.rules = rules.rules;
    Q_EMIT rulesChanged();
    recompute();
}

bool CategoryController::isModified() const
{
    const RuleList* saved = m_library.find(m_rules.engine, m_rules.model);
    return !saved || saved->rules != m_rules.rules;
}

const RuleSource* CategoryController::source() const
{
    const int s = m_library.sourceOf(m_rules.engine);
    return s < 0 ? nullptr : &m_library.sources()[std::size_t(s)];
}

QString CategoryController::savePath() const
{
    const RuleSource* s = source();
    if (s && s->kind == RuleSource::User)
        return s->path;
    return QDir(RuleLibrary::userRulesDir()).filePath(fileNameFor(m_rules.engine));
}

QString CategoryController::saveEngine(const RuleEngine& engine) const
{
    const RuleSource* s = m_library.sourceOf(engine.name) >= 0
        ? &m_library.sources()[std::size_t(m_library.sourceOf(engine.name))]
        : nullptr;
    // A user file is rewritten in place (its other engines and layout kept); anything else gets its own file.
    RuleDocument doc;
    QString path = QDir(RuleLibrary::userRulesDir()).filePath(fileNameFor(engine.name));
    if (s && s->kind == RuleSource::User) {
        doc = s->document;
        path = s->path;
        *doc.engine(engine.name) = engine;
    } else {
        if (QFileInfo::exists(path))
            return tr("%1 exists but does not define engine \"%2\"; rename the engine or the file")
                .arg(path, engine.name);
        doc.engines.push_back(engine);
    }
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return tr("%1: cannot create the folder").arg(QFileInfo(path).absolutePath());
    return doc.save(path);
}

QString CategoryController::save()
{
    const RuleSource* s = source();
    RuleEngine engine;
    if (s)
        engine = *s->document.engine(m_rules.engine);
    else
        engine.name = m_rules.engine;
    if (RuleList* m = engine.model(m_rules.model))
        m->rules = m_rules.rules;
    else
        engine.models.push_back(m_rules);
    if (const QString error = saveEngine(engine); !error.isEmpty())
        return error;
    const RuleList working = m_rules;
    reloadLibrary();
    m_rules = working;
    Q_EMIT rulesChanged();
    return {};
}

void CategoryController::revert()
{
    select(m_rules.engine, m_rules.model);
}

QString CategoryController::createModel(const QString& engineName, const QString& modelName)
{
    if (engineName.trimmed().isEmpty() || modelName.trimmed().isEmpty())
        return tr("the engine and the model need a name");
    if (m_library.find(engineName, modelName))
        return tr("%1/%2 exists already").arg(engineName, modelName);
    RuleEngine engine;
    const int s = m_library.sourceOf(engineName);
    if (s >= 0)
        engine = *m_library.sources()[std::size_t(s)].document.engine(engineName);
    else
        engine.name = engineName;
    RuleList copy = m_rules;
    copy.engine = engineName;
    copy.model = modelName;
    engine.models.push_back(copy);
    if (const QString error = saveEngine(engine); !error.isEmpty())
        return error;
    reloadLibrary();
    select(engineName, modelName);
    return {};
}

QString CategoryController::importFile(const QString& path, bool overwrite, ImportConflicts* conflicts)
{
    RuleError error;
    const auto imported = RuleDocument::load(path, &error);
    if (!imported)
        return error.message();
    const QString target = QDir(RuleLibrary::userRulesDir()).filePath(QFileInfo(path).fileName());
    // Saved rules the import would replace: the file itself, and engines another of the user's files defines (the
    // later file name would win, silently, either way).
    ImportConflicts found;
    found.fileExists = QFileInfo::exists(target);
    for (const RuleSource& source : m_library.sources()) {
        if (source.kind != RuleSource::User || QFileInfo(source.path) == QFileInfo(target))
            continue;
        for (const RuleEngine& e : imported->engines)
            if (source.document.engine(e.name))
                found.savedEngines.append({ e.name, source.path });
    }
    if (conflicts)
        *conflicts = found;
    if (!found.isEmpty() && !overwrite)
        return tr("%1 would replace saved rules").arg(path);
    QString reason;
    const std::optional<QByteArray> read = readUserFile(path, &reason);
    if (!read)
        return QStringLiteral("%1: %2").arg(path, reason);
    const QByteArray& bytes = *read;
    QDir().mkpath(RuleLibrary::userRulesDir());
    // The replaced engines leave the other files (each kept whole as FILE.bak first), so that the import is what
    // takes effect whatever the file names' order.
    std::map<QString, QStringList> enginesByFile;
    for (const auto& [engine, file] : std::as_const(found.savedEngines))
        enginesByFile[file].append(engine);
    for (const auto& [file, replacedEngines] : enginesByFile) {
        const QStringList& engines = replacedEngines; // clang 14 cannot capture a structured binding
        const QString backup = file + QStringLiteral(".bak");
        QFile::remove(backup);
        if (!QFile::copy(file, backup))
            return tr("%1: cannot keep a copy as %2").arg(file, backup);
        auto doc = RuleDocument::load(file, &error);
        if (!doc)
            return error.message();
        std::erase_if(doc->engines, [&](const RuleEngine& e) { return engines.contains(e.name); });
        const QString e = doc->engines.empty() ? (QFile::remove(file) ? QString() : tr("%1: cannot remove").arg(file))
                                               : doc->save(file);
        if (!e.isEmpty())
            return e;
    }
    QSaveFile out(target);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(target, out.errorString());
    out.write(bytes);
    if (!out.commit())
        return QStringLiteral("%1: %2").arg(target, out.errorString());
    reloadLibrary();
    if (!imported->engines.empty() && !imported->engines.front().models.empty())
        select(imported->engines.front().name, imported->engines.front().models.front().model);
    return {};
}

QString CategoryController::exportTo(const QString& path) const
{
    RuleDocument doc;
    const RuleSource* s = source();
    RuleEngine engine = s ? *s->document.engine(m_rules.engine) : RuleEngine { m_rules.engine, {} };
    if (RuleList* m = engine.model(m_rules.model))
        m->rules = m_rules.rules;
    else
        engine.models.push_back(m_rules);
    doc.engines.push_back(engine);
    return doc.save(path);
}

template <typename T> void CategoryController::setOption(T& option, T value)
{
    if (value == option)
        return;
    option = value;
    Q_EMIT optionsChanged();
    recompute();
}

void CategoryController::setTimeMode(TimeMode mode)
{
    setOption(m_mode, mode);
}

void CategoryController::setPerDevice(bool perDevice)
{
    setOption(m_perDevice, perDevice);
}

void CategoryController::setWallSource(WallSource source)
{
    setOption(m_wallSource, source);
}

const CategoryController::SessionResult* CategoryController::result(const ProfileSession* session) const
{
    return findBy(m_results, &SessionResult::session, session);
}

std::vector<ProfileCategories> CategoryController::profileCategories() const
{
    std::vector<ProfileCategories> out;
    for (const SessionResult& r : m_results)
        if (r.session)
            out.push_back({ r.session->displayName(), r.session->path(), r.timeline, r.breakdown });
    return out;
}

Result<std::vector<ProfileCategories>> CategoryController::mappingProfiles() const
{
    std::vector<CategoryRequest> requests;
    for (const SessionResult& r : m_results)
        if (r.session)
            requests.push_back(r.request);
    return categoryMappingProfiles(profileCategories(), requests);
}

void CategoryController::recompute()
{
    if (!m_active)
        return;
    std::vector<Input> inputs;
    for (ProfileSession* s : m_workbench->sessions()) {
        Input in;
        in.session = s;
        in.focus = s->focus();
        in.data = s->attachment<CategorySessionData>(attachmentKey());
        if (!in.data || !s->isComplete())
            continue; // a profile still loading shows once whole: its capture span needs every table

        in.wall.kind = m_wallSource == WallSource::Capture ? WallTimeSource::Kind::Capture
            : m_wallSource == WallSource::Entered          ? WallTimeSource::Kind::Entered
                                                           : WallTimeSource::Kind::None;
        in.wall.enteredNs = s->wallTimeNs();
        inputs.push_back(std::move(in));
    }
    const RuleList rules = m_rules;
    const TimeMode mode = m_mode;
    const bool perDevice = m_perDevice;
    struct Output
    {
        std::vector<SessionResult> results;
        QStringList errors;
    };
    m_job.run<Output>(
        [inputs, rules, mode, perDevice](const JobContext& job) -> Result<Output> {
            Output out;
            for (const Input& in : inputs) {
                QElapsedTimer timer;
                timer.start();
                SessionResult r;
                r.session = in.session;
                r.request = { in.data->timeline, in.data->matches, rules, mode, perDevice, in.wall, true, in.focus };
                Result<CategoryResult> result = computeCategories(r.request, job);
                if (result.isCancelled())
                    return result.failureAs<Output>(); // a newer request replaces it
                if (!result) {
                    out.errors.append((in.session ? in.session->displayName() + QStringLiteral(": ") : QString())
                        + result.errorMessage());
                    continue;
                }
                r.timeline = std::move(result->timeline);
                r.evaluation = std::move(result->evaluation);
                r.breakdown = std::move(result->breakdown);
                r.microseconds = timer.nsecsElapsed() / 1000;
                out.results.push_back(std::move(r));
            }
            return out;
        },
        [this](Result<Output> out) {
            if (!out) {
                m_errors = { out.errorMessage() };
                m_results.clear();
            } else {
                std::erase_if(out->results, [](const SessionResult& r) { return !r.session; });
                m_results = std::move(out->results);
                m_errors = std::move(out->errors);
                for (const auto& [session, error] : m_timelineErrors)
                    m_errors.append(error);
            }
            Q_EMIT resultsChanged();
        });
}

} // namespace nsw

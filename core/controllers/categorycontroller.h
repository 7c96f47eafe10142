// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorybreakdown.h"
#include "core/categories/categoryrun.h"
#include "core/categories/categorytable.h"
#include "core/categories/rulelibrary.h"
#include "core/jobs/background.h"

#include <QObject>
#include <QPointer>
#include <map>
#include <memory>
#include <vector>

namespace nsw {

class ProfileSession;
class Workbench;

/// Per-profile data of the categories feature, kept as a ProfileSession attachment: the timeline (built once, off
/// the GUI thread) and the regex match cache over its names.
struct CategorySessionData
{
    std::shared_ptr<const CategoryTimeline> timeline;
    std::shared_ptr<RuleMatchCache> matches;
};

/// State shared by the categories pane and the rule editor: the rule library, the engine/model in use and its
/// working (possibly unsaved) rules, the time mode and CPU-segment options, and the results for every open
/// profile, recomputed off the GUI thread whenever one of them changes (latest request wins).
class CategoryController : public QObject
{
    Q_OBJECT
public:
    enum class WallSource
    {
        None, ///< no CPU (non-GPU) segment
        Capture, ///< the capture span of each profile
        Entered ///< the wall time entered per profile (ProfileSession::wallTimeNs)
    };

    struct SessionResult
    {
        QPointer<ProfileSession> session;
        CategoryRequest request; ///< what was computed (the mapping export asks it again without the per-GPU split)
        std::shared_ptr<const CategoryTimeline> timeline; ///< focused when the profile is
        RuleEvaluation evaluation;
        CategoryBreakdown breakdown;
        qint64 microseconds = 0; ///< time taken to classify and add up
    };

    explicit CategoryController(Workbench* workbench, QObject* parent = nullptr);
    ~CategoryController() override;

    static QString attachmentKey();
    /// Gives a session its timeline (normally built in the background on first use).
    static void attachTimeline(ProfileSession* session, std::shared_ptr<const CategoryTimeline> timeline);

    Workbench* workbench() const { return m_workbench; }
    /// Timelines are built (in the background, once per profile) only once the feature is in use: a pane shown,
    /// the editor opened. Activating is permanent.
    void activate();
    bool isActive() const { return m_active; }

    // Rules.
    const RuleLibrary& library() const { return m_library; }
    /// Problems met reading the user's rule files.
    const QStringList& libraryProblems() const { return m_problems; }
    /// Re-reads the shipped sets and the user's folder; keeps the selection when it still exists.
    void reloadLibrary();
    QString engine() const { return m_rules.engine; }
    QString model() const { return m_rules.model; }
    /// Selects engine/model, discarding unsaved edits. Returns false when the library has no such model.
    bool select(const QString& engine, const QString& model);
    const RuleList& rules() const { return m_rules; }
    /// The working rules after an edit (the editor keeps the undo history).
    void setRules(const RuleList& rules);
    bool isModified() const;
    /// Where the current engine is defined (shipped, user file...), or nullptr.
    const RuleSource* source() const;
    /// The file save() writes: the user's file that defines the engine, or a new one in the user's folder.
    QString savePath() const;
    /// Saves the working rules (the whole engine, as gputrc2graph merges by engine) atomically. Returns an error.
    QString save();
    void revert();
    /// Creates @p engine/@p model as a copy of the working rules, saves it to the user's folder and selects it.
    QString createModel(const QString& engine, const QString& model);
    /// What an import would replace of the user's saved rules.
    struct ImportConflicts
    {
        bool fileExists = false; ///< a file of that name is in the user's folder
        QList<QPair<QString, QString>> savedEngines; ///< (engine, file): defined in another of the user's files
        bool isEmpty() const { return !fileExists && savedEngines.isEmpty(); }
    };
    /// Copies a gputrc2graph rule file into the user's folder (validated first). Returns an error. When it would
    /// replace saved rules (@p conflicts says which) and @p overwrite is false, nothing is written and an error
    /// returned; with @p overwrite, the engines it redefines leave the user's other files (kept as FILE.bak).
    QString importFile(const QString& path, bool overwrite, ImportConflicts* conflicts = nullptr);
    /// Writes the current engine, with the working rules, as a gputrc2graph rule file.
    QString exportTo(const QString& path) const;

    // Options.
    TimeMode timeMode() const { return m_mode; }
    void setTimeMode(TimeMode mode);
    bool perDevice() const { return m_perDevice; }
    void setPerDevice(bool perDevice);
    WallSource wallSource() const { return m_wallSource; }
    void setWallSource(WallSource source);

    // Results.
    const std::vector<SessionResult>& results() const { return m_results; }
    /// Why profiles have no result ("run.sqlite: 100,000 rules against ..."), one line each.
    const QStringList& errors() const { return m_errors; }
    const SessionResult* result(const ProfileSession* session) const;
    /// Exports and the chart's data.
    std::vector<ProfileCategories> profileCategories() const;
    CategoryTable table() const { return makeCategoryTable(profileCategories()); }
    /// What gputrc2graph's mapping (result.csv) holds: per profile whatever the bars (categoryMappingProfiles()).
    Result<std::vector<ProfileCategories>> mappingProfiles() const;
    /// True while timelines are built or results are computed.
    bool isBusy() const { return !m_timelineJobs.empty() || m_job.isBusy(); }

Q_SIGNALS:
    void libraryChanged();
    void selectionChanged();
    void rulesChanged();
    void optionsChanged();
    void resultsChanged();

private:
    void onSessionAdded(ProfileSession* session);
    void ensureTimeline(ProfileSession* session);
    void recompute();
    /// Sets one of the options (time mode, per device, wall source); a change is announced and recomputed.
    template <typename T> void setOption(T& option, T value);
    QString saveEngine(const RuleEngine& engine) const;

    Workbench* m_workbench;
    RuleLibrary m_library;
    QStringList m_problems;
    RuleList m_rules;
    TimeMode m_mode = TimeMode::Global;
    bool m_perDevice = false;
    WallSource m_wallSource = WallSource::None;
    std::vector<SessionResult> m_results;
    QStringList m_errors;
    std::map<ProfileSession*, std::unique_ptr<JobSlot>> m_timelineJobs; ///< timelines being built, per profile
    std::map<ProfileSession*, QString> m_timelineErrors; ///< why a profile's timeline could not be built
    bool m_active = false;
    JobSlot m_job { this }; ///< the breakdowns being computed; a newer request cancels it
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/compareentry.h"
#include "core/compare/comparison.h"
#include "core/jobs/background.h"
#include "core/profile/focusrange.h"

#include <QObject>
#include <QPointer>
#include <memory>
#include <vector>

namespace nsw {

class CategoryController;
class ProfileSession;
class Workbench;

/// The comparison pane's state: which open profiles (and iterations of them) are compared, the baseline, the key and
/// its options, and the result, recomputed off the GUI thread (latest request wins) whenever one of them changes.
/// Category keys use the categories feature's rules and time mode (its controller, when given), so both panes agree.
class CompareController : public QObject
{
    Q_OBJECT
public:
    struct Settings
    {
        CompareBy by = CompareBy::Kernel;
        KernelNameMode kernelNames = KernelNameMode::Demangled;
        bool normalizeNames = false;
        CompareNormalization normalization = CompareNormalization::None;
        QString marker; ///< iteration marker (an NVTX range name) for PerIteration
        double thresholdPercent = 5.0;
        double noiseFloorNs = 1000.0;
        bool operator==(const Settings&) const = default;
    };

    /// @p categories may be null: the rules are then the first shipped set and the time mode g2g.
    CompareController(Workbench* workbench, CategoryController* categories, QObject* parent = nullptr);
    ~CompareController() override;

    static QString attachmentKey();

    Workbench* workbench() const { return m_workbench; }
    CategoryController* categories() const { return m_categories; }

    /// Computing starts once the feature is in use (the pane shown); activating is permanent.
    void activate();
    bool isActive() const { return m_active; }

    /// One iteration of a profile compared as an entry of its own (its keys count what overlaps the range).
    struct IterationEntry
    {
        QPointer<ProfileSession> session;
        FocusRange range; ///< labelled "iteration 5 (ProfilerStep#5)" or "median iteration: …"
        QString label() const;
    };
    /// A column of the comparison: a whole profile (its own focus) or one of its iterations.
    struct Member
    {
        ProfileSession* session = nullptr;
        int iteration = -1; ///< index into iterations(), -1: the whole profile
        QString label;
    };

    /// The compared profiles, in the workbench's order. New sessions join automatically.
    std::vector<ProfileSession*> profiles() const;
    /// The compared iterations, in the order added.
    const std::vector<IterationEntry>& iterations() const { return m_iterations; }
    /// Adds an iteration of @p session (once: the same range again is ignored); it becomes the baseline when it is
    /// the first entry.
    void addIteration(ProfileSession* session, const FocusRange& range);
    void removeIteration(std::size_t index);
    /// The columns, as the comparison orders them: included profiles, then iterations (profiles still loading left
    /// out).
    std::vector<Member> members() const;
    /// The baseline's position in members().
    std::size_t baselineMember() const;
    void setBaselineMember(std::size_t index);
    bool isIncluded(const ProfileSession* session) const;
    void setIncluded(ProfileSession* session, bool included);
    ProfileSession* baseline() const { return m_baseline; }
    void setBaseline(ProfileSession* session);

    const Settings& settings() const { return m_settings; }
    void setSettings(const Settings& settings);
    /// The rules category keys use (the categories controller's working rules).
    RuleList categoryRules() const;
    TimeMode categoryTimeMode() const;

    const Comparison& comparison() const { return m_comparison; }
    bool isBusy() const { return m_computing; }
    /// Key tables computed so far (cache hits excluded), for tests and the status line.
    int computedKeyTables() const { return m_computed; }
    /// The cached entry of @p session for the current settings, or null.
    std::shared_ptr<const CompareEntry> entry(const ProfileSession* session) const;
    /// The kernel rows (a mask over Profile::kernels) a key stands for in @p session, or null when unknown.
    std::shared_ptr<const std::vector<char>> kernelRows(const ProfileSession* session, const QString& key) const;
    /// The distinct demangled kernel names a key stands for in @p session.
    QStringList kernelNames(const ProfileSession* session, const QString& key) const;

Q_SIGNALS:
    void profilesChanged();
    void settingsChanged();
    void resultsChanged();

private:
    QString specKey() const;
    /// Removes an iteration entry, keeping the baseline on the same entry (or back to automatic when it was this one).
    void eraseIteration(std::size_t index);
    bool isBaseline(const Member& member) const;
    void updateAutomaticBaseline();
    void onSessionAdded(ProfileSession* session);
    void onSessionRemoved(ProfileSession* session);
    void recompute();

    Workbench* m_workbench;
    QPointer<CategoryController> m_categories;
    std::vector<QPointer<ProfileSession>> m_excluded;
    std::vector<IterationEntry> m_iterations;
    int m_baselineIteration = -1; ///< when >= 0, the baseline is this iteration entry (m_baseline is then ignored)
    QPointer<ProfileSession> m_baseline;
    bool m_baselinePicked = false; ///< chosen by the user, not the automatic first-opened profile
    Settings m_settings;
    Comparison m_comparison;
    JobSlot m_job { this };
    bool m_active = false;
    bool m_computing = false;
    int m_computed = 0;
};

} // namespace nsw

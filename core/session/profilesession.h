// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/session/workbenchload.h"
#include "core/stats/kernelindex.h"

#include <QObject>
#include <map>
#include <memory>

namespace nsw {

/// One open profile and the per-profile state the panes share (derived indexes, user settings such as the
/// wall time of the unprofiled run). Lives in the GUI thread.
class ProfileSession : public QObject
{
    Q_OBJECT
public:
    ProfileSession(const LoadedProfile& loaded, QObject* parent = nullptr);

    const ProfilePtr& profile() const { return m_profile; }
    /// False while a staged load still reads CUDA API calls, NVTX and OS runtime: profile() then holds strings, GPUs,
    /// kernels and memory operations only (FirstStageCallback), and panes that need the rest wait for it
    /// (Pane::waitForWholeProfile).
    bool isComplete() const { return m_complete; }
    /// The rest of the load arrived: profile() becomes the whole profile (the same kernel rows and string refs, so
    /// kernel indexes, selections and filters stay valid). Emits loadCompleted().
    void completeLoad(const LoadedProfile& whole);
    /// What the rest of the load is doing while incomplete, e.g. "Reading NVTX events 4.5M/19.1M (62 %)".
    const QString& pendingStage() const { return m_pendingStage; }
    void setPendingStage(const QString& stage);
    const LoadOutcome& load() const { return m_load; }
    QString path() const { return m_profile->meta.filePath; }
    QString displayName() const { return m_displayName; }
    /// When the user asked to open it (Workbench::reserveOpenOrder()); 0 until the workbench assigns one. Sessions
    /// are listed in this order, so the first profile opened stays first whichever load ends first.
    quint64 openOrder() const { return m_openOrder; }
    void setOpenOrder(quint64 order) { m_openOrder = order; }
    void setDisplayName(const QString& name);

    /// The kernel index for @p mode, built on first use (the demangled one comes with the load).
    std::shared_ptr<const KernelIndex> kernelIndex(KernelNameMode mode);
    /// The index if it was built already, else nullptr (panes then build it off the GUI thread).
    std::shared_ptr<const KernelIndex> cachedKernelIndex(KernelNameMode mode) const;
    void setKernelIndex(std::shared_ptr<const KernelIndex> index);

    /// Wall time of the run without the profiler, entered by the user (for the "CPU (non-GPU)" segment);
    /// kNoTime when not set.
    TimeNs wallTimeNs() const { return m_wallTimeNs; }
    void setWallTimeNs(TimeNs ns);

    /// The range every pane shows of this profile (issue 16); inactive = the whole capture.
    const FocusRange& focus() const { return m_focus; }
    void setFocus(const FocusRange& focus);
    void clearFocus() { setFocus(FocusRange {}); }

    /// Per-profile state owned by an analysis module (e.g. "nvlink" recordings), so that modules do not all
    /// grow this class. The value is shared: panes keep it alive as long as they use it.
    void setAttachment(const QString& key, std::shared_ptr<void> value);
    template <typename T> std::shared_ptr<T> attachment(const QString& key) const
    {
        const auto it = m_attachments.find(key);
        return it == m_attachments.end() ? nullptr : std::static_pointer_cast<T>(it->second);
    }

Q_SIGNALS:
    void loadCompleted();
    void pendingStageChanged();
    void displayNameChanged();
    void wallTimeChanged();
    void focusChanged();
    void attachmentChanged(const QString& key);

private:
    ProfilePtr m_profile;
    LoadOutcome m_load; ///< how the file was read (its profile is profile())
    bool m_complete = true;
    QString m_pendingStage;
    QString m_displayName;
    quint64 m_openOrder = 0;
    std::map<KernelNameMode, std::shared_ptr<const KernelIndex>> m_kernelIndexes;
    TimeNs m_wallTimeNs = kNoTime;
    FocusRange m_focus;
    std::map<QString, std::shared_ptr<void>> m_attachments;
};

} // namespace nsw

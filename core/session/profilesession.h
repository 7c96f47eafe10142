// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/workbenchload.h"
#include "stats/kernelindex.h"

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
    const LoadResult& loadResult() const { return m_loadResult; }
    QString path() const { return m_profile->meta.filePath; }
    QString displayName() const { return m_displayName; }
    void setDisplayName(const QString& name);

    /// The kernel index for @p mode, built on first use (the demangled one comes with the load).
    std::shared_ptr<const KernelIndex> kernelIndex(KernelNameMode mode);

    /// Wall time of the run without the profiler, entered by the user (for the "CPU (non-GPU)" segment);
    /// kNoTime when not set.
    TimeNs wallTimeNs() const { return m_wallTimeNs; }
    void setWallTimeNs(TimeNs ns);

Q_SIGNALS:
    void displayNameChanged();
    void wallTimeChanged();

private:
    ProfilePtr m_profile;
    LoadResult m_loadResult;
    QString m_displayName;
    std::map<KernelNameMode, std::shared_ptr<const KernelIndex>> m_kernelIndexes;
    TimeNs m_wallTimeNs = kNoTime;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilesession.h"

#include "core/timeline/timelinebuild.h"

namespace nsw {

ProfileSession::ProfileSession(const LoadedProfile& loaded, QObject* parent)
    : QObject(parent)
    , m_profile(loaded.profile)
    , m_load(loaded.load)
    , m_complete(loaded.complete)
    , m_displayName(loaded.profile->displayName())
{
    m_load.profile.reset(); // the session holds the profile once
    if (loaded.kernelIndex)
        m_kernelIndexes[loaded.kernelIndex->mode()] = loaded.kernelIndex;
    if (loaded.timelineIndex && loaded.timelineIndex->profilePtr() == m_profile)
        m_attachments[timelineIndexAttachmentKey()] = std::const_pointer_cast<TimelineIndex>(loaded.timelineIndex);
}

void ProfileSession::completeLoad(const LoadedProfile& whole)
{
    if (m_complete || !whole.profile)
        return;
    m_profile = whole.profile;
    m_load = whole.load;
    m_load.profile.reset();
    // Indexes built on the first stage stay valid: the whole profile shares its kernel columns and string refs.
    for (auto it = m_kernelIndexes.begin(); it != m_kernelIndexes.end();) {
        it->second = it->second ? it->second->reboundTo(m_profile) : nullptr;
        it = it->second ? std::next(it) : m_kernelIndexes.erase(it);
    }
    if (whole.kernelIndex && whole.kernelIndex->profile() == m_profile)
        m_kernelIndexes[whole.kernelIndex->mode()] = whole.kernelIndex;
    m_complete = true;
    m_pendingStage.clear();
    Q_EMIT loadCompleted();
}

void ProfileSession::setPendingStage(const QString& stage)
{
    if (m_complete || stage == m_pendingStage)
        return;
    m_pendingStage = stage;
    Q_EMIT pendingStageChanged();
}

void ProfileSession::setDisplayName(const QString& name)
{
    if (name == m_displayName)
        return;
    m_displayName = name;
    Q_EMIT displayNameChanged();
}

std::shared_ptr<const KernelIndex> ProfileSession::kernelIndex(KernelNameMode mode)
{
    auto& index = m_kernelIndexes[mode];
    if (!index)
        index = std::make_shared<const KernelIndex>(m_profile, mode);
    return index;
}

std::shared_ptr<const KernelIndex> ProfileSession::cachedKernelIndex(KernelNameMode mode) const
{
    const auto it = m_kernelIndexes.find(mode);
    return it == m_kernelIndexes.end() ? nullptr : it->second;
}

void ProfileSession::setKernelIndex(std::shared_ptr<const KernelIndex> index)
{
    if (index && index->profile() == m_profile)
        m_kernelIndexes[index->mode()] = std::move(index);
}

void ProfileSession::setWallTimeNs(TimeNs ns)
{
    if (ns == m_wallTimeNs)
        return;
    m_wallTimeNs = ns;
    Q_EMIT wallTimeChanged();
}

void ProfileSession::setAttachment(const QString& key, std::shared_ptr<void> value)
{
    m_attachments[key] = std::move(value);
    Q_EMIT attachmentChanged(key);
}

void ProfileSession::setFocus(const FocusRange& focus)
{
    if (focus == m_focus && focus.label == m_focus.label)
        return;
    m_focus = focus;
    Q_EMIT focusChanged();
}

} // namespace nsw

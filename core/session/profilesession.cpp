// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilesession.h"

namespace nsw {

ProfileSession::ProfileSession(const LoadedProfile& loaded, QObject* parent)
    : QObject(parent)
    , m_profile(loaded.profile)
    , m_loadResult(loaded.result)
    , m_displayName(loaded.profile->displayName())
{
    m_loadResult.profile.reset(); // the session holds the profile once
    if (loaded.kernelIndex)
        m_kernelIndexes[loaded.kernelIndex->mode()] = loaded.kernelIndex;
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

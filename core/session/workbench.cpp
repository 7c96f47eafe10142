// SPDX-License-Identifier: GPL-3.0-or-later
#include "workbench.h"

#include <algorithm>

namespace nsw {

Workbench::Workbench(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<nsw::KernelSelection>();
}

void Workbench::addSession(ProfileSession* session)
{
    session->setParent(this);
    if (session->openOrder() == 0) {
        beginOpenBatch();
        session->setOpenOrder(reserveOpenOrder());
    }
    const auto at = std::upper_bound(m_sessions.begin(), m_sessions.end(), session,
        [](const ProfileSession* a, const ProfileSession* b) { return a->openOrder() < b->openOrder(); });
    m_sessions.insert(at, session);
    connect(session, &ProfileSession::focusChanged, this, [this, session]() { Q_EMIT focusChanged(session); });
    connect(session, &ProfileSession::loadCompleted, this, [this, session]() { Q_EMIT sessionCompleted(session); });
    Q_EMIT sessionAdded(session);
    // Of the latest batch, the first in the open order; a late load of an earlier batch leaves the newer one current.
    const quint64 order = session->openOrder();
    const quint64 current = m_current ? m_current->openOrder() : 0;
    const bool latestBatch = order >= m_batchStart;
    if (!m_current || (latestBatch ? current < m_batchStart || order < current : order > current))
        setCurrent(session);
}

void Workbench::removeSession(ProfileSession* session)
{
    const auto it = std::find(m_sessions.begin(), m_sessions.end(), session);
    if (it == m_sessions.end())
        return;
    Q_EMIT sessionAboutToBeRemoved(session);
    m_sessions.erase(it);
    if (m_current == session)
        setCurrent(m_sessions.empty() ? nullptr : m_sessions.back());
    delete session;
}

void Workbench::setCurrent(ProfileSession* session)
{
    if (session == m_current)
        return;
    m_current = session;
    Q_EMIT currentChanged(session);
}

void Workbench::selectKernelName(ProfileSession* session, const QString& name)
{
    Q_EMIT kernelNameSelected(session, name);
}

void Workbench::selectKernelInstance(ProfileSession* session, std::uint32_t kernelRow)
{
    Q_EMIT kernelInstanceSelected(session, kernelRow);
}

void Workbench::selectNvtxEvent(ProfileSession* session, std::uint32_t nvtxRow)
{
    Q_EMIT nvtxEventSelected(session, nvtxRow);
}

void Workbench::pickTimeRange(ProfileSession* session, TimeNs start, TimeNs end)
{
    Q_EMIT timeRangePicked(session, start, end);
}

void Workbench::selectSampleMarks(ProfileSession* session, std::shared_ptr<const SampleMarks> marks)
{
    Q_EMIT sampleMarksSelected(session, std::move(marks));
}

void Workbench::selectTimeRange(ProfileSession* session, TimeNs start, TimeNs end)
{
    Q_EMIT timeRangeSelected(session, start, end);
}

void Workbench::showKernels(const KernelSelection& selection)
{
    Q_EMIT kernelSelectionChanged(selection);
}

void Workbench::clearKernelSelection(ProfileSession* session)
{
    KernelSelection none;
    none.session = session;
    Q_EMIT kernelSelectionChanged(none);
}

} // namespace nsw

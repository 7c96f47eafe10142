// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/samples/samplecounts.h"
#include "core/session/profilesession.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <memory>
#include <vector>

namespace nsw {

/// A set of kernels one pane asks the others to show (a category segment, an NVTX range, a peak interval...).
struct KernelSelection
{
    QPointer<ProfileSession> session;
    QString label; ///< shown in the kernel table's filter bar, e.g. "category gemm" or "NVTX: forward"
    /// The kernel rows to keep (filter.rows, indexed by Profile::kernels row). Name masks depend on the name mode of
    /// the pane that made them, so selections always travel as rows.
    KernelFilter filter;
};

/// The open profiles, the current one, and the linked selection between panes. Panes talk through it rather
/// than to each other.
class Workbench : public QObject
{
    Q_OBJECT
public:
    explicit Workbench(QObject* parent = nullptr);

    const std::vector<ProfileSession*>& sessions() const { return m_sessions; }
    ProfileSession* current() const { return m_current; }
    /// A place in the open order, taken when the user asks to open a file (before its load starts).
    quint64 reserveOpenOrder() { return ++m_lastOpenOrder; }
    /// The files the user opens next (the places reserved from now on) were asked for at once: of them, the first in
    /// the open order becomes current, whichever load ends first (several files on the command line, a drop).
    void beginOpenBatch() { m_batchStart = m_lastOpenOrder + 1; }
    /// Takes ownership. Listed by open order (a session without one is appended, as a batch of its own). Becomes
    /// current unless the current session is of the same open batch and comes before it in the open order.
    void addSession(ProfileSession* session);
    /// Closes and deletes the session (its memory is freed once no pane holds its profile).
    void removeSession(ProfileSession* session);
    void setCurrent(ProfileSession* session);

    /// Linked selection: a kernel name chosen anywhere (kernel table, NVLink peak list, comparison...).
    void selectKernelName(ProfileSession* session, const QString& name);
    /// Linked selection: one kernel execution (a row of Profile::kernels), e.g. picked in the instance list.
    void selectKernelInstance(ProfileSession* session, std::uint32_t kernelRow);
    /// Linked selection: one NVTX event (a row of Profile::nvtx), e.g. the first instance of a range picked in the
    /// NVTX tree; the timeline reveals it.
    void selectNvtxEvent(ProfileSession* session, std::uint32_t nvtxRow);
    /// Linked selection: a stretch of a profile's time (an NVLink peak...), on the events' clock; the timeline shows
    /// it with context and marks it.
    void selectTimeRange(ProfileSession* session, TimeNs start, TimeNs end);
    /// Linked selection: a stretch of time the user dragged on the timeline (the Samples pane shows the samples in it).
    void pickTimeRange(ProfileSession* session, TimeNs start, TimeNs end);
    /// Linked selection: the samples of a function picked in the Samples pane, which the timeline marks on its thread
    /// rows (null: none).
    void selectSampleMarks(ProfileSession* session, std::shared_ptr<const SampleMarks> marks);
    /// Filter the kernel table to a set of kernels; an empty filter clears it.
    void showKernels(const KernelSelection& selection);
    void clearKernelSelection(ProfileSession* session);

Q_SIGNALS:
    void sessionAdded(nsw::ProfileSession* session);
    void sessionAboutToBeRemoved(nsw::ProfileSession* session);
    /// A session added at the first stage of a staged load now holds the whole profile (ProfileSession::completeLoad).
    void sessionCompleted(nsw::ProfileSession* session);
    void currentChanged(nsw::ProfileSession* session);
    void kernelNameSelected(nsw::ProfileSession* session, const QString& name);
    void kernelInstanceSelected(nsw::ProfileSession* session, quint32 kernelRow);
    void kernelSelectionChanged(const nsw::KernelSelection& selection);
    void nvtxEventSelected(nsw::ProfileSession* session, quint32 nvtxRow);
    void timeRangeSelected(nsw::ProfileSession* session, qint64 start, qint64 end);
    void timeRangePicked(nsw::ProfileSession* session, qint64 start, qint64 end);
    void sampleMarksSelected(nsw::ProfileSession* session, std::shared_ptr<const nsw::SampleMarks> marks);
    /// The focus range of @p session changed (ProfileSession::setFocus): panes showing it recompute.
    void focusChanged(nsw::ProfileSession* session);

private:
    std::vector<ProfileSession*> m_sessions;
    ProfileSession* m_current = nullptr;
    quint64 m_lastOpenOrder = 0;
    quint64 m_batchStart = 0; ///< the first open order of the latest batch
};

} // namespace nsw

Q_DECLARE_METATYPE(nsw::KernelSelection)

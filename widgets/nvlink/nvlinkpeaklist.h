// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/nvlinkpeaksrun.h"

#include <QPointer>
#include <QSplitter>
#include <memory>

class QLabel;
class QTableView;

namespace nsw {

class NvlinkKernelModel;
class NvlinkPeakModel;
class ProfileSession;
class SortFilterProxy;
class Workbench;

/// The NVLink pane's peak list and, under it, the kernels running during the selected peak. Picking a peak selects
/// its time range in the other panes, a kernel selects it in the kernel table, "Show in kernel table" filters the
/// kernel table to the peak's kernels.
class NvlinkPeakList : public QSplitter
{
    Q_OBJECT
public:
    explicit NvlinkPeakList(Workbench* workbench, QWidget* parent = nullptr);

    /// Lists @p result's peaks, computed for @p session (with a focus when @p focused). The first peak is made
    /// current, not picked: the timeline stays where the user left it.
    void setPeaks(ProfileSession* session, const NvlinkPeaksResult& result, bool focused);
    /// No peaks and no kernels.
    void clear();
    /// The peaks listed are of a profile no longer shown: they are kept until setPeaks() or clear(), but no longer
    /// lead to their kernels or time ranges.
    void forgetResult();
    /// Makes the peak of rank @p rank (1-based) current.
    void selectPeak(int rank);
    /// The kernels of the selected peak as CSV, through a save dialog (@p baseName suggests the file name).
    void exportKernelsCsv(const QString& baseName);

    NvlinkPeakModel* peakModel() const { return m_peakModel; }
    NvlinkKernelModel* kernelModel() const { return m_kernelModel; }
    QTableView* peakView() const { return m_peakView; }
    QTableView* kernelView() const { return m_kernelView; }
    QLabel* kernelLabel() const { return m_kernelLabel; }

Q_SIGNALS:
    /// The current peak changed to @p rank (0: none); @p showWhole: bring the whole peak into the plot's view.
    void currentPeakChanged(int rank, bool showWhole);

private:
    void showKernelsOfCurrentPeak();
    void showPeakKernelsInTable();
    const NvlinkPeak* currentPeak() const;

    Workbench* m_workbench;
    QPointer<ProfileSession> m_session;
    std::shared_ptr<const KernelOverlapIndex> m_kernels; ///< of the peaks listed; null when none are
    bool m_focused = false;
    bool m_listingPeaks = false; ///< the current row is set by setPeaks(), not by the user
    NvlinkPeakModel* m_peakModel;
    SortFilterProxy* m_peakProxy;
    QTableView* m_peakView;
    QLabel* m_kernelLabel;
    NvlinkKernelModel* m_kernelModel;
    SortFilterProxy* m_kernelProxy;
    QTableView* m_kernelView;
};

} // namespace nsw

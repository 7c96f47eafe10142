// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/nvlink/nvlinkattachment.h"
#include "core/nvlink/nvlinkpeaksrun.h"
#include "core/nvlink/nvlinksetup.h"
#include "core/nvlink/plotreduction.h"
#include "core/nvlink/recordingplacement.h"
#include "widgets/common/sessionpane.h"
#include "widgets/nvlink/nvlinkreuse.h"
#include "widgets/nvlink/nvlinksources.h"

#include <map>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QMenu;
class QSpinBox;
class QTabWidget;
class QTableView;
class QToolButton;

namespace nsw {

class LinkMenu;
class NvlinkKernelModel;
class NvlinkPeakList;
class NvlinkPeakModel;
class NvlinkPlot;
class ProfileSession;
class SortFilterProxy;

/// NVLink throughput of the current profile (an attached NVF1 recording or the export's own GPU metrics): the
/// throughput over time per link or summed, the top-N peaks marked and listed, the kernels running during the
/// selected peak (clicking one selects it in the kernel table), the NVML clock offset, and exports.
class NvlinkPane : public SessionPane
{
    Q_OBJECT
public:
    explicit NvlinkPane(Workbench* workbench, QWidget* parent = nullptr);
    ~NvlinkPane() override;

    bool isComputing() const override { return m_job.isBusy(); }
    QAbstractItemView* exportableView() const override;
    QCustomPlot* exportablePlot() const override;
    QString exportBaseName() const override;

    // For tests and scripting.
    NvlinkPlot* plot() const { return m_plot; }
    NvlinkPeakModel* peakModel() const;
    NvlinkKernelModel* kernelModel() const;
    QTableView* peakView() const;
    /// The plot and the peak list, as tabs.
    QTabWidget* views() const { return m_views; }
    QTableView* kernelView() const;
    QComboBox* sourceSelector() const { return m_source; }
    /// The notes above the plot (recording, units, focus) as a person reads them.
    QString messageText() const;
    QDoubleSpinBox* clockOffsetBox() const { return m_offset; }
    /// Shows the clock offset, GPU model, Link peaks and Attach.
    QToolButton* moreButton() const { return m_moreButton; }
    QLabel* alignmentLabel() const { return m_alignment; }
    QLabel* messageLabel() const { return m_message; }
    /// The warning shown when the recording does not overlap the capture, and its "Align…" button.
    QWidget* placementBanner() const { return m_placementBanner; }
    QLabel* placementWarning() const { return m_placementWarning; }
    QToolButton* alignButton() const { return m_alignButton; }
    QLabel* kernelLabel() const;
    void setSummedLinks(bool summed);
    void setTopPeaks(int top);
    void setClockOffsetMs(double ms);
    /// Selects the peak of rank @p rank (1-based) in the list, the plot and the kernel list.
    void selectPeak(int rank);
    /// The ccl-bench peak_kernels JSON of the current selection, as the export writes it.
    QByteArray peakKernelsJson() const;

Q_SIGNALS:
    /// New peaks are shown (tests wait on it).
    void peaksShown();

protected:
    void sessionChanged(ProfileSession* session) override;
    void sessionFocusChanged() override { recompute(); }

private:
    using Source = NvlinkSourceChoice;
    struct Computed;

    void onAttachmentChanged(const QString& key);
    void readGpuMetricsIfNeeded();
    void refreshSources();
    void onSourceChanged();
    void rebuildLinksMenu();
    void recompute();
    /// The controls for the data there is: without NVLink data only Attach and Link peaks.
    void showControls();
    void showComputed(const std::shared_ptr<Computed>& c);
    void updateAlignmentLabel();
    /// The current source set against the profile (core's setUpNvlinkSource(), as the nvlink command does): clock
    /// alignment, a recording's placement against the capture, the GPU's model. Empty without a source.
    std::optional<NvlinkSetup> sourceSetup() const;
    void alignRecordingStart();
    void setUpControls();
    void applyClockOffset(double ms);
    void editLinkPeaks();
    void exportJson();
    std::shared_ptr<const NvlinkAttachment> attachment() const;
    bool currentSource(Source& out) const;
    int currentGpu() const;
    std::vector<const ThroughputSeries*> selectedSeries(std::shared_ptr<const void>& keepAlive) const;
    const LinkPeakEntry* gpuModel() const;

    QMetaObject::Connection m_attachmentConnection;
    LinkPeakTable m_peakTable;
    QString m_peakTableProblem; ///< why the saved link peaks could not be read (the defaults are used)
    QComboBox* m_source;
    QComboBox* m_view;
    QCheckBox* m_tx;
    QCheckBox* m_rx;
    QToolButton* m_linksButton;
    LinkMenu* m_linksMenu;
    QComboBox* m_unit;
    QSpinBox* m_top;
    QCheckBox* m_ncclOnly;
    QDoubleSpinBox* m_offset;
    QString m_offsetToolTip;
    QLabel* m_alignment;
    QComboBox* m_model;
    QLabel* m_message;
    QWidget* m_placementBanner;
    QLabel* m_placementWarning;
    QToolButton* m_alignButton;
    QToolButton* m_moreButton = nullptr; ///< shows m_more
    QWidget* m_more = nullptr; ///< clock offset, GPU model, link peaks, attach
    std::vector<QWidget*> m_dataControls; ///< hidden, with the views, while the profile has no NVLink data
    QTabWidget* m_views;
    NvlinkPlot* m_plot;
    NvlinkPeakList* m_peaks;
    JobSlot m_job { this }; ///< the peaks being computed; a newer request cancels it
    JobSlot m_gpuMetricsJob { this }; ///< the GPU metrics of the current profile being read
    std::shared_ptr<Computed> m_computed;
    NvlinkReuse m_reuse; ///< the indexes of the current session's computations
    bool m_readingGpuMetrics = false;
};

} // namespace nsw

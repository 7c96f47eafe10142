// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkpane.h"

#include "core/models/nvlinkpeakmodel.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/util/findby.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "linkmenu.h"
#include "linkpeakdialog.h"
#include "nvlinkattach.h"
#include "nvlinkpeaklist.h"
#include "nvlinkplot.h"
#include "nvlinkpresentation.h"
#include "nvlinksources.h"
#include "widgets/common/filedialogs.h"
#include "widgets/common/flowlayout.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <optional>

namespace nsw {

struct NvlinkPane::Computed
{
    NvlinkPeaksRequest request;
    NvlinkPeaksResult result;
    QString sourceKey;
};

NvlinkPane::NvlinkPane(Workbench* workbench, QWidget* parent)
    : SessionPane(workbench, QStringLiteral("nvlink"), tr("NV&Link"), parent)
    , m_source(new QComboBox(this))
    , m_view(new QComboBox(this))
    , m_tx(new QCheckBox(tr("TX"), this))
    , m_rx(new QCheckBox(tr("RX"), this))
    , m_linksMenu(new LinkMenu(this))
    , m_unit(new QComboBox(this))
    , m_top(new QSpinBox(this))
    , m_ncclOnly(new QCheckBox(tr("NCCL only"), this))
    , m_offset(new QDoubleSpinBox(this))
    , m_alignment(new QLabel(this))
    , m_model(new QComboBox(this))
    , m_message(new QLabel(this))
    , m_placementBanner(new QWidget(this))
    , m_placementWarning(new QLabel(m_placementBanner))
    , m_alignButton(new QToolButton(m_placementBanner))
    , m_views(new QTabWidget(this))
    , m_plot(new NvlinkPlot(this))
    , m_peaks(new NvlinkPeakList(workbench, this))
{
    m_peakTable = LinkPeakTable::load(&m_peakTableProblem);
    setUpControls();

    auto* attach = new QToolButton(this);
    attach->setText(tr("Attach…"));
    attach->setToolTip(tr("Attach an NVF1 NVLink recording (.bin) to this profile"));
    auto* peaksButton = new QToolButton(this);
    peaksButton->setText(tr("Link peaks…"));
    peaksButton->setToolTip(tr("Edit the NVLink bandwidth per GPU model"));
    auto* exportMenu = new QMenu(this);
    QToolButton* exportButton = menuButton(tr("Export"), exportMenu, this);

    // The controls wrap onto more rows in a narrow dock instead of being squeezed; a label stays with its field. The
    // setup a session needs once (clock offset, GPU model, link peaks, more recordings) is under More: all in sight
    // took six rows of a 370 px dock at 1366x768 and left the plot ~60 px. Without NVLink data only Attach and Link
    // peaks show, with the message under them.
    m_moreButton = new QToolButton(this);
    m_moreButton->setText(tr("More"));
    m_moreButton->setCheckable(true);
    m_moreButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_moreButton->setArrowType(Qt::RightArrow);
    m_moreButton->setToolTip(tr("NVML clock offset, GPU model, link peaks, attach recordings"));
    QWidget* sourceField = labelledField(tr("Source:"), m_source, this);
    QWidget* offsetField = labelledField(tr("NVML clock offset:"), m_offset, this);
    QWidget* modelField = labelledField(tr("GPU model:"), m_model, this);
    auto* controls = new FlowLayout;
    for (QWidget* w : std::initializer_list<QWidget*> {
             sourceField, m_view, m_tx, m_rx, m_linksButton, m_unit, m_top, m_ncclOnly, exportButton, m_moreButton })
        controls->addWidget(w);
    m_dataControls = { sourceField, m_view, m_tx, m_rx, m_linksButton, m_unit, m_top, m_ncclOnly, exportButton,
        m_moreButton, offsetField, modelField };
    m_more = new QWidget(this);
    auto* more = new FlowLayout(m_more);
    more->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : std::initializer_list<QWidget*> { offsetField, modelField, peaksButton, attach })
        more->addWidget(w);
    m_alignment->setWordWrap(true);

    // The peak list in a tab of its own beside the plot: under it, a docked pane left it a few unreadable rows
    // (1920x1080) or none (1366x768). The kernels of the selected peak under the list.
    m_views->setObjectName(QStringLiteral("nvlinkViews"));
    // Below the plot's own minimum: the controls above keep their room (at 1366x680 a charts pane is ~310 px high).
    m_views->setMinimumHeight(48);
    m_views->addTab(m_plot, tr("Throughput"));
    m_views->addTab(m_peaks, tr("Peaks and kernels"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_more);
    layout->addWidget(m_alignment);
    layout->addWidget(m_placementBanner);
    layout->addWidget(m_message);
    layout->addWidget(m_views, 1);
    layout->addStretch(); // under the message while there is no data to plot

    exportMenu->addAction(
        tr("Plot as PNG…"), this, [this]() { exportPlotInteractively(*m_plot, exportBaseName(), this); });
    exportMenu->addAction(tr("Peaks as CSV…"), this,
        [this]() { exportViewCsvInteractively(peakView(), exportBaseName() + QStringLiteral("-peaks"), this); });
    exportMenu->addAction(
        tr("Kernels of the selected peak as CSV…"), this, [this]() { m_peaks->exportKernelsCsv(exportBaseName()); });
    exportMenu->addAction(tr("Peaks and kernels as JSON (ccl-bench peak_kernels)…"), this, &NvlinkPane::exportJson);

    connect(attach, &QToolButton::clicked, this, [this]() { attachNvlinkRecordingInteractively(session(), this); });
    connect(peaksButton, &QToolButton::clicked, this, &NvlinkPane::editLinkPeaks);
    connect(m_moreButton, &QToolButton::toggled, this, &NvlinkPane::showControls);
    connect(m_source, &QComboBox::currentIndexChanged, this, &NvlinkPane::onSourceChanged);
    for (QCheckBox* c : { m_tx, m_rx, m_ncclOnly })
        connect(c, &QCheckBox::toggled, this, &NvlinkPane::recompute);
    connect(m_view, &QComboBox::currentIndexChanged, this, [this]() {
        m_linksButton->setEnabled(m_view->currentIndex() == 0 && m_linksMenu->actions().size() > 2);
        recompute();
    });
    connect(m_unit, &QComboBox::currentIndexChanged, this, &NvlinkPane::recompute);
    connect(m_model, &QComboBox::currentIndexChanged, this, &NvlinkPane::recompute);
    connect(m_top, &QSpinBox::valueChanged, this, &NvlinkPane::recompute);
    connect(m_linksMenu, &QMenu::triggered, this, &NvlinkPane::recompute);
    connect(m_offset, &QDoubleSpinBox::valueChanged, this, &NvlinkPane::applyClockOffset);
    connect(m_alignButton, &QToolButton::clicked, this, &NvlinkPane::alignRecordingStart);
    connect(m_plot, &NvlinkPlot::peakClicked, m_peaks, &NvlinkPeakList::selectPeak);
    connect(m_peaks, &NvlinkPeakList::currentPeakChanged, m_plot, &NvlinkPlot::highlightPeak);
    showCurrentSession();
}

/// Items, ranges and tooltips of the controls, and the placement banner.
void NvlinkPane::setUpControls()
{
    m_source->setMinimumContentsLength(24);
    m_source->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_source->setToolTip(
        tr("NVLink data of this profile: attached NVF1 recordings (one per GPU) or the export's GPU metrics"));
    m_view->addItem(tr("Per link"));
    m_view->addItem(tr("Sum of links"));
    m_view->setToolTip(tr("One line per link, or the sum over all links at each poll"));
    m_tx->setChecked(true);
    m_rx->setChecked(true);
    m_linksButton = menuButton(tr("Links"), m_linksMenu, this);
    m_unit->addItem(tr("GB/s"));
    m_unit->addItem(tr("% of peak"));
    m_top->setRange(1, 1000);
    m_top->setValue(10);
    m_top->setPrefix(tr("Top "));
    m_top->setToolTip(tr("Number of peak intervals to mark and list"));
    m_ncclOnly->setToolTip(tr("List only NCCL kernels (name contains \"nccl\") for each peak"));
    // As far as a recording may lie from the session start and still be aligned (ClockAlignment: 100 days).
    m_offset->setRange(-8.64e9, 8.64e9);
    m_offset->setDecimals(3);
    m_offset->setSuffix(tr(" ms"));
    m_offset->setSingleStep(0.1);
    m_offsetToolTip = tr("Added to the NVML timestamps of the recording to line them up with the kernels (NVML "
                         "samples the counters slightly after the traffic)");
    m_offset->setToolTip(m_offsetToolTip);
    m_model->setToolTip(tr("GPU model whose link bandwidth gives \"% of peak\""));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bannerLayout = new QHBoxLayout(m_placementBanner);
    bannerLayout->setContentsMargins(6, 2, 6, 2);
    m_placementWarning->setWordWrap(true);
    m_placementWarning->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_placementWarning->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_alignButton->setText(tr("Align recording start to capture start"));
    m_alignButton->setToolTip(tr("Sets the NVML clock offset so that the recording's first sample falls on the "
                                 "capture's first instant"));
    bannerLayout->addWidget(m_placementWarning, 1);
    bannerLayout->addWidget(m_alignButton);
    m_placementBanner->setStyleSheet(QStringLiteral("background: #fff3cd; color: #5c4400;"));
    m_placementBanner->hide();
}

/// The NVML clock offset typed in: kept in the profile's NVLink attachment, which recomputes the pane.
void NvlinkPane::applyClockOffset(double ms)
{
    if (!session())
        return;
    const auto current = attachment();
    auto next = std::make_shared<NvlinkAttachment>(current ? *current : NvlinkAttachment());
    next->clockOffsetNs = TimeNs(std::llround(ms * 1e6));
    session()->setAttachment(nvlinkAttachmentKey(), next);
}

NvlinkPane::~NvlinkPane() = default;

NvlinkPeakModel* NvlinkPane::peakModel() const
{
    return m_peaks->peakModel();
}

NvlinkKernelModel* NvlinkPane::kernelModel() const
{
    return m_peaks->kernelModel();
}

QTableView* NvlinkPane::peakView() const
{
    return m_peaks->peakView();
}

QTableView* NvlinkPane::kernelView() const
{
    return m_peaks->kernelView();
}

QLabel* NvlinkPane::kernelLabel() const
{
    return m_peaks->kernelLabel();
}

QAbstractItemView* NvlinkPane::exportableView() const
{
    return kernelView()->hasFocus() ? kernelView() : peakView();
}

QCustomPlot* NvlinkPane::exportablePlot() const
{
    return m_plot;
}

QString NvlinkPane::exportBaseName() const
{
    return QStringLiteral("nvlink-") + (session() ? QFileInfo(session()->displayName()).completeBaseName() : QString());
}

std::shared_ptr<const NvlinkAttachment> NvlinkPane::attachment() const
{
    return session() ? session()->attachment<const NvlinkAttachment>(nvlinkAttachmentKey()) : nullptr;
}

void NvlinkPane::sessionChanged(ProfileSession* session)
{
    if (m_attachmentConnection)
        disconnect(m_attachmentConnection);
    m_reuse.clear();
    m_computed.reset();
    m_peaks->forgetResult();
    m_readingGpuMetrics = false;
    m_gpuMetricsJob.cancel();
    if (session)
        m_attachmentConnection
            = connect(session, &ProfileSession::attachmentChanged, this, &NvlinkPane::onAttachmentChanged);
    readGpuMetricsIfNeeded();
    refreshSources();
}

void NvlinkPane::onAttachmentChanged(const QString& key)
{
    if (key != nvlinkAttachmentKey())
        return;
    m_reuse.dropDetached(attachment().get());
    refreshSources();
}

void NvlinkPane::readGpuMetricsIfNeeded()
{
    if (!session() || m_readingGpuMetrics)
        return;
    const auto a = attachment();
    if ((a && a->gpuMetricsSearched) || !session()->profile()->meta.tables.contains(QStringLiteral("GPU_METRICS")))
        return;
    m_readingGpuMetrics = true;
    QPointer<ProfileSession> reading = session();
    const ProfilePtr profile = session()->profile();
    m_gpuMetricsJob.run<std::shared_ptr<const GpuMetricsNvlink>>(
        [profile](const JobContext& job) { return readNvlinkGpuMetrics(profile, job); },
        [this, reading](Result<std::shared_ptr<const GpuMetricsNvlink>> r) {
            if (!reading || reading != session())
                return;
            m_readingGpuMetrics = false;
            const auto current = reading->attachment<const NvlinkAttachment>(nvlinkAttachmentKey());
            auto next = std::make_shared<NvlinkAttachment>(current ? *current : NvlinkAttachment());
            next->gpuMetrics = r ? *r : nullptr;
            next->gpuMetricsSearched = true;
            reading->setAttachment(nvlinkAttachmentKey(), next);
            if (!r)
                m_message->setText(r.errorMessage());
        });
}

void NvlinkPane::refreshSources()
{
    const QString previous = m_source->currentData().toString();
    const auto a = attachment();
    QSignalBlocker block(m_source);
    m_source->clear();
    if (a)
        for (const NvlinkSourceItem& item : nvlinkSourceItems(*a))
            m_source->addItem(item.label, item.key);
    {
        QSignalBlocker blockOffset(m_offset);
        m_offset->setValue(a ? double(a->clockOffsetNs) / 1e6 : 0.0);
    }
    const int keep = m_source->findData(previous);
    m_source->setCurrentIndex(keep >= 0 ? keep : (m_source->count() > 0 ? 0 : -1));
    onSourceChanged();
}

bool NvlinkPane::currentSource(Source& out) const
{
    const auto a = attachment();
    const std::optional<Source> source = nvlinkSourceOfKey(m_source->currentData().toString(), a.get());
    if (source)
        out = *source;
    return source.has_value();
}

int NvlinkPane::currentGpu() const
{
    Source s;
    return currentSource(s) ? nvlinkSourceGpu(s, *attachment()) : 0;
}

void NvlinkPane::onSourceChanged()
{
    Source src;
    const bool have = currentSource(src);
    rebuildLinksMenu();
    m_view->setEnabled(have && !src.gpuMetrics);
    if (have && src.gpuMetrics) {
        QSignalBlocker block(m_view);
        m_view->setCurrentIndex(1);
    }
    m_offset->setEnabled(have && !src.gpuMetrics);
    // GPU model for % of peak.
    {
        QSignalBlocker block(m_model);
        m_model->clear();
        m_model->addItem(tr("Unknown"), QString());
        for (const LinkPeakEntry& e : m_peakTable.entries())
            m_model->addItem(
                QStringLiteral("%1 (%2 × %3 GB/s)").arg(e.pattern).arg(e.links).arg(e.gbpsPerLink), e.pattern);
        if (const std::optional<NvlinkSetup> setup = have ? sourceSetup() : std::nullopt)
            m_model->setCurrentIndex(setup->gpuModel ? m_model->findData(setup->gpuModel->pattern) : 0);
    }
    updateAlignmentLabel();
    recompute();
}

void NvlinkPane::rebuildLinksMenu()
{
    Source src;
    if (currentSource(src) && !src.gpuMetrics)
        m_linksMenu->setLinks(
            m_source->currentData(), linksOf(*attachment()->recordings[std::size_t(src.index)].recording));
    else
        m_linksMenu->clearLinks(m_source->currentData());
    m_linksButton->setEnabled(m_view->currentIndex() == 0 && !m_linksMenu->actions().isEmpty());
}

std::vector<const ThroughputSeries*> NvlinkPane::selectedSeries(std::shared_ptr<const void>& keepAlive) const
{
    Source src;
    if (!currentSource(src) || (!m_tx->isChecked() && !m_rx->isChecked()))
        return {};
    const auto a = attachment();
    keepAlive = a;
    const NvlinkSeriesSource source = nvlinkSeriesOf(src, *a);
    NvlinkFilter filter;
    if (m_tx->isChecked() != m_rx->isChecked())
        filter.direction = m_tx->isChecked() ? LinkDirection::Tx : LinkDirection::Rx;
    if (!src.gpuMetrics) {
        filter.aggregateLinks = m_view->currentIndex() == 1;
        if (!filter.aggregateLinks) {
            filter.links = m_linksMenu->checkedLinks();
            if (filter.links.empty())
                return {};
        }
    }
    return selectSeries(source, filter);
}

std::optional<NvlinkSetup> NvlinkPane::sourceSetup() const
{
    Source src;
    if (!session() || !currentSource(src))
        return std::nullopt;
    return nvlinkSourceSetup(src, *attachment(), *session()->profile(), m_peakTable);
}

const LinkPeakEntry* NvlinkPane::gpuModel() const
{
    const QString pattern = m_model->currentData().toString();
    if (pattern.isEmpty())
        return nullptr;
    return findBy(m_peakTable.entries(), &LinkPeakEntry::pattern, pattern);
}

void NvlinkPane::alignRecordingStart()
{
    if (const auto setup = sourceSetup(); setup && setup->placement && setup->placement->captureKnown())
        m_offset->setValue(double(setup->placement->alignOffsetNs) / 1e6);
}

void NvlinkPane::updateAlignmentLabel()
{
    const std::optional<NvlinkSetup> setup = sourceSetup();
    const bool anotherSession = setup && !setup->anotherSessionWarning.isEmpty();
    m_placementBanner->setVisible(anotherSession);
    if (anotherSession)
        m_placementWarning->setText(QStringLiteral("⚠ ") + setup->anotherSessionWarning
            + tr(" Every peak would list the kernels of another time, or none."));
    Source src;
    if (!setup || !currentSource(src)) {
        m_alignment->clear();
        return;
    }
    m_alignment->setVisible(!src.gpuMetrics);
    if (src.gpuMetrics) {
        // Said where it applies (the disabled offset field) rather than in a line of its own in a crowded pane.
        m_alignment->clear();
        m_offset->setToolTip(tr("GPU metrics are sampled on the export's own clock: no alignment needed."));
        return;
    }
    m_offset->setToolTip(m_offsetToolTip);
    const ClockAlignment& a = setup->alignment;
    const Nvf1Recording& r = *attachment()->recordings[std::size_t(src.index)].recording;
    const TimeNs startsAt = a.sessionNs(r.firstUs);
    m_alignment->setText(a.fromExport
            ? tr("Recording starts at %1 of the capture (NVML µs − session start %2).")
                  .arg(formatSeconds(startsAt, 6), cclTimestampIso(a.anchorUs))
            : tr("The export has no usable session start time: the recording is placed at the capture start; "
                 "use the offset to line it up."));
}

void NvlinkPane::showControls()
{
    const bool haveData = session() && m_source->count() > 0;
    m_views->setVisible(haveData);
    for (QWidget* w : m_dataControls)
        w->setVisible(haveData);
    m_more->setVisible(!haveData || m_moreButton->isChecked());
    m_moreButton->setArrowType(m_more->isVisibleTo(this) ? Qt::DownArrow : Qt::RightArrow);
}

void NvlinkPane::recompute()
{
    std::shared_ptr<const void> keepAlive;
    const std::vector<const ThroughputSeries*> series = selectedSeries(keepAlive);
    showControls();
    if (!session() || series.empty()) {
        m_job.cancel();
        m_computed.reset();
        m_plot->clearData();
        m_peaks->clear();
        m_message->setText(!session() ? tr("No profile open.")
                : m_source->count() == 0
                ? tr("No NVLink data for this profile. Attach an NVF1 recording (Attach…, File → Attach NVLink "
                     "recording, or open the trace folder holding the export and its .bin files), or capture with "
                     "nsys --gpu-metrics-devices.")
                : tr("Nothing selected: turn on TX or RX (and at least one link)."));
        return;
    }
    NvlinkPeaksRequest request;
    request.keepAlive = keepAlive;
    request.series = series;
    request.alignment = sourceSetup()->alignment;
    request.gpu = currentGpu();
    request.top = std::size_t(m_top->value());
    request.ncclOnly = m_ncclOnly->isChecked();
    if (const LinkPeakEntry* e = gpuModel())
        request.gpuModel = *e;
    request.focus = session()->focus();
    request.kernels.profile = session()->profile();
    request.forPlot = true;
    m_reuse.offer(request);
    const QString sourceKey = m_source->currentData().toString();
    m_job.run<std::shared_ptr<Computed>>(
        [request, sourceKey](const JobContext& job) -> Result<std::shared_ptr<Computed>> {
            Result<NvlinkPeaksResult> result = computeNvlinkPeaks(request, job);
            if (!result)
                return result.failureAs<std::shared_ptr<Computed>>();
            return std::make_shared<Computed>(Computed { request, std::move(*result), sourceKey });
        },
        [this](Result<std::shared_ptr<Computed>> computed) {
            if (!computed) {
                m_message->setText(tr("The peaks could not be computed: %1").arg(computed.errorMessage()));
                return;
            }
            const std::shared_ptr<Computed>& c = *computed;
            m_reuse.keep(c->request, c->result);
            showComputed(c);
        });
}

void NvlinkPane::showComputed(const std::shared_ptr<Computed>& c)
{
    const bool newSource = !m_computed || m_computed->sourceKey != c->sourceKey;
    const bool newFocus = !m_computed || !(m_computed->request.focus == c->request.focus);
    m_computed = c;
    const NvlinkPeaksRequest& request = c->request;
    const NvlinkPeaksResult& result = c->result;
    NvlinkPlotContent content = plotContentOf(request, result, m_unit->currentIndex() == 1);
    m_plot->setSeries(std::move(content.series), content.showPercent ? tr("% of peak") : tr("GB/s"));
    m_plot->setNcclBusy(result.ncclBusy);
    m_plot->setPeaks(std::move(content.peaks));
    // The plot shows the focus range (zoomed in), or all of the data once the focus is cleared; a new recording,
    // or one moved away from the view (aligned to the capture), is shown whole.
    if (newSource || newFocus || (!request.focus.isActive() && !m_plot->rangeShowsData()))
        m_plot->showRange(
            request.focus.isActive() ? request.focus.start : 0, request.focus.isActive() ? request.focus.end : 0);
    m_plot->refresh();

    m_message->setToolTip(QString());
    QStringList notes;
    if (const QString focus = focusNote(request, result); !focus.isEmpty())
        notes << focus;
    Source src;
    if (currentSource(src) && !src.gpuMetrics) {
        notes << recordingNotes(*attachment()->recordings[std::size_t(src.index)].recording);
    } else if (const auto a = attachment(); a && a->gpuMetrics) {
        // The metric names are long ("NVLink RX Requests User Data [Throughput %]" ×4): in the tooltip.
        notes << tr("nsys GPU metrics (%1 samples): percent of the GPU's NVLink bandwidth, summed over links.")
                     .arg(a->gpuMetrics->rows);
        m_message->setToolTip(a->gpuMetrics->metrics.join(QLatin1Char('\n')));
        if (!request.gpuModel)
            notes << tr("Set the GPU model to convert percent to GB/s (an assumption: nsys reports % of peak).");
    }
    if (content.unitFallback)
        notes << tr("Unknown GPU model: shown in the measured unit.");
    if (!m_peakTableProblem.isEmpty())
        notes << tr("Link peaks: %1").arg(m_peakTableProblem);
    if (!result.kernels->spans().deviceHasKernels)
        notes << tr("No kernels ran on device %1 in this export: is the recording of another GPU?").arg(request.gpu);
    m_message->setText(notes.join(QLatin1Char(' ')));
    m_peaks->setPeaks(session(), result, request.focus.isActive());
    Q_EMIT peaksShown();
}

QString NvlinkPane::messageText() const
{
    return m_message->text();
}

void NvlinkPane::selectPeak(int rank)
{
    m_peaks->selectPeak(rank);
}

void NvlinkPane::setSummedLinks(bool summed)
{
    m_view->setCurrentIndex(summed ? 1 : 0);
}

void NvlinkPane::setTopPeaks(int top)
{
    m_top->setValue(top);
}

void NvlinkPane::setClockOffsetMs(double ms)
{
    m_offset->setValue(ms);
}

QByteArray NvlinkPane::peakKernelsJson() const
{
    if (!m_computed)
        return {};
    OrderedJson j;
    j["peak_kernels"] = cclPeakKernelsOf(m_computed->request, m_computed->result);
    return QByteArray::fromStdString(pythonJsonDumps(j) + "\n");
}

void NvlinkPane::exportJson()
{
    const QByteArray json = peakKernelsJson();
    if (json.isEmpty()) {
        QMessageBox::information(this, tr("Export"), tr("No NVLink peaks to export."));
        return;
    }
    const QString file = askSaveFileName(this, tr("Export peaks and kernels"),
        exportBaseName() + QStringLiteral("-peak_kernels.json"), tr("JSON (*.json)"));
    if (file.isEmpty())
        return;
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(json) != json.size() || !out.commit())
        QMessageBox::warning(this, tr("Export"), QStringLiteral("%1: %2").arg(file, out.errorString()));
}

void NvlinkPane::editLinkPeaks()
{
    LinkPeakDialog dialog(m_peakTable, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const LinkPeakTable edited = dialog.table();
    if (const QString error = edited.save(); !error.isEmpty()) {
        QMessageBox::warning(this, tr("Link peaks"), error);
        return;
    }
    m_peakTable = edited;
    m_peakTableProblem.clear();
    onSourceChanged();
}

} // namespace nsw

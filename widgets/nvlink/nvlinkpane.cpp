// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkpane.h"

#include "core/models/modelroles.h"
#include "core/models/nvlinkkernelmodel.h"
#include "core/models/nvlinkpeakmodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/profile/capturespan.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "linkpeakdialog.h"
#include "nvlinkattach.h"
#include "nvlinkplot.h"
#include "widgets/common/filedialogs.h"
#include "widgets/common/flowlayout.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <optional>
#include <set>

namespace nsw {

struct NvlinkPane::Computed
{
    NvlinkPeaksRequest request;
    NvlinkPeaksResult result;
    QString sourceKey;
};

namespace {

const QColor kLinkColors[] = { QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
    QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2),
    QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf), QColor(0x39, 0x3b, 0x79),
    QColor(0x63, 0x79, 0x39), QColor(0x8c, 0x6d, 0x31), QColor(0x84, 0x3c, 0x39), QColor(0x7b, 0x41, 0x73),
    QColor(0x52, 0x54, 0xa3), QColor(0x6b, 0x6e, 0xcf), QColor(0x9c, 0x9e, 0xde) };

QToolButton* menuButton(const QString& text, QMenu* menu, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setMenu(menu);
    b->setPopupMode(QToolButton::InstantPopup);
    return b;
}

QString sourceKeyOf(bool gpuMetrics, int index, const QString& path)
{
    return QStringLiteral("%1:%2:%3").arg(gpuMetrics ? 1 : 0).arg(index).arg(path);
}

} // namespace

NvlinkPane::NvlinkPane(Workbench* workbench, QWidget* parent)
    : Pane(workbench, parent)
    , m_source(new QComboBox(this))
    , m_view(new QComboBox(this))
    , m_tx(new QCheckBox(tr("TX"), this))
    , m_rx(new QCheckBox(tr("RX"), this))
    , m_linksMenu(new QMenu(this))
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
    , m_peakModel(new NvlinkPeakModel(this))
    , m_peakProxy(new SortFilterProxy(this))
    , m_peakView(new QTableView(this))
    , m_kernelLabel(new QLabel(this))
    , m_kernelModel(new NvlinkKernelModel(this))
    , m_kernelProxy(new SortFilterProxy(this))
    , m_kernelView(new QTableView(this))
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
    auto* showInTable = new QToolButton(this);
    showInTable->setText(tr("Show in kernel table"));
    showInTable->setToolTip(tr("Filter the kernel table to the kernels of this peak"));

    // The controls wrap onto more rows in a narrow dock instead of being squeezed; a label stays with its field.
    auto* controls = new FlowLayout;
    controls->addWidget(labelledField(tr("Source:"), m_source, this));
    for (QWidget* w : std::initializer_list<QWidget*> { m_view, m_tx, m_rx, m_linksButton, m_unit, m_top, m_ncclOnly })
        controls->addWidget(w);
    controls->addWidget(labelledField(tr("NVML clock offset:"), m_offset, this));
    controls->addWidget(labelledField(tr("GPU model:"), m_model, this));
    for (QWidget* w : std::initializer_list<QWidget*> { peaksButton, attach, exportButton })
        controls->addWidget(w);
    m_alignment->setWordWrap(true);

    setUpTables();

    auto* kernelBox = new QWidget(this);
    auto* kernelLayout = new QVBoxLayout(kernelBox);
    kernelLayout->setContentsMargins(0, 0, 0, 0);
    auto* kernelHeader = new QHBoxLayout;
    kernelHeader->addWidget(m_kernelLabel, 1);
    kernelHeader->addWidget(showInTable);
    kernelLayout->addLayout(kernelHeader);
    kernelLayout->addWidget(m_kernelView);
    // The peak list in a tab of its own beside the plot: under it, a docked pane left it a few unreadable rows
    // (1920x1080) or none (1366x768). The kernels of the selected peak under the list.
    auto* tables = new QSplitter(Qt::Vertical, this);
    letSplitterGiveWay(tables);
    tables->addWidget(m_peakView);
    tables->addWidget(kernelBox);
    m_views->setObjectName(QStringLiteral("nvlinkViews"));
    // Below the plot's own minimum: the controls above keep their room (at 1366x680 a charts pane is ~310 px high).
    m_views->setMinimumHeight(48);
    m_views->addTab(m_plot, tr("Throughput"));
    m_views->addTab(tables, tr("Peaks and kernels"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_alignment);
    layout->addWidget(m_placementBanner);
    layout->addWidget(m_message);
    layout->addWidget(m_views, 1);

    exportMenu->addAction(
        tr("Plot as PNG…"), this, [this]() { exportPlotInteractively(*m_plot, exportBaseName(), this); });
    exportMenu->addAction(tr("Peaks as CSV…"), this,
        [this]() { exportViewCsvInteractively(m_peakView, exportBaseName() + QStringLiteral("-peaks"), this); });
    exportMenu->addAction(tr("Kernels of the selected peak as CSV…"), this, &NvlinkPane::exportKernelsCsv);
    exportMenu->addAction(tr("Peaks and kernels as JSON (ccl-bench peak_kernels)…"), this, &NvlinkPane::exportJson);

    connect(attach, &QToolButton::clicked, this, [this]() { attachNvlinkRecordingInteractively(m_session, this); });
    connect(peaksButton, &QToolButton::clicked, this, &NvlinkPane::editLinkPeaks);
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
    connect(m_peakView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &NvlinkPane::showKernelsOfCurrentPeak);
    connect(workbench, &Workbench::focusChanged, this, [this](ProfileSession* s) {
        if (s == m_session)
            recompute();
    });
    connect(m_kernelView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (!current.isValid() || !m_session)
                return;
            const int row = m_kernelProxy->mapToSource(current).row();
            this->workbench()->selectKernelInstance(m_session, m_kernelModel->kernelRowAt(row));
        });
    connect(showInTable, &QToolButton::clicked, this, &NvlinkPane::showPeakKernelsInTable);
    connect(m_plot, &NvlinkPlot::peakClicked, this, &NvlinkPane::selectPeak);
    connect(m_peakView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& i) {
        const NvlinkPeak* p = m_peakModel->peakAt(m_peakProxy->mapToSource(i).row());
        if (p && m_session && !m_listingPeaks)
            this->workbench()->selectTimeRange(m_session, p->start, p->end);
    });
    connect(workbench, &Workbench::currentChanged, this, &NvlinkPane::onCurrentSessionChanged);
    onCurrentSessionChanged(workbench->current());
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

void NvlinkPane::setUpTables()
{
    m_peakProxy->setSourceModel(m_peakModel);
    m_peakView->setModel(m_peakProxy);
    setupTableView(m_peakView);
    m_peakView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_peakView->sortByColumn(NvlinkPeakModel::RankColumn, Qt::AscendingOrder);
    m_kernelProxy->setSourceModel(m_kernelModel);
    m_kernelProxy->setFilterKeyColumn(NvlinkKernelModel::NameColumn);
    m_kernelView->setModel(m_kernelProxy);
    setupTableView(m_kernelView);
    m_kernelView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_kernelView->horizontalHeader()->resizeSection(NvlinkKernelModel::NameColumn, 300);
}

/// The NVML clock offset typed in: kept in the profile's NVLink attachment, which recomputes the pane.
void NvlinkPane::applyClockOffset(double ms)
{
    if (!m_session)
        return;
    const auto current = attachment();
    auto next = std::make_shared<NvlinkAttachment>(current ? *current : NvlinkAttachment());
    next->clockOffsetNs = TimeNs(std::llround(ms * 1e6));
    m_session->setAttachment(nvlinkAttachmentKey(), next);
}

/// Filters the kernel table to the kernels of the selected peak.
void NvlinkPane::showPeakKernelsInTable()
{
    const NvlinkPeak* p = m_peakModel->peakAt(m_peakProxy->mapToSource(m_peakView->currentIndex()).row());
    if (!p || !m_session || !m_computed)
        return;
    auto rows = std::make_shared<std::vector<char>>(m_session->profile()->kernels.size(), 0);
    for (const PeakKernel& k : p->kernels)
        (*rows)[m_computed->result.kernels->spans().row[k.span]] = 1;
    KernelSelection selection;
    selection.session = m_session;
    selection.label = tr("NVLink peak #%1").arg(p->rank);
    selection.filter.rows = rows;
    workbench()->showKernels(selection);
}

NvlinkPane::~NvlinkPane() = default;

QAbstractItemView* NvlinkPane::exportableView() const
{
    return m_kernelView->hasFocus() ? m_kernelView : m_peakView;
}

QCustomPlot* NvlinkPane::exportablePlot() const
{
    return m_plot;
}

QString NvlinkPane::exportBaseName() const
{
    return QStringLiteral("nvlink-") + (m_session ? QFileInfo(m_session->displayName()).completeBaseName() : QString());
}

std::shared_ptr<const NvlinkAttachment> NvlinkPane::attachment() const
{
    return m_session ? m_session->attachment<const NvlinkAttachment>(nvlinkAttachmentKey()) : nullptr;
}

void NvlinkPane::onCurrentSessionChanged(ProfileSession* session)
{
    if (m_attachmentConnection)
        disconnect(m_attachmentConnection);
    m_session = session;
    m_kernelIndexes.clear();
    m_maxIndexes.clear();
    m_computed.reset();
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
    dropDetachedMaxIndexes();
    refreshSources();
}

void NvlinkPane::dropDetachedMaxIndexes()
{
    std::set<const ThroughputSeries*> attached;
    if (const auto a = attachment()) {
        for (const NvlinkRecordingEntry& e : a->recordings)
            for (const auto* list : { &e.recording->links, &e.recording->totals })
                for (const ThroughputSeries& s : *list)
                    attached.insert(&s);
        if (a->gpuMetrics)
            for (const ThroughputSeries& s : a->gpuMetrics->series)
                attached.insert(&s);
    }
    std::erase_if(m_maxIndexes, [&attached](const auto& entry) { return !attached.count(entry.first); });
}

void NvlinkPane::readGpuMetricsIfNeeded()
{
    if (!m_session || m_readingGpuMetrics)
        return;
    const auto a = attachment();
    if ((a && a->gpuMetricsSearched) || !m_session->profile()->meta.tables.contains(QStringLiteral("GPU_METRICS")))
        return;
    m_readingGpuMetrics = true;
    QPointer<ProfileSession> session = m_session;
    const ProfilePtr profile = m_session->profile();
    m_gpuMetricsJob.run<std::shared_ptr<const GpuMetricsNvlink>>(
        [profile](const JobContext& job) -> Result<std::shared_ptr<const GpuMetricsNvlink>> {
            // The timeline reads every GPU metric of the profile too: one scan serves both.
            const GpuMetricCountersResult read = sharedGpuMetricCounters(profile, job);
            if (read.cancelled)
                return Result<std::shared_ptr<const GpuMetricsNvlink>>::cancelled();
            const GpuMetricsResult r
                = read.data ? nvlinkFromCounters(*read.data) : GpuMetricsResult { nullptr, read.error };
            if (!r.error.isEmpty())
                return Result<std::shared_ptr<const GpuMetricsNvlink>>::failure(ErrorKind::Input, r.error);
            return std::shared_ptr<const GpuMetricsNvlink>(r.data);
        },
        [this, session](Result<std::shared_ptr<const GpuMetricsNvlink>> r) {
            if (!session || session != m_session)
                return;
            m_readingGpuMetrics = false;
            const auto current = session->attachment<const NvlinkAttachment>(nvlinkAttachmentKey());
            auto next = std::make_shared<NvlinkAttachment>(current ? *current : NvlinkAttachment());
            next->gpuMetrics = r ? *r : nullptr;
            next->gpuMetricsSearched = true;
            session->setAttachment(nvlinkAttachmentKey(), next);
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
    if (a) {
        for (std::size_t i = 0; i < a->recordings.size(); ++i) {
            const NvlinkRecordingEntry& e = a->recordings[i];
            m_source->addItem(tr("%1 — GPU %2 (NVML counters)").arg(QFileInfo(e.recording->path).fileName()).arg(e.gpu),
                sourceKeyOf(false, int(i), e.recording->path));
        }
        if (a->gpuMetrics) {
            std::vector<int> gpus;
            for (const ThroughputSeries& s : a->gpuMetrics->series)
                if (std::find(gpus.begin(), gpus.end(), s.gpu) == gpus.end())
                    gpus.push_back(s.gpu);
            for (const int g : gpus)
                m_source->addItem(tr("GPU %1 — nsys GPU metrics (% of peak)").arg(g), sourceKeyOf(true, g, QString()));
        }
    }
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
    const QStringList parts = m_source->currentData().toString().split(QLatin1Char(':'));
    const auto a = attachment();
    if (parts.size() < 3 || !a)
        return false;
    out.gpuMetrics = parts[0] == QLatin1String("1");
    out.index = parts[1].toInt();
    if (out.gpuMetrics)
        return bool(a->gpuMetrics);
    return out.index >= 0 && std::size_t(out.index) < a->recordings.size();
}

int NvlinkPane::currentGpu() const
{
    Source s;
    if (!currentSource(s))
        return 0;
    return s.gpuMetrics ? s.index : attachment()->recordings[std::size_t(s.index)].gpu;
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
    // Links the user turned off stay off while the same recording is shown.
    std::vector<int> off;
    if (m_linksMenu->property("source") == m_source->currentData())
        for (const QAction* a : m_linksMenu->actions())
            if (a->isCheckable() && !a->isChecked())
                off.push_back(a->data().toInt());
    m_linksMenu->setProperty("source", m_source->currentData());
    m_linksMenu->clear();
    Source src;
    if (currentSource(src) && !src.gpuMetrics) {
        const Nvf1Recording& r = *attachment()->recordings[std::size_t(src.index)].recording;
        std::vector<int> links;
        for (const ThroughputSeries& s : r.links)
            if (std::find(links.begin(), links.end(), s.link) == links.end())
                links.push_back(s.link);
        std::sort(links.begin(), links.end());
        m_linksMenu->addAction(tr("All links"), this, [this]() {
            for (QAction* a : m_linksMenu->actions())
                a->setChecked(true);
        });
        m_linksMenu->addAction(tr("No link"), this, [this]() {
            for (QAction* a : m_linksMenu->actions())
                a->setChecked(false);
        });
        m_linksMenu->addSeparator();
        for (const int l : links) {
            QAction* a = m_linksMenu->addAction(tr("Link %1").arg(l));
            a->setCheckable(true);
            a->setChecked(std::find(off.begin(), off.end(), l) == off.end());
            a->setData(l);
        }
    }
    m_linksButton->setEnabled(m_view->currentIndex() == 0 && !m_linksMenu->actions().isEmpty());
}

std::vector<const ThroughputSeries*> NvlinkPane::selectedSeries(std::shared_ptr<const void>& keepAlive) const
{
    Source src;
    if (!currentSource(src) || (!m_tx->isChecked() && !m_rx->isChecked()))
        return {};
    const auto a = attachment();
    keepAlive = a;
    NvlinkSeriesSource source;
    NvlinkFilter filter;
    if (m_tx->isChecked() != m_rx->isChecked())
        filter.direction = m_tx->isChecked() ? LinkDirection::Tx : LinkDirection::Rx;
    if (src.gpuMetrics) {
        source.gpuMetrics = a->gpuMetrics;
        source.gpu = src.index;
        return selectSeries(source, filter);
    }
    source.recording = a->recordings[std::size_t(src.index)].recording;
    filter.aggregateLinks = m_view->currentIndex() == 1;
    if (!filter.aggregateLinks) {
        for (const QAction* act : m_linksMenu->actions())
            if (act->isCheckable() && act->isChecked())
                filter.links.push_back(act->data().toInt());
        if (filter.links.empty())
            return {};
    }
    return selectSeries(source, filter);
}

std::optional<NvlinkSetup> NvlinkPane::sourceSetup() const
{
    Source src;
    const auto a = attachment();
    if (!m_session || !currentSource(src))
        return std::nullopt;
    NvlinkSetupRequest request;
    if (src.gpuMetrics) {
        request.source = { nullptr, a->gpuMetrics, src.index };
    } else {
        const NvlinkRecordingEntry& e = a->recordings[std::size_t(src.index)];
        request.source = { e.recording, nullptr, e.gpu };
        request.recordingPath = e.recording->path;
    }
    const Profile& profile = *m_session->profile();
    request.exportInfo = &profile;
    request.capture = captureSpanOf(profile);
    request.offsetNs = a->clockOffsetNs;
    request.peakTable = &m_peakTable;
    request.exportPath = profile.meta.filePath;
    Result<NvlinkSetup> setup = setUpNvlinkSource(request); // no kernel clock asked: it cannot fail
    return setup ? std::optional<NvlinkSetup>(std::move(*setup)) : std::nullopt;
}

const LinkPeakEntry* NvlinkPane::gpuModel() const
{
    const QString pattern = m_model->currentData().toString();
    if (pattern.isEmpty())
        return nullptr;
    for (const LinkPeakEntry& e : m_peakTable.entries())
        if (e.pattern == pattern)
            return &e;
    return nullptr;
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

void NvlinkPane::recompute()
{
    std::shared_ptr<const void> keepAlive;
    const std::vector<const ThroughputSeries*> series = selectedSeries(keepAlive);
    if (!m_session || series.empty()) {
        m_job.cancel();
        m_computed.reset();
        m_plot->clearData();
        m_peakModel->setPeaks({});
        m_kernelModel->clear();
        m_kernelLabel->clear();
        m_message->setText(!m_session ? tr("No profile open.")
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
    request.focus = m_session->focus();
    request.kernels.profile = m_session->profile();
    if (const auto k = m_kernelIndexes.find(request.gpu); k != m_kernelIndexes.end())
        request.kernels.index = k->second;
    request.forPlot = true;
    for (const ThroughputSeries* s : series) {
        const auto it = m_maxIndexes.find(s);
        request.reusablePlotIndexes.push_back(it == m_maxIndexes.end() ? nullptr : it->second.index);
    }
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
            for (std::size_t i = 0; i < c->request.series.size(); ++i)
                m_maxIndexes[c->request.series[i]] = { c->request.keepAlive, c->result.plotIndexes[i] };
            m_kernelIndexes[c->request.gpu] = c->result.kernels;
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
    const bool wantPercent = m_unit->currentIndex() == 1;
    const LinkPeakEntry* model = request.gpuModel ? &*request.gpuModel : nullptr;
    bool unitFallback = false;
    std::vector<NvlinkPlotSeries> plotted;
    for (std::size_t i = 0; i < request.series.size(); ++i) {
        const ThroughputSeries& s = *request.series[i];
        NvlinkPlotSeries p;
        p.keepAlive = request.keepAlive;
        p.series = &s;
        p.index = result.plotIndexes[i];
        p.shift = request.alignment.shiftOf(s);
        const double capacity = !model ? 0.0 : s.link == kAllLinks ? model->gpuGbps() : model->gbpsPerLink;
        const bool native = (s.unit == ThroughputUnit::PercentOfPeak) == wantPercent;
        if (!native && capacity > 0)
            p.scale = s.unit == ThroughputUnit::GBps ? 100.0 / capacity : capacity / 100.0;
        else
            unitFallback = unitFallback || !native;
        p.name = s.label();
        p.color = s.link == kAllLinks ? (s.direction == LinkDirection::Tx ? kLinkColors[0] : kLinkColors[1])
                                      : kLinkColors[std::size_t(std::max(0, s.link)) % std::size(kLinkColors)];
        p.style = s.direction == LinkDirection::Tx ? Qt::SolidLine : Qt::DashLine;
        plotted.push_back(std::move(p));
    }
    const bool sourcePercent = !request.series.empty() && request.series.front()->unit == ThroughputUnit::PercentOfPeak;
    const bool showPercent = unitFallback ? sourcePercent : wantPercent;
    m_plot->setSeries(std::move(plotted), showPercent ? tr("% of peak") : tr("GB/s"));
    m_plot->setNcclBusy(result.ncclBusy);
    std::vector<NvlinkPlotPeak> marks;
    for (const NvlinkPeak& p : result.peaks) {
        const double shown = showPercent ? p.percentOfPeak : p.gbps;
        marks.push_back({ p.rank, p.start, p.end, std::isnan(shown) ? p.value : shown });
    }
    m_plot->setPeaks(std::move(marks));
    // The plot shows the focus range (zoomed in), or all of the data once the focus is cleared; a new recording,
    // or one moved away from the view (aligned to the capture), is shown whole.
    if (newSource || newFocus || (!request.focus.isActive() && !m_plot->rangeShowsData()))
        m_plot->showRange(
            request.focus.isActive() ? request.focus.start : 0, request.focus.isActive() ? request.focus.end : 0);
    m_plot->refresh();

    m_peakModel->setPeaks(result.peaks);
    m_message->setToolTip(QString());
    QStringList notes;
    if (request.focus.isActive()) {
        const bool anyInterval = std::any_of(result.focusWindows.begin(), result.focusWindows.end(),
            [](const IntervalWindow& w) { return w.last > w.first; });
        notes << (anyInterval ? tr("Focus %1: peaks among the intervals that overlap it, with the kernels that overlap "
                                   "it; the plot shows the focus range.")
                                    .arg(request.focus.label)
                              : tr("Focus %1: no interval of this recording overlaps it.").arg(request.focus.label));
    }
    Source src;
    if (currentSource(src) && !src.gpuMetrics) {
        const Nvf1Recording& r = *attachment()->recordings[std::size_t(src.index)].recording;
        notes << tr("%1: %2 records, %3 polls of %4 links over %5.")
                     .arg(QFileInfo(r.path).fileName(), withThousandsSeparators(r.stats.records),
                         withThousandsSeparators(r.stats.polls))
                     .arg(r.linkCount())
                     .arg(formatDuration((r.lastUs - r.firstUs) * 1000));
        for (const QString& w : r.warnings)
            notes << tr("Warning: %1.").arg(w);
    } else if (const auto a = attachment(); a && a->gpuMetrics) {
        // The metric names are long ("NVLink RX Requests User Data [Throughput %]" ×4): in the tooltip.
        notes << tr("nsys GPU metrics (%1 samples): percent of the GPU's NVLink bandwidth, summed over links.")
                     .arg(a->gpuMetrics->rows);
        m_message->setToolTip(a->gpuMetrics->metrics.join(QLatin1Char('\n')));
        if (!model)
            notes << tr("Set the GPU model to convert percent to GB/s (an assumption: nsys reports % of peak).");
    }
    if (unitFallback)
        notes << tr("Unknown GPU model: shown in the measured unit.");
    if (!m_peakTableProblem.isEmpty())
        notes << tr("Link peaks: %1").arg(m_peakTableProblem);
    if (!result.kernels->spans().deviceHasKernels)
        notes << tr("No kernels ran on device %1 in this export: is the recording of another GPU?").arg(request.gpu);
    m_message->setText(notes.join(QLatin1Char(' ')));
    if (m_peakProxy->rowCount() > 0) {
        // The first peak is listed, not picked: the timeline stays where the user left it.
        const QScopedValueRollback listing(m_listingPeaks, true);
        m_peakView->setCurrentIndex(m_peakProxy->index(0, 0));
    } else
        showKernelsOfCurrentPeak();
    Q_EMIT peaksShown();
}

void NvlinkPane::showKernelsOfCurrentPeak()
{
    const NvlinkPeak* p = m_peakModel->peakAt(m_peakProxy->mapToSource(m_peakView->currentIndex()).row());
    if (!p || !m_computed) {
        m_kernelModel->clear();
        m_kernelLabel->setText(tr("Select a peak to list the kernels running during it."));
        m_plot->highlightPeak(0, false);
        return;
    }
    m_kernelModel->setKernels(m_computed->result.kernels->spansPtr(), p->kernels);
    m_kernelView->sortByColumn(-1, Qt::AscendingOrder);
    const QString where = p->link == kAllLinks ? tr("all links") : tr("link %1").arg(p->link);
    const QString value = std::isnan(p->gbps) ? QStringLiteral("%1 %").arg(p->percentOfPeak, 0, 'f', 1)
                                              : QStringLiteral("%1 GB/s").arg(p->gbps, 0, 'f', 3);
    m_kernelLabel->setText(
        tr("Peak #%1 (%2 %3, %4, %5 at %6): %7 kernels, %8 NCCL")
            .arg(p->rank)
            .arg(where, p->directionText(), value, formatDuration(p->end - p->start), formatSeconds(p->start, 6),
                withThousandsSeparators(qint64(p->kernels.size())), withThousandsSeparators(qint64(p->ncclKernels))));
    // Under a focus every peak overlaps the range on screen: keep the plot on the focus.
    m_plot->highlightPeak(p->rank, !m_computed->request.focus.isActive());
}

QString NvlinkPane::messageText() const
{
    return m_message->text();
}

void NvlinkPane::selectPeak(int rank)
{
    for (int r = 0; r < m_peakProxy->rowCount(); ++r) {
        const QModelIndex i = m_peakProxy->index(r, NvlinkPeakModel::RankColumn);
        if (i.data(SortRole).toInt() == rank) {
            m_peakView->setCurrentIndex(i);
            m_peakView->scrollTo(i);
            return;
        }
    }
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

void NvlinkPane::exportKernelsCsv()
{
    if (m_kernelModel->rowCount() == 0) {
        QMessageBox::information(this, tr("Export"), tr("Select a peak with kernels first."));
        return;
    }
    exportViewCsvInteractively(m_kernelView, exportBaseName() + QStringLiteral("-peak-kernels"), this);
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

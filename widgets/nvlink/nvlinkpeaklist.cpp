// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkpeaklist.h"

#include "core/models/modelroles.h"
#include "core/models/nvlinkkernelmodel.h"
#include "core/models/nvlinkpeakmodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "nvlinkpresentation.h"
#include "widgets/common/pane.h"
#include "widgets/common/tableviews.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QTableView>
#include <QToolButton>

namespace nsw {

NvlinkPeakList::NvlinkPeakList(Workbench* workbench, QWidget* parent)
    : QSplitter(Qt::Vertical, parent)
    , m_workbench(workbench)
    , m_peakModel(new NvlinkPeakModel(this))
    , m_peakProxy(new SortFilterProxy(this))
    , m_peakView(new QTableView(this))
    , m_kernelLabel(new QLabel(this))
    , m_kernelModel(new NvlinkKernelModel(this))
    , m_kernelProxy(new SortFilterProxy(this))
    , m_kernelView(new QTableView(this))
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

    auto* showInTable = new QToolButton(this);
    showInTable->setText(tr("Show in kernel table"));
    showInTable->setToolTip(tr("Filter the kernel table to the kernels of this peak"));
    letSplitterGiveWay(this);
    addWidget(m_peakView);
    addWidget(boxWithHeader(m_kernelLabel, { showInTable }, m_kernelView, this));

    connect(m_peakView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &NvlinkPeakList::showKernelsOfCurrentPeak);
    connect(m_kernelView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (!current.isValid() || !m_session)
                return;
            const int row = m_kernelProxy->mapToSource(current).row();
            m_workbench->selectKernelInstance(m_session, m_kernelModel->kernelRowAt(row));
        });
    connect(showInTable, &QToolButton::clicked, this, &NvlinkPeakList::showPeakKernelsInTable);
    connect(m_peakView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& i) {
        const NvlinkPeak* p = m_peakModel->peakAt(m_peakProxy->mapToSource(i).row());
        if (p && m_session && !m_listingPeaks)
            m_workbench->selectTimeRange(m_session, p->start, p->end);
    });
}

void NvlinkPeakList::setPeaks(ProfileSession* session, const NvlinkPeaksResult& result, bool focused)
{
    m_session = session;
    m_kernels = result.kernels;
    m_focused = focused;
    m_peakModel->setPeaks(result.peaks);
    if (m_peakProxy->rowCount() > 0) {
        const QScopedValueRollback listing(m_listingPeaks, true);
        m_peakView->setCurrentIndex(m_peakProxy->index(0, 0));
    } else
        showKernelsOfCurrentPeak();
}

void NvlinkPeakList::clear()
{
    m_kernels.reset();
    m_peakModel->setPeaks({});
    m_kernelModel->clear();
    m_kernelLabel->clear();
}

void NvlinkPeakList::forgetResult()
{
    m_kernels.reset();
    m_session = nullptr;
}

const NvlinkPeak* NvlinkPeakList::currentPeak() const
{
    return m_peakModel->peakAt(m_peakProxy->mapToSource(m_peakView->currentIndex()).row());
}

void NvlinkPeakList::showKernelsOfCurrentPeak()
{
    const NvlinkPeak* p = currentPeak();
    if (!p || !m_kernels) {
        m_kernelModel->clear();
        m_kernelLabel->setText(tr("Select a peak to list the kernels running during it."));
        Q_EMIT currentPeakChanged(0, false);
        return;
    }
    m_kernelModel->setKernels(m_kernels->spansPtr(), p->kernels);
    m_kernelView->sortByColumn(-1, Qt::AscendingOrder);
    m_kernelLabel->setText(peakCaption(*p));
    // Under a focus every peak overlaps the range on screen: keep the plot on the focus.
    Q_EMIT currentPeakChanged(p->rank, !m_focused);
}

void NvlinkPeakList::showPeakKernelsInTable()
{
    const NvlinkPeak* p = currentPeak();
    if (!p || !m_session || !m_kernels)
        return;
    auto rows = std::make_shared<std::vector<char>>(m_session->profile()->kernels.size(), 0);
    for (const PeakKernel& k : p->kernels)
        (*rows)[m_kernels->spans().row[k.span]] = 1;
    KernelSelection selection;
    selection.session = m_session;
    selection.label = tr("NVLink peak #%1").arg(p->rank);
    selection.filter.rows = rows;
    m_workbench->showKernels(selection);
}

void NvlinkPeakList::selectPeak(int rank)
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

void NvlinkPeakList::exportKernelsCsv(const QString& baseName)
{
    if (m_kernelModel->rowCount() == 0) {
        QMessageBox::information(this, tr("Export"), tr("Select a peak with kernels first."));
        return;
    }
    exportViewCsvInteractively(m_kernelView, baseName + QStringLiteral("-peak-kernels"), this);
}

} // namespace nsw

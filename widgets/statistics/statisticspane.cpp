// SPDX-License-Identifier: GPL-3.0-or-later
#include "statisticspane.h"

#include "core/models/reporttablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/reports/reportregistry.h"
#include "core/reports/statsrun.h"
#include "core/session/workbench.h"
#include "core/stats/reports.h"
#include "widgets/common/filterbar.h"
#include "widgets/common/keycolumns.h"
#include "widgets/common/tableviews.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>

namespace nsw {

StatisticsPane::StatisticsPane(Workbench* workbench, QWidget* parent)
    : SessionPane(workbench, QStringLiteral("statistics"), tr("&Statistics"), parent)
    , m_report(new QComboBox(this))
    , m_filter(new FilterBar(this))
    , m_message(new QLabel(this))
    , m_model(new ReportTableModel(this))
    , m_proxy(new SortFilterProxy(this))
    , m_view(new QTableView(this))
    , m_job(this)
{
    const QStringList shown = { QStringLiteral("cuda_api_sum"), QStringLiteral("cuda_gpu_mem_time_sum"),
        QStringLiteral("cuda_gpu_mem_size_sum"), QStringLiteral("osrt_sum"), QStringLiteral("cuda_gpu_kern_sum") };
    for (const QString& name : shown)
        if (const ReportSpec* spec = findReport(name, nullptr))
            m_report->addItem(QStringLiteral("%1 (%2)").arg(spec->title, spec->name), spec->name);
    // Reports added by other analyses (NVTX, kernel launches...) come after the CUDA ones; traces are `stats` only.
    for (const ReportSpec& spec : reportSpecs())
        if (!shown.contains(spec.name) && !spec.trace)
            m_report->addItem(QStringLiteral("%1 (%2)").arg(spec.title, spec.name), spec.name);
    m_message->setWordWrap(true);
    m_message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_message->hide();
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(-1);
    m_view->setModel(m_proxy);
    setupTableView(m_view);
    m_columns = new KeyColumns(m_view, -1, {});

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_report);
    bar->addWidget(m_filter, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(m_view, 1);

    connect(m_report, &QComboBox::currentIndexChanged, this, &StatisticsPane::refreshWhenShown);
    connect(m_report, &QComboBox::activated, this, [this]() { m_reportPicked = true; });
    connect(m_filter, &FilterBar::filterChanged, this,
        [this](const QString& text, bool regex) { m_filter->setError(m_proxy->setFilter(text, regex)); });
    showCurrentSession();
}

void StatisticsPane::sessionChanged(ProfileSession*)
{
    showAReportWithData();
    refreshWhenShown();
}

QAbstractItemView* StatisticsPane::exportableView() const
{
    return m_view;
}

QString StatisticsPane::exportBaseName() const
{
    QString base = m_report->currentData().toString();
    if (session())
        base += QLatin1Char('-') + QFileInfo(session()->path()).completeBaseName();
    return base;
}

namespace {
/// The window's plan: the profile's focus, and memory reports of pre-ENUM exports shown (with a note) rather than
/// refused as `stats` refuses them.
StatsPlan windowPlan(StatsPlan plan, const FocusRange& focus)
{
    setFocus(plan, focus);
    for (ReportRequest& r : plan.reports)
        r.legacyMemcpyNames = true;
    return plan;
}
} // namespace

void StatisticsPane::refresh()
{
    m_job.cancel();
    if (!session()) {
        m_model->setReport({});
        m_message->setText(tr("No profile open."));
        m_message->show();
        Q_EMIT reportShown();
        return;
    }
    const Result<StatsPlan> plan = planReports({ m_report->currentData().toString() });
    if (!plan) {
        m_model->setReport({});
        m_message->setText(plan.errorMessage());
        m_message->show();
        Q_EMIT reportShown();
        return;
    }
    m_waitingReport.clear();
    if (const ReportSpec* spec = plan->reports.front().spec;
        !session()->isComplete() && (spec->loadParts & ~unsigned(LoadFirstStage))) {
        // Kernel and memory reports are ready; the others would show partial numbers as if they were final.
        m_waitingReport = spec->name;
        m_model->setReport({});
        showWaitingMessage();
        connect(session(), &ProfileSession::pendingStageChanged, this, &StatisticsPane::showWaitingMessage,
            Qt::UniqueConnection);
        Q_EMIT reportShown();
        return;
    }
    m_message->setText(tr("Computing %1…").arg(plan->reports.front().spec->name));
    m_message->show();
    const ProfilePtr profile = session()->profile();
    m_job.run<std::vector<ReportTable>>([plan = windowPlan(*plan, session()->focus()), profile](
                                            const JobContext& job) { return computeReports(plan, *profile, job); },
        [this](Result<std::vector<ReportTable>> tables) {
            if (!tables) { // cancelled runs are never delivered: this is a failure
                m_model->setReport({});
                m_message->setText(tr("The report could not be computed: %1").arg(tables.errorMessage()));
                m_message->show();
                Q_EMIT reportShown();
                return;
            }
            ReportTable table = std::move(tables.value().front());
            const QString message = table.skipped.isEmpty() ? table.note : table.skipped;
            m_model->setReport(std::move(table));
            m_message->setText(message);
            m_message->setVisible(!message.isEmpty());
            m_view->sortByColumn(-1, Qt::AscendingOrder); // keep nsys's row order until the user sorts
            showNameAndKeyColumns();
            Q_EMIT reportShown();
        });
}

namespace {
/// Every table @p parts names holds rows in @p p.
bool hasRowsFor(const Profile& p, unsigned parts)
{
    const std::pair<LoadPart, std::size_t> rows[]
        = { { LoadKernels, p.kernels.size() }, { LoadMemOps, p.memops.size() }, { LoadCudaApi, p.cudaApi.size() },
              { LoadNvtx, p.nvtx.size() }, { LoadOsrt, p.osrt.size() } };
    for (const auto& [part, count] : rows)
        if ((parts & part) && count == 0)
            return false;
    return true;
}
} // namespace

void StatisticsPane::showAReportWithData()
{
    if (m_reportPicked || !session() || !session()->isComplete())
        return;
    const Profile& p = *session()->profile();
    const auto dataAt = [&](int i) {
        const ReportSpec* spec = findReport(m_report->itemData(i).toString(), nullptr);
        return spec && hasRowsFor(p, spec->loadParts);
    };
    if (dataAt(m_report->currentIndex()))
        return;
    for (int i = 0; i < m_report->count(); ++i)
        if (dataAt(i)) {
            const QSignalBlocker quiet(m_report); // refresh() goes on with it
            m_report->setCurrentIndex(i);
            return;
        }
}

void StatisticsPane::showNameAndKeyColumns()
{
    // nsys prints the name last: on screen it comes first, with the four columns after it in nsys's order (Time %,
    // Total Time, Num Calls / Instances, Avg in the summaries) beside it.
    const ReportTable& r = m_model->report();
    int name = -1;
    for (int c = 0; c < int(r.columns.size()); ++c)
        if (r.columns[std::size_t(c)].header == QLatin1String("Name"))
            name = c;
    QList<int> keys;
    for (int c = 0; c < int(r.columns.size()) && keys.size() < 4; ++c)
        if (c != name)
            keys.append(c);
    m_columns->setColumns(name, keys);
}

void StatisticsPane::showWaitingMessage()
{
    if (m_waitingReport.isEmpty() || !session() || session()->isComplete())
        return;
    m_message->setText(tr("%1 needs CUDA API calls, NVTX or OS runtime calls, still loading: %2\nThe kernel and "
                          "memory reports (cuda_gpu_kern_sum, cuda_gpu_mem_time_sum…) are ready.")
                           .arg(m_waitingReport, session()->pendingStage()));
    m_message->show();
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "findingspane.h"

#include "core/categories/rulelibrary.h"
#include "core/diagnostics/diagnosticsexport.h"
#include "core/diagnostics/reportfiles.h"
#include "core/focus/focusresolve.h"
#include "core/models/diagnosticstablemodel.h"
#include "core/models/modelroles.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"
#include "widgets/common/backgroundexport.h"
#include "widgets/common/filedialogs.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"
#include "widgets/diagnostics/mfuview.h"
#include "widgets/diagnostics/reportcharts.h"
#include "widgets/diagnostics/rooflinechart.h"
#include "widgets/diagnostics/thresholdsdialog.h"

#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

namespace nsw {

namespace {
/// Colours the severity column: critical red, warning amber (the model lives in core, without colours).
class SeverityColours : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role == Qt::ForegroundRole && index.column() == FindingsModel::SeverityColumn) {
            const int severity = index.data(SortRole).toInt();
            if (severity == int(Severity::Critical))
                return QColor(176, 0, 32);
            if (severity == int(Severity::Warning))
                return QColor(160, 90, 0);
        }
        return QIdentityProxyModel::data(index, role);
    }
};

QString metricText(const FindingMetric& m)
{
    const QString value = m.unit == QLatin1String("ns") ? formatDuration(qint64(m.value))
        : m.unit == QLatin1String("%")                  ? QStringLiteral("%1 %").arg(m.value, 0, 'f', 1)
        : m.unit == QLatin1String("count")              ? withThousandsSeparators(qint64(m.value))
                                                        : QStringLiteral("%1 %2").arg(m.value, 0, 'g', 6).arg(m.unit);
    return QStringLiteral("%1: %2").arg(m.name.toHtmlEscaped(), value.toHtmlEscaped());
}

/// The finding as the detail panel shows it: what, the numbers, what to do, where the evidence is.
QString findingHtml(const Finding& f, const DiagnosticsResult& result)
{
    const QString cost = findingGpuCostText(result, f), host = findingHostTimeText(f);
    QString html = QStringLiteral("<h3>%1</h3><p><b>%2</b>%3%4</p><p>%5</p>")
                       .arg(f.title.toHtmlEscaped(), severityName(f.severity),
                           cost.isEmpty() ? QString() : QStringLiteral(" · GPU cost %1").arg(cost.toHtmlEscaped()),
                           host.isEmpty() ? QString() : QStringLiteral(" · host time %1").arg(host.toHtmlEscaped()),
                           f.detail.toHtmlEscaped());
    if (!f.metrics.empty()) {
        html += QStringLiteral("<ul>");
        for (const FindingMetric& m : f.metrics)
            html += QStringLiteral("<li>%1</li>").arg(metricText(m));
        html += QStringLiteral("</ul>");
    }
    if (!f.recommendation.isEmpty())
        html += QStringLiteral("<p><b>Recommendation:</b> %1</p>").arg(f.recommendation.toHtmlEscaped());
    QStringList evidence;
    const Evidence& e = f.evidence;
    if (e.hasTimeRange())
        evidence << QStringLiteral("time %1 – %2")
                        .arg(formatSeconds(e.start - result.clockOrigin, 9),
                            formatSeconds(e.end - result.clockOrigin, 9));
    if (!e.kernelNames.isEmpty())
        evidence << QStringLiteral("kernels: %1").arg(e.kernelNames.mid(0, 5).join(QStringLiteral(", ")))
                + (e.kernelNames.size() > 5 ? QStringLiteral(" and %1 more").arg(e.kernelNames.size() - 5) : QString());
    if (!e.nvtxRange.isEmpty())
        evidence << QStringLiteral("NVTX range %1").arg(e.nvtxRange);
    if (!e.apiNames.isEmpty())
        evidence << QStringLiteral("CUDA API: %1").arg(e.apiNames.join(QStringLiteral(", ")));
    QStringList devices;
    for (const int d : e.devices)
        devices << result.deviceLabel(d);
    if (!devices.isEmpty())
        evidence << devices.join(QStringLiteral(", "));
    if (!evidence.isEmpty()) {
        html += QStringLiteral("<p><b>Evidence:</b></p><ul>");
        for (const QString& line : evidence)
            html += QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    if (!f.thresholds.isEmpty())
        html += QStringLiteral("<p><small>Decided by %1</small></p>")
                    .arg(f.thresholds.join(QStringLiteral(", ")).toHtmlEscaped());
    return html;
}

QString skippedHtml(const DiagnosticsResult& result)
{
    if (result.skipped.empty())
        return {};
    QString html = QStringLiteral("<p><b>Not checked</b> (the profile lacks what they need):</p><ul>");
    for (const SkippedCheck& s : result.skipped)
        html += QStringLiteral("<li>%1: %2</li>").arg(s.check.toHtmlEscaped(), s.reason.toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

} // namespace

FindingsPane::FindingsPane(Workbench* workbench, QWidget* parent)
    : SessionPane(workbench, QStringLiteral("findings"), tr("Fin&dings"), parent)
    , m_message(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_findings(new FindingsModel(this))
    , m_findingsProxy(new SortFilterProxy(this))
    , m_findingsView(new QTableView(this))
    , m_detail(new QTextBrowser(this))
    , m_showKernels(new QPushButton(tr("Show kernels"), this))
    , m_focusRange(new QPushButton(tr("Focus on range"), this))
    , m_mfu(new MfuView(workbench, this))
    , m_job(this)
{
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* thresholds = new QPushButton(tr("Thresholds…"), this);
    thresholds->setToolTip(tr("The values the findings are decided by (as `report --threshold name=value`)."));
    auto* exportMenu = new QMenu(this);
    QToolButton* exportButton = menuButton(tr("Export"), exportMenu, this);
    exportMenu->addAction(tr("Table as CSV…"), this, [this]() {
        if (QAbstractItemView* view = exportableView())
            exportViewCsvInteractively(view, exportBaseName(), this);
    });
    QAction* roofline = exportMenu->addAction(tr("Roofline as PNG…"), this, [this]() {
        const QString profile = session() ? session()->profile()->displayName() : QString();
        exportPlotInteractively(*m_mfu->rooflineChart(), QStringLiteral("mfu_roofline-") + profile, this);
    });
    connect(exportMenu, &QMenu::aboutToShow, this,
        [this, roofline]() { roofline->setEnabled(m_mfu->result() != nullptr); });
    m_exportReport = exportMenu->addAction(tr("Report Folder…"), this, &FindingsPane::exportReportInteractively);
    m_exportReport->setToolTip(tr("report.md, report.json, report.html and tables/*.csv, as `nsys-workbench report`"));

    auto* colours = new SeverityColours(this);
    colours->setSourceModel(m_findings);
    m_findingsProxy->setSourceModel(colours);
    m_findingsView->setModel(m_findingsProxy);
    setupTableView(m_findingsView);
    m_findingsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->horizontalHeader()->setSectionResizeMode(FindingsModel::TitleColumn, QHeaderView::Stretch);
    m_findingsView->setSortingEnabled(false); // the result's order: GPU cost, then severity
    m_detail->setOpenLinks(false);
    m_showKernels->setToolTip(tr("Filter the Kernels pane to the kernels this finding names."));
    m_focusRange->setToolTip(tr("Focus every pane on the finding's time range or NVTX range."));

    auto* evidenceBar = new QHBoxLayout;
    evidenceBar->addWidget(m_showKernels);
    evidenceBar->addWidget(m_focusRange);
    evidenceBar->addStretch(1);
    auto* detailBox = new QWidget(this);
    auto* detailLayout = new QVBoxLayout(detailBox);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_detail, 1);
    detailLayout->addLayout(evidenceBar);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_findingsView);
    split->addWidget(detailBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    m_tabs->addTab(split, tr("Findings"));
    m_tabs->addTab(m_mfu, tr("MFU"));
    m_tabs->setTabToolTip(1, tr("Model FLOPs utilization per iteration and NVTX range (as `nsys-workbench mfu`)"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_message, 1);
    bar->addWidget(thresholds);
    bar->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_tabs, 1);

    connect(thresholds, &QPushButton::clicked, this, &FindingsPane::editThresholds);
    connect(m_showKernels, &QPushButton::clicked, this, &FindingsPane::showEvidenceKernels);
    connect(m_detail, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.toString() == QLatin1String("not-checked") && m_result)
            m_detail->setHtml(skippedHtml(*m_result));
    });
    connect(m_focusRange, &QPushButton::clicked, this, &FindingsPane::focusOnEvidence);
    connect(m_findingsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](
            const QModelIndex& current) { showFinding(current.isValid() ? current.data(IdentityRole).toInt() : -1); });
    showCurrentSession();
}

bool FindingsPane::isComputing() const
{
    return m_job.isBusy() || m_mfu->isComputing();
}

QAbstractItemView* FindingsPane::exportableView() const
{
    // The current tab's table; on the Findings tab (a splitter), the findings list.
    if (auto* view = qobject_cast<QAbstractItemView*>(m_tabs->currentWidget()))
        return view;
    if (m_tabs->currentWidget() == m_mfu)
        return m_mfu->exportableView();
    return m_findingsView;
}

QCustomPlot* FindingsPane::exportablePlot() const
{
    return m_mfu->rooflineChart(); // on screen only on the MFU tab: File → Export → PNG asks for what is on screen
}

QString FindingsPane::exportBaseName() const
{
    const QString table = m_tabs->currentIndex() > 0 ? exportableView()->objectName() : QStringLiteral("findings");
    return table + QLatin1Char('-') + (session() ? session()->profile()->displayName() : QString());
}

void FindingsPane::setThresholds(const Thresholds& thresholds)
{
    const Thresholds previous = std::exchange(m_thresholds, thresholds);
    if (!m_result && !m_job.isBusy())
        return;
    // A threshold that shapes an analysis (which gaps are listed, the long-gap totals, launch cost) runs them all
    // again, as `report --threshold` does; the others only decide the findings.
    if (m_job.isBusy() || analysisThresholdsDiffer(previous, thresholds)) {
        recompute();
        return;
    }
    auto result = std::make_shared<DiagnosticsResult>(*m_result);
    computeFindings(*result, m_thresholds);
    showResult(result, m_warnings);
    Q_EMIT resultShown();
}

void FindingsPane::sessionChanged(ProfileSession*)
{
    if (refreshWhenShown())
        return;
    m_job.cancel();
    showResult(nullptr, {});
}

void FindingsPane::recompute()
{
    m_job.cancel();
    if (!session()) {
        showResult(nullptr, tr("Open a profile to see its diagnostics."));
        Q_EMIT resultShown();
        return;
    }
    if (waitForWholeProfile(session())) {
        showResult(nullptr, {});
        return;
    }
    showResult(nullptr, tr("Analysing…"));
    DiagnosticsRequest request;
    request.profile = session()->profile();
    request.focus = session()->focus();
    request.thresholds = m_thresholds;
    m_job.run<AnalysedDiagnostics>(
        [request](const JobContext& job) mutable -> Result<AnalysedDiagnostics> {
            request.tensorCoreRules = tensorCoreRulesOf(RuleLibrary::loadDefault()); // the user's edits, if any
            Result<DiagnosticsResult> result = runDiagnostics(request, job);
            if (!result)
                return result.failureAs<AnalysedDiagnostics>();
            // The tables' cells are formatted here: thousands of gap rows took 60 ms of the GUI thread.
            AnalysedDiagnostics analysed { std::move(*result), {} };
            analysed.tables = diagnosticsTables(analysed.result);
            return Result<AnalysedDiagnostics>(std::move(analysed), result.warnings());
        },
        [this](Result<AnalysedDiagnostics> analysed) {
            if (!analysed) {
                showResult(nullptr, analysed.errorMessage());
            } else {
                m_warnings = analysed.warnings().join(QLatin1Char('\n'));
                showTables(std::move(analysed->tables));
                showResult(std::make_shared<const DiagnosticsResult>(std::move(analysed->result)), m_warnings);
            }
            Q_EMIT resultShown();
        },
        [this](const Progress& p) {
            m_message->setText(p.fraction >= 0 ? tr("Analysing: %1 (%2 %)").arg(p.stage).arg(int(p.fraction * 100))
                                               : tr("Analysing: %1").arg(p.stage));
        });
}

void FindingsPane::showResult(std::shared_ptr<const DiagnosticsResult> result, const QString& message)
{
    m_result = std::move(result);
    m_findings->setFindings(m_result ? m_result->findings : std::vector<Finding> {});
    QString text = message;
    if (m_result) {
        int critical = 0, warnings = 0;
        for (const Finding& f : m_result->findings) {
            critical += f.severity == Severity::Critical;
            warnings += f.severity == Severity::Warning;
        }
        text = tr("%1: %2 critical, %3")
                   .arg(countOf(qint64(m_result->findings.size()), tr("finding"), tr("findings")))
                   .arg(critical)
                   .arg(countOf(warnings, tr("warning"), tr("warnings")))
            + (m_result->skipped.empty()
                    ? QString()
                    : tr("; %1 not run for missing data")
                          .arg(countOf(qint64(m_result->skipped.size()), tr("check"), tr("checks"))))
            + (m_result->focus.isActive() ? tr(" — in the focus range") : QString())
            + (message.isEmpty() ? QString() : QLatin1Char('\n') + message);
    }
    m_message->setText(text);
    if (m_result && !m_result->findings.empty()) {
        m_findingsView->selectionModel()->setCurrentIndex(
            m_findingsProxy->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    } else {
        showFinding(-1);
    }
}

void FindingsPane::showTables(std::vector<DiagnosticsTable> tables)
{
    for (DiagnosticsTable& table : tables) {
        if (table.id == QLatin1String("findings"))
            continue;
        // Moved, not copied: the cells of thousands of gap rows took a third of the GUI thread's time here.
        auto shared = std::make_shared<const DiagnosticsTable>(std::move(table));
        const auto it = m_tableModels.find(shared->id);
        if (it != m_tableModels.end()) {
            it->second->setTable(shared);
            continue;
        }
        auto* model = new DiagnosticsTableModel(this);
        model->setTable(shared);
        QTableView* view = newSortableTableView(model, m_tabs);
        view->setObjectName(shared->id);
        m_tabs->addTab(view, shared->title);
        m_tabs->setTabToolTip(
            m_tabs->count() - 1, tr("%1 (tables/%2.csv of the report)").arg(shared->title, shared->id));
        m_tableModels.emplace(shared->id, model);
        if (shared->id == QLatin1String("gpu_idle_gaps") || shared->id == QLatin1String("gpu_stream_gaps"))
            connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this](const QModelIndex& current) { selectGap(current); });
    }
}

void FindingsPane::selectGap(const QModelIndex& row)
{
    // An idle gap picked in a gap table: the other panes (the timeline, the CPU samples) show its time.
    if (!row.isValid() || !m_result || !session())
        return;
    const QAbstractItemModel* model = row.model();
    qint64 start = 0, end = 0;
    for (int c = 0; c < model->columnCount(); ++c) {
        const QString column = model->headerData(c, Qt::Horizontal, CsvTextRole).toString();
        if (column == QLatin1String("start_ns"))
            start = row.siblingAtColumn(c).data(RawValueRole).toLongLong();
        else if (column == QLatin1String("end_ns"))
            end = row.siblingAtColumn(c).data(RawValueRole).toLongLong();
    }
    if (end > start)
        workbench()->selectTimeRange(session(), start + m_result->clockOrigin, end + m_result->clockOrigin);
}

const Finding* FindingsPane::currentFinding() const
{
    const QModelIndex current = m_findingsView->selectionModel()->currentIndex();
    if (!current.isValid())
        return nullptr;
    const int row = current.data(IdentityRole).toInt();
    const auto& findings = m_findings->findings();
    return row >= 0 && std::size_t(row) < findings.size() ? &findings[std::size_t(row)] : nullptr;
}

void FindingsPane::showFinding(int index)
{
    const auto& findings = m_findings->findings();
    const Finding* f = index >= 0 && std::size_t(index) < findings.size() ? &findings[std::size_t(index)] : nullptr;
    QString html;
    if (f && m_result)
        html = findingHtml(*f, *m_result);
    else if (m_result && m_result->findings.empty())
        html = tr("<p>No finding: nothing crossed its threshold.</p>");
    // The checks not run are the profile's, not the finding's: listed once, a link away from any finding.
    if (m_result && f && !m_result->skipped.empty())
        html += tr("<p><small><a href=\"not-checked\">%1 not run for missing data</a></small></p>")
                    .arg(countOf(qint64(m_result->skipped.size()), tr("check"), tr("checks")));
    else if (m_result)
        html += skippedHtml(*m_result);
    m_detail->setHtml(html);
    m_exportReport->setEnabled(m_result != nullptr);
    m_showKernels->setEnabled(f && !f->evidence.kernelNames.isEmpty());
    m_focusRange->setEnabled(f && (f->evidence.hasTimeRange() || !f->evidence.nvtxRange.isEmpty()));
}

bool FindingsPane::selectFinding(const QString& id)
{
    for (int row = 0; row < m_findingsProxy->rowCount(); ++row) {
        const QModelIndex index = m_findingsProxy->index(row, 0);
        const int finding = index.data(IdentityRole).toInt();
        if (m_findings->findings()[std::size_t(finding)].id == id) {
            m_findingsView->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            return true;
        }
    }
    return false;
}

void FindingsPane::showEvidenceKernels()
{
    const Finding* f = currentFinding();
    if (!f || !session() || f->evidence.kernelNames.isEmpty())
        return;
    const Profile& profile = *session()->profile();
    const KernelTable& kernels = profile.kernels;
    // Names are looked up once each, not per kernel: a profile has few names and millions of kernels.
    std::vector<char> wanted(profile.strings.size(), 0);
    for (const QString& name : f->evidence.kernelNames)
        if (const StringRef ref = profile.strings.find(name); ref != kNoString)
            wanted[std::size_t(ref)] = 1;
    auto rows = std::make_shared<std::vector<char>>(kernels.size(), 0);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const StringRef name = kernels.demangledName[i];
        (*rows)[i] = name >= 0 && std::size_t(name) < wanted.size() && wanted[std::size_t(name)];
    }
    KernelSelection selection;
    selection.session = session();
    selection.label = tr("finding: %1").arg(f->title);
    selection.filter.rows = std::move(rows);
    workbench()->showKernels(selection);
}

void FindingsPane::focusOnEvidence()
{
    const Finding* f = currentFinding();
    if (!f || !session())
        return;
    if (f->evidence.hasTimeRange()) {
        FocusRange range { f->evidence.start, f->evidence.end, f->title };
        Q_EMIT focusRequested(range);
        return;
    }
    const Result<ResolvedFocus> resolved = resolveFocus(*session()->profile(), FocusText { {}, f->evidence.nvtxRange });
    if (resolved)
        Q_EMIT focusRequested(resolved->range);
    else
        m_message->setText(resolved.errorMessage());
}

void FindingsPane::exportReportInteractively()
{
    if (!m_result)
        return;
    const QString dir = askSaveDirectory(this, tr("Write the Report Into"));
    if (dir.isEmpty())
        return;
    // The charts drawn now (widgets), the folder written in the background with a row in the window's strip.
    const std::shared_ptr<const DiagnosticsResult> result = m_result;
    const std::map<QString, QByteArray> charts = renderReportCharts(*result);
    QPointer<QLabel> message(m_message);
    BackgroundExports::of(this)->run(
        tr("Report"), dir,
        [result, dir, charts](const JobContext&) {
            const Status written = writeReportFolder(*result, dir, charts);
            return written ? QString() : written.errorMessage();
        },
        [message, dir](const QString& error) {
            if (message)
                message->setText(
                    error.isEmpty() ? tr("Report written to %1").arg(QDir::toNativeSeparators(dir)) : error);
        });
}

Status FindingsPane::writeReport(const QString& dir) const
{
    if (!m_result)
        return Status::failure(ErrorKind::NoData, tr("no diagnostics to write yet"));
    return writeReportFolder(*m_result, dir, renderReportCharts(*m_result));
}

void FindingsPane::editThresholds()
{
    ThresholdsDialog dialog(m_thresholds, this);
    if (dialog.exec() == QDialog::Accepted)
        setThresholds(dialog.thresholds());
}

} // namespace nsw

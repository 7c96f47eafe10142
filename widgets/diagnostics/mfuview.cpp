// SPDX-License-Identifier: GPL-3.0-or-later
#include "mfuview.h"

#include "core/diagnostics/mfuexport.h"
#include "core/models/diagnosticstablemodel.h"
#include "core/models/modelroles.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "widgets/common/splittershare.h"
#include "widgets/common/tableviews.h"
#include "widgets/diagnostics/mfudialog.h"
#include "widgets/diagnostics/rooflinechart.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>

namespace nsw {

namespace {

QString listHtml(const QStringList& items)
{
    QString html = QStringLiteral("<ul>");
    for (const QString& item : items)
        html += QStringLiteral("<li>%1</li>").arg(item.toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

/// The columns a reader looks for first -- what, its MFU, its TFLOP/s -- at the left, where a narrow dock shows them;
/// the others after them in the command's order (which the CSV keeps).
void putFirst(QTableView* view, const QStringList& csvNames)
{
    QHeaderView* header = view->horizontalHeader();
    int visual = 0;
    for (const QString& name : csvNames)
        for (int c = 0; c < view->model()->columnCount(); ++c)
            if (view->model()->headerData(c, Qt::Horizontal, CsvTextRole).toString() == name)
                header->moveSection(header->visualIndex(c), visual++);
}

QString wholeExportNote()
{
    return QObject::tr("<p><small>For the whole export, as <tt>nsys-workbench mfu</tt> computes it: a focus does not "
                       "narrow it.</small></p>");
}

} // namespace

MfuView::MfuView(Workbench* workbench, QWidget* parent)
    : QWidget(parent)
    , m_dialog(new MfuDialog(this))
    , m_iterations(new DiagnosticsTableModel(this))
    , m_iterationsView(newSortableTableView(m_iterations, this))
    , m_ranges(new DiagnosticsTableModel(this))
    , m_rangesView(newSortableTableView(m_ranges, this))
    , m_tables(new QSplitter(Qt::Vertical, this))
    , m_roofline(new RooflineChart(this))
    , m_headline(new QLabel(this))
    , m_warning(new QLabel(this))
    , m_inputsButton(new QPushButton(tr("Set FLOPs…"), this))
    , m_details(new QTextBrowser(this))
    , m_job(this)
{
    setObjectName(QStringLiteral("mfu"));
    m_iterationsView->setObjectName(QStringLiteral("mfu_iterations"));
    m_rangesView->setObjectName(QStringLiteral("mfu_ranges"));
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warning->setObjectName(QStringLiteral("mfu_warning"));
    m_warning->setWordWrap(true);
    m_warning->setTextFormat(Qt::PlainText); // range names are the user's
    m_warning->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warning->setStyleSheet(QStringLiteral("background: #fdecea; color: #8a1c1c; padding: 3px;"));
    m_warning->hide();
    m_inputsButton->setToolTip(tr("The model's FLOPs (given, or from the transformer calculator), the precision and "
                                  "the GPU's peak: the options of `nsys-workbench mfu`."));
    m_tables->addWidget(m_iterationsView);
    m_tables->addWidget(m_rangesView);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_roofline);
    right->addWidget(m_details);
    new SplitterShare(right, 70, 62, 700); // the chart first: the assumptions scroll
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tables);
    split->addWidget(right);
    m_tablesShare = new SplitterShare(split, 52, 45, 1400); // the tables' MFU column in sight in a narrow dock

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 4, 0, 0);
    grid->addWidget(m_headline, 0, 0);
    grid->addWidget(m_inputsButton, 0, 1, Qt::AlignTop);
    grid->addWidget(m_warning, 1, 0, 1, 2);
    grid->addWidget(split, 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setRowStretch(2, 1);

    connect(m_inputsButton, &QPushButton::clicked, this, &MfuView::askForInputs);
    connect(workbench, &Workbench::currentChanged, this, &MfuView::setSession);
    connect(workbench, &Workbench::sessionCompleted, this, [this](ProfileSession* session) {
        if (session == m_session && m_request)
            compute();
    });
    connect(workbench, &Workbench::sessionAboutToBeRemoved, this, [this](ProfileSession* session) {
        if (session == m_session)
            setSession(nullptr);
    });
    setSession(workbench->current());
}

QTableView* MfuView::exportableView() const
{
    return m_result && m_result->iterations.empty() ? m_rangesView : m_iterationsView;
}

void MfuView::askForInputs()
{
    if (!m_session)
        return;
    m_dialog->setProfile(m_session->profile());
    if (m_dialog->exec() != QDialog::Accepted)
        return;
    QString error;
    MfuRequest request = m_dialog->request(&error);
    if (error.isEmpty())
        run(std::move(request));
}

void MfuView::run(MfuRequest request)
{
    request.profile = nullptr; // the current profile's, when computed
    m_request = std::move(request);
    compute();
}

void MfuView::setSession(ProfileSession* session)
{
    m_session = session;
    m_job.cancel();
    if (m_session && m_request)
        compute();
    else
        showResult(nullptr, {});
}

void MfuView::compute()
{
    m_job.cancel();
    if (!m_session || !m_request) {
        showResult(nullptr, {});
        return;
    }
    if (!m_session->isComplete()) { // the NVTX ranges arrive with the load's second stage: computed then
        showResult(nullptr, {});
        m_headline->setText(tr("MFU: waiting for the NVTX ranges of the load…"));
        return;
    }
    MfuRequest request = *m_request;
    request.profile = m_session->profile();
    showResult(nullptr, {});
    m_headline->setText(tr("Computing the MFU…"));
    m_job.run<MfuResult>([request](const JobContext& job) { return computeMfu(request, job); },
        [this](Result<MfuResult> result) {
            if (result)
                showResult(std::make_shared<const MfuResult>(std::move(*result)), {});
            else
                showResult(nullptr, result.errorMessage());
            Q_EMIT resultShown();
        });
}

void MfuView::showResult(std::shared_ptr<const MfuResult> result, const QString& error)
{
    m_result = std::move(result);
    std::shared_ptr<const DiagnosticsTable> iterations, ranges;
    if (m_result)
        for (DiagnosticsTable& t : mfuTables(*m_result)) {
            // Decided before the move: in `a = b` the right side is evaluated first, and it empties t.id.
            auto& slot = t.id == QLatin1String("mfu_iterations") ? iterations : ranges;
            slot = std::make_shared<const DiagnosticsTable>(std::move(t));
        }
    m_iterations->setTable(iterations);
    m_ranges->setTable(ranges);
    m_iterationsView->setVisible(iterations != nullptr);
    m_rangesView->setVisible(ranges != nullptr);
    if (const bool tables = iterations || ranges; tables != m_tables->isVisibleTo(this)) {
        m_tables->setVisible(tables);
        m_tablesShare->apply();
    }
    for (QTableView* view : { m_iterationsView, m_rangesView }) {
        putFirst(view,
            { QStringLiteral("iteration"), QStringLiteral("range"), QStringLiteral("mfu_pct"),
                QStringLiteral("tflops") });
        resizeColumnsToCells(view, view->fontMetrics().averageCharWidth() * 16);
        view->sortByColumn(-1, Qt::AscendingOrder); // the command's order: iterations in time, ranges as given
    }
    m_inputsButton->setEnabled(m_session != nullptr);
    m_inputsButton->setText(m_request ? tr("Change FLOPs…") : tr("Set FLOPs…"));
    showRoofline();
    m_warning->setText(m_result ? m_result->warnings.join(QLatin1Char('\n')) : QString());
    m_warning->setVisible(!m_warning->text().isEmpty());
    if (m_result) {
        m_headline->setText(QStringLiteral("<b>MFU: %1</b>").arg(mfuSummary(*m_result).toHtmlEscaped()));
        QString html;
        if (!m_result->gpuName.isEmpty())
            html += tr("<p>GPU: %1</p>").arg(m_result->gpuName.toHtmlEscaped());
        // What the roofline lacks first, right under the chart: why a range or the iterations have no point.
        if (!m_result->roofline.missing.isEmpty())
            html += tr("<p><b>Roofline</b></p>") + listHtml(m_result->roofline.missing);
        m_details->setHtml(
            html + tr("<p><b>Assumptions</b></p>") + listHtml(m_result->assumptions) + wholeExportNote());
        return;
    }
    if (!m_session)
        m_headline->setText(tr("MFU: open a profile."));
    else if (!error.isEmpty())
        m_headline->setText(tr("<b>MFU:</b> %1").arg(error.toHtmlEscaped()));
    else
        m_headline->setText(tr("MFU: the export holds the times, not the model's FLOPs. <b>Set FLOPs…</b> gives them "
                               "(per iteration, from the transformer calculator, or per NVTX range)."));
    m_details->setHtml(inputsHtml());
}

void MfuView::showRoofline()
{
    m_roofline->setVisible(m_result != nullptr); // no chart to look at before a result: the explanation has the room
    if (!m_result) {
        m_roofline->clearRoofline(QString());
        return;
    }
    m_roofline->setResult(*m_result);
}

QString MfuView::inputsHtml() const
{
    QString html
        = tr("<p><b>Model FLOPs utilization</b> = the model's FLOPs / (time × GPUs × the GPU's peak): the "
             "share of the GPUs' peak arithmetic the model's own work reaches.</p>"
             "<p>Per iteration: the FLOPs of one iteration (all the GPUs of the export together), given or "
             "from the transformer calculator (parameters, tokens, layers, hidden size, sequence length). "
             "Per NVTX range: FLOPs per range instance, typed in a table or loaded from a JSON file. With the bytes "
             "moved, a roofline shows how far each is below what the memory bandwidth and the peak allow."
             "</p>");
    if (m_session) {
        MfuRequest request = m_request.value_or(MfuRequest {});
        request.profile = m_session->profile();
        const Result<MfuPeak> peak = resolveMfuPeak(request);
        html += QStringLiteral("<p>%1</p>")
                    .arg((peak ? peak->assumption : tr("Peak: %1.").arg(peak.errorMessage())).toHtmlEscaped());
    }
    return html + wholeExportNote();
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "categoriespane.h"

#include "core/controllers/categorycontroller.h"
#include "core/models/categorytablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "ruleeditor.h"
#include "ruleselectors.h"
#include "widgets/common/filedialogs.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/tableviews.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

namespace nsw {

namespace {
const QString kEngineKey = QStringLiteral("categories/engine");
const QString kModelKey = QStringLiteral("categories/model");
const QString kModeKey = QStringLiteral("categories/timeMode");

QString writeText(const QString& path, const QString& text)
{
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(path, out.errorString());
    out.write(text.toUtf8());
    if (!out.commit())
        return QStringLiteral("%1: %2").arg(path, out.errorString());
    return {};
}

/// Paints the category colour as a swatch before the name.
class SwatchDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const QVariant color = index.data(CategoryTableModel::ColorRole);
        if (index.column() == 0 && color.isValid()) {
            QPixmap swatch(12, 12);
            swatch.fill(QColor::fromRgba(color.toUInt()));
            option->features |= QStyleOptionViewItem::HasDecoration;
            option->icon = QIcon(swatch);
            option->decorationSize = QSize(12, 12);
        }
    }
};
} // namespace

CategoriesPane::CategoriesPane(Workbench* workbench, QWidget* parent)
    : CategoriesPane(new CategoryController(workbench), parent)
{
    m_controller->setParent(this);
}

CategoriesPane::CategoriesPane(CategoryController* controller, QWidget* parent)
    : Pane(controller->workbench(), QStringLiteral("categories"), tr("C&ategories"), parent)
    , m_controller(controller)
    , m_engine(new QComboBox(this))
    , m_model(new QComboBox(this))
    , m_mode(new QComboBox(this))
    , m_bars(new QComboBox(this))
    , m_wallSource(new QComboBox(this))
    , m_wall(new QDoubleSpinBox(this))
    , m_export(new QToolButton(this))
    , m_status(new QLabel(this))
    , m_chart(new CategoryChart(this))
    , m_tableModel(new CategoryTableModel(this))
    , m_proxy(new SortFilterProxy(this))
    , m_tableView(new QTableView(this))
{
    m_engine->setToolTip(tr("Engine of the rule set (gputrc2graph's first level)"));
    m_model->setToolTip(tr("Model of the rule set: its rules apply in order, the first match wins"));
    for (const TimeMode m : kAllTimeModes) {
        m_mode->addItem(timeModeName(m), int(m));
        m_mode->setItemData(m_mode->count() - 1, timeModeDescription(m), Qt::ToolTipRole);
    }
    m_mode->setToolTip(tr("How overlapping GPU rows are counted"));
    m_bars->addItem(tr("per profile"), false);
    m_bars->addItem(tr("per GPU"), true);
    m_wallSource->addItem(tr("no CPU segment"), int(CategoryController::WallSource::None));
    m_wallSource->addItem(tr("CPU = capture span − GPU"), int(CategoryController::WallSource::Capture));
    m_wallSource->addItem(tr("CPU = wall time − GPU"), int(CategoryController::WallSource::Entered));
    m_wallSource->setToolTip(tr("A \"CPU (non-GPU)\" segment: the part of the run's wall time the GPUs were idle"));
    m_wall->setRange(0, 1e7);
    m_wall->setDecimals(3);
    m_wall->setSuffix(tr(" s"));
    m_wall->setSpecialValueText(tr("not set"));
    m_wall->setToolTip(tr("Wall time of the run without the profiler, for the current profile"));
    auto* edit = new QPushButton(tr("Edit rules…"), this);
    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(m_export);
    m_export->setMenu(exportMenu);

    // Two short rows rather than one long one, so that the pane fits a narrow dock.
    auto* rulesRow = new QHBoxLayout;
    rulesRow->addWidget(new QLabel(tr("Rules:"), this));
    rulesRow->addWidget(m_engine);
    rulesRow->addWidget(m_model);
    rulesRow->addWidget(edit);
    rulesRow->addStretch(1);
    rulesRow->addWidget(m_export);
    auto* optionsRow = new QHBoxLayout;
    optionsRow->addWidget(new QLabel(tr("Time:"), this));
    optionsRow->addWidget(m_mode);
    optionsRow->addWidget(m_bars);
    optionsRow->addSpacing(8);
    optionsRow->addWidget(m_wallSource);
    optionsRow->addWidget(m_wall);
    optionsRow->addStretch(1);
    for (QComboBox* box : { m_engine, m_model, m_wallSource })
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_proxy->setSourceModel(m_tableModel);
    m_tableView->setModel(m_proxy);
    setupTableView(m_tableView);
    m_tableView->setItemDelegate(new SwatchDelegate(m_tableView));
    // Rule order until the user sorts by a column.
    m_tableView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_proxy->sort(-1);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_chart);
    splitter->addWidget(m_tableView);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(rulesRow);
    layout->addLayout(optionsRow);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    exportMenu->addAction(
        tr("Chart as PNG…"), this, [this]() { exportPlotInteractively(*m_chart, exportBaseName(), this); });
    exportMenu->addAction(tr("Categories as CSV…"), this, [this]() {
        const QString file = askSaveFileName(
            this, tr("Export categories"), exportBaseName() + QStringLiteral(".csv"), tr("CSV files (*.csv)"));
        if (const QString e = file.isEmpty() ? QString() : exportCategoriesCsv(file); !e.isEmpty())
            QMessageBox::warning(this, tr("Export categories"), e);
    });
    exportMenu->addAction(tr("Kernel mapping (gputrc2graph result.csv)…"), this, [this]() {
        const QString file
            = askSaveFileName(this, tr("Export kernel mapping"), QStringLiteral("result.csv"), tr("CSV files (*.csv)"));
        if (const QString e = file.isEmpty() ? QString() : exportMappingCsv(file); !e.isEmpty())
            QMessageBox::warning(this, tr("Export kernel mapping"), e);
    });

    connect(edit, &QPushButton::clicked, this, &CategoriesPane::openEditor);
    // Switching rules drops unsaved edits: ask first (the editor, when open, offers to save).
    const auto mayDiscard = [this]() {
        return !m_controller->isModified()
            || QMessageBox::question(this, tr("Unsaved rules"),
                   tr("%1 / %2 has unsaved edits. Discard them?").arg(m_controller->engine(), m_controller->model()))
            == QMessageBox::Yes;
    };
    connect(m_engine, &QComboBox::activated, this, [this, mayDiscard]() {
        const QString engine = m_engine->currentText();
        if (mayDiscard())
            m_controller->select(engine, m_controller->library().models(engine).value(0));
        refillRuleSelectors();
    });
    connect(m_model, &QComboBox::activated, this, [this, mayDiscard]() {
        if (mayDiscard())
            m_controller->select(m_engine->currentText(), m_model->currentText());
        refillRuleSelectors();
    });
    connect(m_mode, &QComboBox::activated, this,
        [this]() { m_controller->setTimeMode(TimeMode(m_mode->currentData().toInt())); });
    connect(
        m_bars, &QComboBox::activated, this, [this]() { m_controller->setPerDevice(m_bars->currentData().toBool()); });
    connect(m_wallSource, &QComboBox::activated, this,
        [this]() { m_controller->setWallSource(CategoryController::WallSource(m_wallSource->currentData().toInt())); });
    connect(m_wall, &QDoubleSpinBox::valueChanged, this, [this](double seconds) {
        if (ProfileSession* s = this->workbench()->current())
            s->setWallTimeNs(seconds > 0 ? TimeNs(seconds * 1e9 + 0.5) : kNoTime);
    });
    // The window remembers the rule set and time mode in the user's preferences (core reads none).
    {
        const QSettings settings;
        m_controller->select(settings.value(kEngineKey).toString(), settings.value(kModelKey).toString());
        if (const auto mode = parseTimeMode(settings.value(kModeKey).toString()))
            m_controller->setTimeMode(*mode);
    }
    connect(m_controller, &CategoryController::selectionChanged, this, [this]() {
        QSettings settings;
        settings.setValue(kEngineKey, m_controller->engine());
        settings.setValue(kModelKey, m_controller->model());
    });
    connect(m_controller, &CategoryController::optionsChanged, this,
        [this]() { QSettings().setValue(kModeKey, timeModeName(m_controller->timeMode())); });
    connect(m_controller, &CategoryController::libraryChanged, this, &CategoriesPane::refillRuleSelectors);
    connect(m_controller, &CategoryController::selectionChanged, this, &CategoriesPane::refillRuleSelectors);
    connect(m_controller, &CategoryController::optionsChanged, this, &CategoriesPane::syncOptions);
    connect(m_controller, &CategoryController::resultsChanged, this, &CategoriesPane::showResults);
    connect(this->workbench(), &Workbench::currentChanged, this, &CategoriesPane::updateWallEntry);
    // The controller leaves a profile still loading out of the chart; say so over the pane while it is current.
    connect(this->workbench(), &Workbench::currentChanged, this, [this](ProfileSession* s) { waitForWholeProfile(s); });
    connect(m_chart, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const CategoryChart::Hit hit = m_chart->hitTest(event->position());
        m_chart->highlight(hit);
        if (hit.row >= 0)
            selectSegment(hit.bar, hit.row);
    });
    m_chart->setMouseTracking(true);
    connect(m_chart, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = m_chart->describe(m_chart->hitTest(event->position()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, m_chart);
    });
    refillRuleSelectors();
    syncOptions();
    updateWallEntry();
    showResults();
}

CategoriesPane::~CategoriesPane() = default;

void CategoriesPane::showEvent(QShowEvent* event)
{
    Pane::showEvent(event);
    m_controller->activate();
}

bool CategoriesPane::isComputing() const
{
    return m_controller->isBusy();
}

QAbstractItemView* CategoriesPane::exportableView() const
{
    return m_tableView;
}

QCustomPlot* CategoriesPane::exportablePlot() const
{
    return m_chart;
}

QString CategoriesPane::exportBaseName() const
{
    return QStringLiteral("categories-%1-%2-%3")
        .arg(m_controller->engine(), m_controller->model(), timeModeName(m_controller->timeMode()));
}

void CategoriesPane::setTimeMode(TimeMode mode)
{
    m_controller->setTimeMode(mode);
}

void CategoriesPane::refillRuleSelectors()
{
    fillRuleSelectors(*m_controller, m_engine, m_model);
}

void CategoriesPane::syncOptions()
{
    m_mode->setCurrentIndex(m_mode->findData(int(m_controller->timeMode())));
    m_bars->setCurrentIndex(m_bars->findData(m_controller->perDevice()));
    m_wallSource->setCurrentIndex(m_wallSource->findData(int(m_controller->wallSource())));
    m_wall->setEnabled(m_controller->wallSource() == CategoryController::WallSource::Entered);
}

void CategoriesPane::updateWallEntry()
{
    const ProfileSession* s = workbench()->current();
    const QSignalBlocker block(m_wall);
    m_wall->setValue(s && s->wallTimeNs() != kNoTime ? double(s->wallTimeNs()) / 1e9 : 0.0);
}

QString CategoriesPane::statusText() const
{
    return m_status->text();
}

void CategoriesPane::showResults()
{
    const CategoryTable table = m_controller->table();
    QString subtitle = m_controller->engine() + QStringLiteral(" / ") + m_controller->model();
    if (m_controller->isModified())
        subtitle += tr(" (edited)");
    const ProfileSession* current = workbench()->current();
    // A profile still loading has no results yet: computing, not empty.
    const bool computing = (m_controller->isBusy() || !m_controller->isActive() || (current && !current->isComplete()))
        && m_controller->results().empty();
    m_chart->setEmptyText(!current ? tr("Open a profile to see its kernel categories.")
            : computing
            ? tr("Computing categories…")
            : tr("No kernel or memory time in %1.\nIt has no CUDA kernels or memory operations, or the focus range "
                 "holds none.")
                  .arg(current->displayName()));
    m_chart->setTable(table, subtitle);
    m_tableModel->setTable(table);
    // Headers are "g2g · <profile file name>": elided on the right past about 22 characters, so that the numbers
    // stay in sight and the measure stays readable.
    m_tableView->horizontalHeader()->setTextElideMode(Qt::ElideRight);
    resizeColumnsToCells(m_tableView, 22 * m_tableView->fontMetrics().averageCharWidth());

    QStringList lines;
    if (workbench()->sessions().empty())
        lines.append(tr("Open a profile to see its kernel categories."));
    else if (computing)
        lines.append(tr("Computing categories…"));
    for (const auto& r : m_controller->results())
        for (const QString& w : r.breakdown.warnings)
            lines.append(QStringLiteral("⚠ ")
                + (m_controller->results().size() > 1 && r.session ? r.session->displayName() + QStringLiteral(": ")
                                                                   : QString())
                + w);
    for (const QString& e : m_controller->errors())
        lines.append(QStringLiteral("⚠ ") + e);
    lines.append(m_controller->libraryProblems());
    m_status->setText(lines.join(QLatin1Char('\n')));
    m_status->setStyleSheet(lines.isEmpty() || (lines.size() == 1 && !lines[0].startsWith(QStringLiteral("⚠")))
            ? QString()
            : QStringLiteral("background: #fff3cd; color: #5c4400; padding: 2px;"));
    m_status->setVisible(!lines.isEmpty());
    Q_EMIT chartUpdated();
}

void CategoriesPane::selectSegment(int bar, int row)
{
    const CategoryTable& table = m_chart->table();
    if (bar < 0 || bar >= table.bars.size() || row < 0 || std::size_t(row) >= table.rowCount())
        return;
    const int category = table.breakdownCategory[std::size_t(row)];
    const auto [profile, barIndex] = table.barSource[std::size_t(bar)];
    const auto& results = m_controller->results();
    if (category < 0 || profile < 0 || std::size_t(profile) >= results.size())
        return;
    const CategoryController::SessionResult& r = results[std::size_t(profile)];
    if (!r.session)
        return;
    const CategoryBar& b = r.breakdown.bars[std::size_t(barIndex)];
    KernelSelection selection;
    selection.session = r.session;
    selection.label = tr("category %1 (%2 / %3)%4")
                          .arg(table.categories[row], m_controller->engine(), m_controller->model(),
                              b.device >= 0 ? tr(" on %1").arg(b.label) : QString());
    selection.filter.rows = kernelRowsOfCategory(*r.timeline, r.breakdown, category, b.device);
    if (std::find(selection.filter.rows->begin(), selection.filter.rows->end(), char(1))
        == selection.filter.rows->end())
        selection.label += tr(": no kernels, only memory operations (see the Statistics pane's memory reports)");
    if (workbench()->current() != r.session)
        workbench()->setCurrent(r.session);
    workbench()->showKernels(selection);
    if (auto* dock = window()->findChild<QDockWidget*>(QStringLiteral("kernels")))
        dock->raise();
}

QString CategoriesPane::exportCategoriesCsv(const QString& path) const
{
    return writeText(path, categoriesCsv(m_controller->profileCategories()));
}

QString CategoriesPane::exportMappingCsv(const QString& path) const
{
    const Result<std::vector<ProfileCategories>> profiles = m_controller->mappingProfiles();
    if (!profiles)
        return profiles.errorMessage();
    return writeText(path, mappingCsv(*profiles, m_controller->engine(), m_controller->model()));
}

RuleEditorDialog* CategoriesPane::openEditor()
{
    m_controller->activate();
    if (!m_editor)
        m_editor = new RuleEditorDialog(m_controller, this);
    m_editor->show();
    m_editor->raise();
    m_editor->activateWindow();
    return m_editor;
}

} // namespace nsw

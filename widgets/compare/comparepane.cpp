// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparepane.h"

#include "comparechart.h"
#include "comparedelegate.h"
#include "comparesettings.h"
#include "comparestatus.h"
#include "core/compare/compareexport.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/models/comparetablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "widgets/common/elidedlabel.h"
#include "widgets/common/filterbar.h"
#include "widgets/common/flowlayout.h"
#include "widgets/common/keycolumns.h"
#include "widgets/common/optionsfold.h"
#include "widgets/common/plotexport.h"
#include "widgets/common/resizewatcher.h"
#include "widgets/common/tableviews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace nsw {

ComparePane::ComparePane(Workbench* workbench, CategoryController* categories, QWidget* parent)
    : ComparePane(new CompareController(workbench, categories), parent)
{
    m_controller->setParent(this);
}

ComparePane::ComparePane(CompareController* controller, QWidget* parent)
    : Pane(controller->workbench(), QStringLiteral("compare"), tr("Co&mpare"), parent)
    , m_controller(controller)
    , m_profilesButton(new QToolButton(this))
    , m_profilesMenu(new QMenu(this))
    , m_baseline(new QComboBox(this))
    , m_by(new QComboBox(this))
    , m_names(new QComboBox(this))
    , m_normalizeNames(new QCheckBox(tr("Normalize names"), this))
    , m_rulesLabel(new QLabel(tr("Rules:"), this))
    , m_engine(new QComboBox(this))
    , m_ruleModel(new QComboBox(this))
    , m_mode(new QComboBox(this))
    , m_normalization(new QComboBox(this))
    , m_marker(new QLineEdit(this))
    , m_threshold(new QDoubleSpinBox(this))
    , m_noiseFloor(new QDoubleSpinBox(this))
    , m_statusFilter(new QComboBox(this))
    , m_filter(new FilterBar(this))
    , m_export(new QToolButton(this))
    // Below 40 text lines. Docked, the pane has about 24 at 1366x768, where the controls and the status took all but
    // one table row, and 38 at 1920x1080, where the table kept two rows under the chart.
    , m_fold(new OptionsFold(this, 40))
    , m_status(new QLabel(this))
    , m_statusLine(new ElidedLabel(this))
    , m_chart(new CompareChart(this))
    , m_model(new CompareTableModel(this))
    , m_proxy(new SortFilterProxy(this))
    , m_table(new QTableView(this))
{
    setUpControls();
    layOut();
    restoreSettings();
    connectControls();
    connectSources(controller->workbench(), controller->categories());
    refillRuleSelectors();
    rebuildProfileControls();
    syncControls();
    showResults();
    refreshWhenShown(); // the comparison starts once the pane is first seen
}

/// Items, ranges and tooltips of the controls.
void ComparePane::setUpControls()
{
    m_profilesButton->setObjectName(QStringLiteral("profiles"));
    m_baseline->setObjectName(QStringLiteral("baseline"));
    m_profilesButton->setText(tr("Profiles"));
    m_profilesButton->setPopupMode(QToolButton::InstantPopup);
    m_profilesButton->setMenu(m_profilesMenu);
    m_profilesButton->setToolTip(tr("The open profiles in the comparison (adding one computes only that one)"));
    m_baseline->setToolTip(tr("The profile the others are compared with"));
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_by->addItem(tr("Category"), int(CompareBy::Category));
    m_by->addItem(tr("Kernel"), int(CompareBy::Kernel));
    m_by->addItem(tr("NVTX path"), int(CompareBy::Nvtx));
    m_by->setToolTip(tr("What the rows are: kernel categories (the Categories pane's rules), kernel names or NVTX "
                        "paths (all threads merged, GPU time of the kernels launched inside)"));
    m_names->addItem(tr("demangled"), int(KernelNameMode::Demangled));
    m_names->addItem(tr("short"), int(KernelNameMode::Short));
    m_names->setToolTip(tr("Which kernel name is the key"));
    m_normalizeNames->setToolTip(tr("Kernels: template arguments become <...>, hex hashes and numbers #. NVTX: numbers "
                                    "become # (op_id = #, layer_#), so that the same region lines up between runs"));
    for (const TimeMode m : kAllTimeModes) {
        m_mode->addItem(timeModeName(m), int(m));
        m_mode->setItemData(m_mode->count() - 1, timeModeDescription(m), Qt::ToolTipRole);
    }
    m_mode->setToolTip(tr("Time mode of the category times (shared with the Categories pane)"));
    m_normalization->addItem(tr("totals"), int(CompareNormalization::None));
    m_normalization->addItem(tr("per capture second"), int(CompareNormalization::PerSecond));
    m_normalization->addItem(tr("per iteration"), int(CompareNormalization::PerIteration));
    m_normalization->addItem(tr("per instance"), int(CompareNormalization::PerInstance));
    m_normalization->setToolTip(tr("Scale the totals when the captures differ in length; per instance compares the "
                                   "average time of one execution (median beside), whatever the number of calls"));
    m_marker->setPlaceholderText(tr("iteration range, e.g. ProfilerStep#1"));
    m_marker->setToolTip(tr("NVTX range name counted as one iteration (numbers in names are ignored)"));
    m_marker->setClearButtonEnabled(true);
    m_marker->setMinimumWidth(fontMetrics().horizontalAdvance(m_marker->placeholderText()) + 40);
    m_threshold->setRange(0, 1000);
    m_threshold->setDecimals(1);
    m_threshold->setSuffix(tr(" %"));
    m_threshold->setToolTip(tr("A change beyond this percentage is a regression or an improvement"));
    m_noiseFloor->setRange(0, 1e9);
    m_noiseFloor->setDecimals(1);
    m_noiseFloor->setSuffix(tr(" µs"));
    m_noiseFloor->setToolTip(tr("Changes smaller than this (in the compared unit) are unchanged, whatever their %"));
    m_statusFilter->addItem(tr("All keys"), CompareTableModel::kAllStatuses);
    m_statusFilter->addItem(
        tr("Changed"), CompareTableModel::kAllStatuses & ~(1u << unsigned(CompareStatus::Unchanged)));
    m_statusFilter->addItem(tr("Regressions"), 1u << unsigned(CompareStatus::Regression));
    m_statusFilter->addItem(tr("Improvements"), 1u << unsigned(CompareStatus::Improvement));
    m_statusFilter->addItem(tr("New"), 1u << unsigned(CompareStatus::New));
    m_statusFilter->addItem(tr("Removed"), 1u << unsigned(CompareStatus::Removed));
    m_filter->setPlaceholder(tr("Filter keys…"));
    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(m_export);
    m_export->setMenu(exportMenu);
    exportMenu->addAction(
        tr("Table as CSV…"), this, [this]() { exportViewCsvInteractively(m_table, exportBaseName(), this); });
    exportMenu->addAction(
        tr("Chart as PNG…"), this, [this]() { exportPlotInteractively(*m_chart, exportBaseName(), this); });
    for (QComboBox* box : { m_engine, m_ruleModel, m_normalization })
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_fold->button()->setToolTip(tr("Show the values, threshold, noise floor and name normalization (folded away "
                                    "while the pane is short)"));
}

void ComparePane::layOut()
{
    // The controls wrap onto more rows in a narrow dock instead of being squeezed; a label stays with its field.
    auto* controls = new FlowLayout;
    controls->addWidget(m_profilesButton);
    controls->addWidget(labelledField(tr("Baseline:"), m_baseline, this));
    controls->addWidget(labelledField(tr("By:"), m_by, this));
    for (QWidget* w : std::initializer_list<QWidget*> {
             m_names, m_normalizeNames, m_rulesLabel, m_engine, m_ruleModel, m_mode, m_export })
        controls->addWidget(w);
    controls->addWidget(m_fold->button());
    m_valuesField = labelledField(tr("Values:"), m_normalization, this);
    m_thresholdField = labelledField(tr("Threshold:"), m_threshold, this);
    m_noiseFloorField = labelledField(tr("Noise floor:"), m_noiseFloor, this);
    for (QWidget* w : { m_valuesField, static_cast<QWidget*>(m_marker), m_thresholdField, m_noiseFloorField })
        controls->addWidget(w);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_statusLine->setObjectName(QStringLiteral("statusLine"));

    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    setupTableView(m_table);
    m_columns = new KeyColumns(m_table, 0, {});
    m_table->setItemDelegate(new CompareDelegate(m_model, m_table));
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    // The comparison's order (largest |delta| first) until the user sorts by a column.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_proxy->sort(-1);
    auto* tableBox = new QWidget(this);
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_statusFilter);
    tableLayout->addLayout(filterRow);
    tableLayout->addWidget(m_table, 1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    letSplitterGiveWay(splitter);
    splitter->addWidget(m_chart);
    splitter->addWidget(tableBox);
    // Too short for the chart and the table (a docked tab at 1366x768): the table alone, which holds every number the
    // chart draws. Both come back when there is room.
    new ResizeWatcher(splitter, [this, splitter, tableBox]() {
        const int room = splitter->height();
        const bool both
            = room >= m_chart->minimumHeight() + splitter->handleWidth() + tableBox->minimumSizeHint().height();
        m_chart->setVisible(both);
    });
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(m_statusLine);
    layout->addWidget(splitter, 1);
}

/// The settings of the last session, given to the controller.
void ComparePane::restoreSettings()
{
    m_controller->setSettings(savedCompareSettings());
}

void ComparePane::connectControls()
{
    for (QComboBox* box : { m_by, m_names, m_normalization })
        connect(box, &QComboBox::activated, this, &ComparePane::applyControls);
    connect(m_normalizeNames, &QCheckBox::toggled, this, &ComparePane::applyControls);
    connect(m_fold, &OptionsFold::changed, this, [this]() {
        syncControls();
        showStatus();
    });
    connect(m_marker, &QLineEdit::editingFinished, this, &ComparePane::applyControls);
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, &ComparePane::applyControls);
    connect(m_noiseFloor, &QDoubleSpinBox::valueChanged, this, &ComparePane::applyControls);
    connect(m_baseline, &QComboBox::activated, this, [this](int index) {
        if (index >= 0)
            m_controller->setBaselineMember(std::size_t(index));
    });
    connect(m_statusFilter, &QComboBox::activated, this,
        [this]() { m_model->setStatusFilter(m_statusFilter->currentData().toUInt()); });
    connect(m_filter, &FilterBar::filterChanged, this,
        [this](const QString& text, bool regex) { m_filter->setError(m_proxy->setFilter(text, regex)); });
    connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ComparePane::onCurrentRowChanged);
    connect(m_table, &QTableView::doubleClicked, this, [this]() {
        if (auto* dock = window()->findChild<QDockWidget*>(QStringLiteral("kernels")))
            dock->raise();
    });
    connect(m_chart, &CompareChart::keyClicked, this, [this](const QString& key) { selectKey(key); });
}

/// Follows the controller's results, the other panes' selections and the Categories pane's rules.
void ComparePane::connectSources(Workbench* workbench, CategoryController* categories)
{
    connect(m_controller, &CompareController::profilesChanged, this, &ComparePane::rebuildProfileControls);
    connect(m_controller, &CompareController::settingsChanged, this, &ComparePane::syncControls);
    connect(m_controller, &CompareController::resultsChanged, this, &ComparePane::showResults);
    connect(workbench, &Workbench::kernelNameSelected, this, &ComparePane::onKernelNameSelected);
    // The kernel table follows the current profile: give it the selected key's kernels there too.
    connect(workbench, &Workbench::currentChanged, this, [this]() {
        if (m_ownsKernelFilter && !m_selectedKey.isEmpty())
            applySelection(m_selectedKey);
    });
    connect(workbench, &Workbench::kernelSelectionChanged, this, [this]() {
        if (!m_syncing)
            m_ownsKernelFilter = false; // another pane (or "Show all kernels") took the kernel table over
    });
    if (categories) {
        connect(categories, &CategoryController::libraryChanged, this, &ComparePane::refillRuleSelectors);
        connect(categories, &CategoryController::selectionChanged, this, &ComparePane::refillRuleSelectors);
        connect(categories, &CategoryController::optionsChanged, this, &ComparePane::syncControls);
        const auto mayDiscard = [this, categories]() {
            return !categories->isModified()
                || QMessageBox::question(this, tr("Unsaved rules"),
                       tr("%1 / %2 has unsaved edits. Discard them?").arg(categories->engine(), categories->model()))
                == QMessageBox::Yes;
        };
        connect(m_engine, &QComboBox::activated, this, [this, categories, mayDiscard]() {
            const QString engine = m_engine->currentText();
            if (mayDiscard())
                categories->select(engine, categories->library().models(engine).value(0));
            refillRuleSelectors();
        });
        connect(m_ruleModel, &QComboBox::activated, this, [this, categories, mayDiscard]() {
            if (mayDiscard())
                categories->select(m_engine->currentText(), m_ruleModel->currentText());
            refillRuleSelectors();
        });
        connect(m_mode, &QComboBox::activated, this,
            [this, categories]() { categories->setTimeMode(TimeMode(m_mode->currentData().toInt())); });
    }
}

ComparePane::~ComparePane() = default;

void ComparePane::refresh()
{
    m_controller->activate();
}

bool ComparePane::isComputing() const
{
    return m_controller->isBusy();
}

QAbstractItemView* ComparePane::exportableView() const
{
    return m_table;
}

QCustomPlot* ComparePane::exportablePlot() const
{
    return m_chart;
}

QString ComparePane::exportBaseName() const
{
    return QStringLiteral("compare-by-%1").arg(compareByName(m_controller->settings().by));
}

bool ComparePane::isCompact() const
{
    return m_fold->isCompact();
}

QString ComparePane::statusText() const
{
    return m_status->text();
}

/// The whole status, or one line of it when the pane is compact; a warning always shows whole.
void ComparePane::showStatus()
{
    const bool any = !m_status->text().isEmpty();
    const bool oneLine = m_fold->isCompact() && !m_statusWarns;
    m_status->setVisible(any && !oneLine);
    m_statusLine->setVisible(any && oneLine);
}

void ComparePane::rebuildProfileControls()
{
    m_profilesMenu->clear();
    for (ProfileSession* s : workbench()->sessions()) {
        QAction* a = m_profilesMenu->addAction(s->displayName());
        a->setCheckable(true);
        a->setChecked(m_controller->isIncluded(s));
        a->setToolTip(s->path());
        QPointer<ProfileSession> session(s);
        connect(a, &QAction::toggled, this, [this, session](bool on) {
            if (session)
                m_controller->setIncluded(session, on);
        });
    }
    // Iterations added from the Iterations pane: unchecking one removes it.
    const auto& iterations = m_controller->iterations();
    if (!iterations.empty())
        m_profilesMenu->addSection(tr("Iterations (add more in the Iterations pane)"));
    for (std::size_t i = 0; i < iterations.size(); ++i) {
        QAction* a = m_profilesMenu->addAction(iterations[i].label());
        a->setCheckable(true);
        a->setChecked(true);
        connect(a, &QAction::toggled, this, [this, i](bool on) {
            if (!on)
                m_controller->removeIteration(i);
        });
    }
    m_profilesButton->setEnabled(!workbench()->sessions().empty());
    const QSignalBlocker block(m_baseline);
    m_baseline->clear();
    const auto members = m_controller->members();
    for (const CompareController::Member& m : members)
        m_baseline->addItem(m.label, m.session->path());
    if (!members.empty())
        m_baseline->setCurrentIndex(int(m_controller->baselineMember()));
    const std::size_t profiles = m_controller->profiles().size();
    QString text = tr("Profiles (%1 of %2)").arg(profiles).arg(workbench()->sessions().size());
    if (!iterations.empty())
        text += iterations.size() == 1 ? tr(" + 1 iteration") : tr(" + %1 iterations").arg(iterations.size());
    m_profilesButton->setText(text);
}

void ComparePane::refillRuleSelectors()
{
    CategoryController* categories = m_controller->categories();
    const QSignalBlocker b1(m_engine);
    const QSignalBlocker b2(m_ruleModel);
    m_engine->clear();
    m_ruleModel->clear();
    const RuleList rules = m_controller->categoryRules();
    if (categories) {
        m_engine->addItems(categories->library().engines());
        m_ruleModel->addItems(categories->library().models(categories->engine()));
    } else {
        m_engine->addItem(rules.engine);
        m_ruleModel->addItem(rules.model);
    }
    if (m_ruleModel->findText(rules.model) < 0)
        m_ruleModel->addItem(rules.model);
    m_engine->setCurrentText(rules.engine);
    m_ruleModel->setCurrentText(rules.model);
    m_engine->setEnabled(categories);
    m_ruleModel->setEnabled(categories);
    m_mode->setEnabled(categories);
}

void ComparePane::syncControls()
{
    m_syncing = true;
    const CompareController::Settings& s = m_controller->settings();
    m_by->setCurrentIndex(m_by->findData(int(s.by)));
    m_names->setCurrentIndex(m_names->findData(int(s.kernelNames)));
    m_normalizeNames->setChecked(s.normalizeNames);
    m_normalization->setCurrentIndex(m_normalization->findData(int(s.normalization)));
    if (!m_marker->hasFocus())
        m_marker->setText(s.marker);
    m_threshold->setValue(s.thresholdPercent);
    m_noiseFloor->setValue(s.noiseFloorNs / 1000.0);
    m_mode->setCurrentIndex(m_mode->findData(int(m_controller->categoryTimeMode())));
    const bool category = s.by == CompareBy::Category;
    const bool options = m_fold->showsOptions();
    m_names->setVisible(s.by == CompareBy::Kernel);
    m_normalizeNames->setVisible(options && !category);
    for (QWidget* w : std::initializer_list<QWidget*> { m_rulesLabel, m_engine, m_ruleModel, m_mode })
        w->setVisible(category);
    for (QWidget* w : { m_valuesField, m_thresholdField, m_noiseFloorField })
        w->setVisible(options);
    m_marker->setVisible(options && s.normalization == CompareNormalization::PerIteration);
    m_syncing = false;
}

void ComparePane::applyControls()
{
    if (m_syncing)
        return;
    CompareController::Settings s = m_controller->settings();
    const CompareBy previous = s.by;
    s.by = CompareBy(m_by->currentData().toInt());
    s.kernelNames = KernelNameMode(m_names->currentData().toInt());
    // Another key kind brings its own normalization (NVTX: on unless turned off); the box edits the current one's.
    s.normalizeNames = s.by == previous ? m_normalizeNames->isChecked() : savedNormalizeNames(s.by);
    s.normalization = CompareNormalization(m_normalization->currentData().toInt());
    s.marker = m_marker->text().trimmed();
    s.thresholdPercent = m_threshold->value();
    s.noiseFloorNs = m_noiseFloor->value() * 1000.0;
    saveCompareSettings(s, s.by == previous);
    m_controller->setSettings(s);
    syncControls();
}

void ComparePane::showResults()
{
    const Comparison& c = m_controller->comparison();
    m_chart->setComparison(c, compareSubtitle(*m_controller));
    m_model->setComparison(c);
    // The key, its status and the first profile's change beside it; the totals of each profile to scroll to.
    const int first = c.baseline == 0 && c.profileCount() > 1 ? 1 : 0;
    if (m_columns)
        m_columns->setColumns(m_model->columnOf(CompareTableModel::Column::Key),
            { m_model->columnOf(CompareTableModel::Column::Status),
                m_model->columnOf(CompareTableModel::Column::DeltaPercent, first),
                m_model->columnOf(CompareTableModel::Column::Delta, first) });

    const CompareStatusText status = compareStatusOf(*m_controller, workbench()->sessions().size());
    m_status->setText(status.lines.join(QLatin1Char('\n')));
    m_status->setStyleSheet(
        status.warn ? QStringLiteral("background: #fff3cd; color: #5c4400; padding: 2px;") : QString());
    m_statusLine->setFullText(status.oneLine());
    m_statusWarns = status.warn;
    showStatus();
    if (!m_selectedKey.isEmpty()) {
        // Keep the selection across recomputes when the key is still there (without re-sending it).
        m_syncing = true;
        const int row = m_model->rowOfKey(m_selectedKey);
        if (row >= 0)
            m_table->setCurrentIndex(m_proxy->mapFromSource(m_model->index(row, 0)));
        m_syncing = false;
    }
    Q_EMIT resultsShown();
}

bool ComparePane::selectKey(const QString& key)
{
    const int row = m_model->rowOfKey(key);
    if (row < 0)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index);
    return true;
}

void ComparePane::onCurrentRowChanged()
{
    if (m_syncing)
        return;
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const int r = m_model->comparisonRow(current.row());
    if (!current.isValid() || r < 0)
        return;
    m_selectedKey = m_model->comparison().rows[std::size_t(r)].key;
    applySelection(m_selectedKey);
}

void ComparePane::applySelection(const QString& key)
{
    const CompareBy by = m_controller->settings().by;
    ProfileSession* current = workbench()->current();
    m_syncing = true;
    if (current && m_controller->isIncluded(current)) {
        if (const auto rows = m_controller->kernelRows(current, key)) {
            KernelSelection selection;
            selection.session = current;
            selection.label = tr("compare: %1 %2").arg(compareByName(by), key);
            selection.filter.rows = rows;
            workbench()->showKernels(selection);
            m_ownsKernelFilter = true;
        }
    }
    if (by == CompareBy::Kernel)
        for (ProfileSession* s : m_controller->profiles()) {
            const QStringList names = m_controller->kernelNames(s, key);
            if (names.size() == 1)
                workbench()->selectKernelName(s, names.first());
        }
    m_syncing = false;
}

void ComparePane::onKernelNameSelected(ProfileSession* session, const QString& name)
{
    if (m_syncing || m_controller->settings().by != CompareBy::Kernel || !m_controller->isIncluded(session))
        return;
    // The key of that kernel name in this comparison (the same name, or its normalized form).
    const auto entry = m_controller->entry(session);
    if (!entry || !entry->index)
        return;
    const StringRef ref = session->profile()->strings.find(name);
    const int group = ref == kNoString ? -1 : entry->index->groupOf(ref);
    if (group < 0 || entry->keyOfGroup[std::size_t(group)] < 0)
        return;
    const QString key = entry->keys->keys[std::size_t(entry->keyOfGroup[std::size_t(group)])];
    m_syncing = true;
    const int row = m_model->rowOfKey(key);
    if (row >= 0) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        m_table->setCurrentIndex(index);
        m_table->scrollTo(index);
        m_selectedKey = key;
    }
    m_syncing = false;
}

} // namespace nsw

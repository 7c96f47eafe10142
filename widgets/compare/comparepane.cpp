// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparepane.h"

#include "comparechart.h"
#include "core/compare/compareexport.h"
#include "core/compare/compareheadline.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/models/comparetablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "core/util/timeformat.h"
#include "widgets/common/elidedlabel.h"
#include "widgets/common/filterbar.h"
#include "widgets/common/flowlayout.h"
#include "widgets/common/keycolumns.h"
#include "widgets/common/optionsfold.h"
#include "widgets/common/plotexport.h"
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
#include <QSettings>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <functional>
#include <map>

namespace nsw {

namespace {

/// Calls @p onResize after each resize of the watched widget (owned by it).
class ResizeWatcher : public QObject
{
public:
    ResizeWatcher(QWidget* watched, std::function<void()> onResize)
        : QObject(watched)
        , m_onResize(std::move(onResize))
    {
        watched->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Resize)
            m_onResize();
        return false;
    }

private:
    std::function<void()> m_onResize;
};
const QString kSettingsGroup = QStringLiteral("compare/");
using Column = CompareTableModel::Column;

/// Status colours on the status and delta columns, the category swatch on the key, the totals row in bold.
class CompareDelegate : public QStyledItemDelegate
{
public:
    CompareDelegate(const CompareTableModel* model, QObject* parent)
        : QStyledItemDelegate(parent)
        , m_model(model)
    { }

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(PinnedRole).toBool())
            option->font.setBold(true);
        const Column kind = m_model->columnKind(index.column());
        if (kind == Column::Key) {
            const QVariant color = index.data(CompareTableModel::ColorRole);
            if (color.isValid()) {
                QPixmap swatch(12, 12);
                swatch.fill(QColor::fromRgba(color.toUInt()));
                option->features |= QStyleOptionViewItem::HasDecoration;
                option->icon = QIcon(swatch);
                option->decorationSize = QSize(12, 12);
            }
            return;
        }
        if (kind != Column::Status && kind != Column::Delta && kind != Column::DeltaPercent
            && kind != Column::DeltaInstances)
            return;
        switch (CompareStatus(index.data(CompareTableModel::StatusRole).toInt())) {
        case CompareStatus::Regression:
        case CompareStatus::New:
            option->palette.setColor(QPalette::Text, QColor(178, 34, 34));
            break;
        case CompareStatus::Improvement:
        case CompareStatus::Removed:
            option->palette.setColor(QPalette::Text, QColor(25, 120, 60));
            break;
        case CompareStatus::Unchanged:
            option->palette.setColor(QPalette::Text, QColor(110, 110, 110));
            break;
        }
    }

private:
    const CompareTableModel* m_model;
};
/// Name normalization is remembered per key kind. NVTX paths default to normalized: runs number their ranges
/// differently (op_id = 12345), so unnormalized paths rarely match between two profiles.
bool normalizeNamesSetting(const QSettings& settings, const QString& group, CompareBy by)
{
    const QString key = group + QStringLiteral("normalizeNames/") + compareByName(by);
    if (settings.contains(key))
        return settings.value(key).toBool();
    if (by == CompareBy::Kernel) // saved before the setting was per key kind
        return settings.value(group + QStringLiteral("normalizeNames"), false).toBool();
    return by == CompareBy::Nvtx;
}

/// The comparison's mode in words, for the status line.
QString modeDescription(const Comparison& c, const QString& marker)
{
    switch (c.normalization) {
    case CompareNormalization::None:
        return ComparePane::tr("totals (time and instances as captured)");
    case CompareNormalization::PerSecond:
        return ComparePane::tr("per second of capture");
    case CompareNormalization::PerIteration:
        return ComparePane::tr("per iteration of \"%1\"").arg(marker);
    case CompareNormalization::PerInstance:
        return ComparePane::tr("per instance (average and median per execution; Δ % of the average)");
    }
    return {};
}

/// Which entries are focused: "Focus: a.sqlite on iteration 5 (412 ms); the others show the whole capture…", or ""
/// when none is.
QString focusDescription(const std::vector<ProfileSession*>& profiles)
{
    QStringList focused;
    for (const ProfileSession* p : profiles)
        if (p->focus().isActive())
            focused.append(ComparePane::tr("%1 on %2 (%3)")
                               .arg(p->displayName(), p->focus().label, formatDuration(p->focus().durationNs())));
    if (focused.isEmpty())
        return {};
    return ComparePane::tr("Focus: %1%2. Keys count what overlaps the focus (kernels with whole durations, category "
                           "occupancy clipped, NVTX ranges that overlap); per second is per second of the focus.")
        .arg(focused.join(QStringLiteral("; ")),
            std::size_t(focused.size()) < profiles.size() ? ComparePane::tr("; the others show the whole capture")
                                                          : QString());
}

} // namespace

ComparePane::ComparePane(Workbench* workbench, CategoryController* categories, QWidget* parent)
    : Pane(workbench, parent)
    , m_controller(new CompareController(workbench, categories, this))
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
    connectSources(workbench, categories);
    refillRuleSelectors();
    rebuildProfileControls();
    syncControls();
    showResults();
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
    const QSettings settings;
    CompareController::Settings s;
    s.by = CompareBy(settings.value(kSettingsGroup + QStringLiteral("by"), int(CompareBy::Kernel)).toInt());
    s.kernelNames = KernelNameMode(settings.value(kSettingsGroup + QStringLiteral("names"), 0).toInt());
    s.normalizeNames = normalizeNamesSetting(settings, kSettingsGroup, s.by);
    s.normalization = CompareNormalization(settings.value(kSettingsGroup + QStringLiteral("per"), 0).toInt());
    s.marker = settings.value(kSettingsGroup + QStringLiteral("marker")).toString();
    s.thresholdPercent = settings.value(kSettingsGroup + QStringLiteral("threshold"), 5.0).toDouble();
    s.noiseFloorNs = settings.value(kSettingsGroup + QStringLiteral("noiseFloorNs"), 1000.0).toDouble();
    if (s.normalization == CompareNormalization::PerIteration && s.marker.isEmpty())
        s.normalization = CompareNormalization::None;
    m_controller->setSettings(s);
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

void ComparePane::showEvent(QShowEvent* event)
{
    Pane::showEvent(event);
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
    QSettings settings;
    // Another key kind brings its own normalization (NVTX: on unless turned off); the box edits the current one's.
    s.normalizeNames
        = s.by == previous ? m_normalizeNames->isChecked() : normalizeNamesSetting(settings, kSettingsGroup, s.by);
    s.normalization = CompareNormalization(m_normalization->currentData().toInt());
    s.marker = m_marker->text().trimmed();
    s.thresholdPercent = m_threshold->value();
    s.noiseFloorNs = m_noiseFloor->value() * 1000.0;
    settings.setValue(kSettingsGroup + QStringLiteral("by"), int(s.by));
    settings.setValue(kSettingsGroup + QStringLiteral("names"), int(s.kernelNames));
    if (s.by == previous)
        settings.setValue(kSettingsGroup + QStringLiteral("normalizeNames/") + compareByName(s.by), s.normalizeNames);
    settings.setValue(kSettingsGroup + QStringLiteral("per"), int(s.normalization));
    settings.setValue(kSettingsGroup + QStringLiteral("marker"), s.marker);
    settings.setValue(kSettingsGroup + QStringLiteral("threshold"), s.thresholdPercent);
    settings.setValue(kSettingsGroup + QStringLiteral("noiseFloorNs"), s.noiseFloorNs);
    m_controller->setSettings(s);
    syncControls();
}

void ComparePane::showResults()
{
    const Comparison& c = m_controller->comparison();
    const CompareController::Settings& s = m_controller->settings();
    QString subtitle;
    if (!c.profiles.isEmpty())
        subtitle = tr("baseline %1").arg(c.profiles.value(qsizetype(c.baseline)));
    if (s.by == CompareBy::Category) {
        const RuleList rules = m_controller->categoryRules();
        subtitle += tr(" · rules %1 / %2, %3")
                        .arg(rules.engine, rules.model, timeModeName(m_controller->categoryTimeMode()));
    }
    if (c.normalization == CompareNormalization::PerSecond)
        subtitle += tr(" · per second of capture");
    else if (c.normalization == CompareNormalization::PerIteration)
        subtitle += tr(" · per iteration of \"%1\"").arg(s.marker);
    else if (c.normalization == CompareNormalization::PerInstance)
        subtitle += tr(" · per instance (average per execution)");
    m_chart->setComparison(c, subtitle);
    m_model->setComparison(c);
    // The key, its status and the first profile's change beside it; the totals of each profile to scroll to.
    const int first = c.baseline == 0 && c.profileCount() > 1 ? 1 : 0;
    if (m_columns)
        m_columns->setColumns(m_model->columnOf(CompareTableModel::Column::Key),
            { m_model->columnOf(CompareTableModel::Column::Status),
                m_model->columnOf(CompareTableModel::Column::DeltaPercent, first),
                m_model->columnOf(CompareTableModel::Column::Delta, first) });

    QStringList lines;
    qsizetype modeLine = -1;
    bool warn = false;
    const std::size_t sessions = workbench()->sessions().size();
    const std::size_t members = m_controller->members().size();
    if (sessions < 2 && members < 2)
        lines.append(tr("Open two profiles or more to compare them (File → Open takes several at once); the first one "
                        "is the baseline. Iterations of one profile compare too: add them in the Iterations pane."));
    else if (members < 2)
        lines.append(tr("Choose two profiles or more under Profiles, or add iterations from the Iterations pane."));
    if (m_controller->isBusy())
        lines.append(tr("Computing…"));
    if (!c.error.isEmpty()) {
        lines.append(QStringLiteral("⚠ ") + c.error);
        warn = true;
    }
    if (s.normalization == CompareNormalization::PerIteration && s.marker.isEmpty()) {
        lines.append(tr("⚠ Enter the NVTX range that marks one iteration."));
        warn = true;
    }
    for (const QString& w : c.warnings) {
        lines.append(QStringLiteral("⚠ ") + w);
        warn = true;
    }
    if (c.error.isEmpty() && c.profileCount() >= 2) {
        // The changes per call and the GPUs' idle shares first (compareHeadline), then the mode.
        lines.append(compareHeadline(c));
        modeLine = lines.size();
        lines.append(tr("Mode: %1").arg(modeDescription(c, s.marker)));
        if (const QString focus = focusDescription(m_controller->profiles()); !focus.isEmpty())
            lines.append(focus);
    }
    m_status->setText(lines.join(QLatin1Char('\n')));
    m_status->setStyleSheet(warn ? QStringLiteral("background: #fff3cd; color: #5c4400; padding: 2px;") : QString());
    QStringList oneLine = lines; // the headline first: the mode is the line's least news
    if (modeLine >= 0)
        oneLine.move(modeLine, oneLine.size() - 1);
    m_statusLine->setFullText(oneLine.join(QStringLiteral(" · ")));
    m_statusWarns = warn;
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

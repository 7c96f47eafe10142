// SPDX-License-Identifier: GPL-3.0-or-later
#include "ruleeditor.h"

#include "core/categories/categorytable.h"
#include "core/controllers/categorycontroller.h"
#include "core/models/categorynamesmodel.h"
#include "core/models/ruletablemodel.h"
#include "core/models/sortfilterproxy.h"
#include "core/session/workbench.h"
#include "core/util/numberformat.h"
#include "ruledelegate.h"
#include "ruleeditorstatus.h"
#include "rulescommand.h"
#include "ruleselectors.h"
#include "rulesetactions.h"
#include "widgets/common/filedialogs.h"
#include "widgets/common/filterbar.h"
#include "widgets/common/tableviews.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QStringListModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

namespace nsw {

namespace {
enum MergeKind
{
    NoMerge = 0,
    TypingPattern = 1,
    TypingCategory = 2,
    TypingNote = 3
};
} // namespace

RuleEditorDialog::RuleEditorDialog(CategoryController* controller, QWidget* parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_undo(new QUndoStack(this))
    , m_engine(new QComboBox(this))
    , m_model(new QComboBox(this))
    , m_source(new QLabel(this))
    , m_ruleModel(new RuleTableModel(this))
    , m_ruleView(new QTableView(this))
    , m_pattern(new QLineEdit(this))
    , m_patternError(new QLabel(this))
    , m_category(new QLineEdit(this))
    , m_caseInsensitive(new QCheckBox(tr("Case-insensitive"), this))
    , m_match(new QComboBox(this))
    , m_note(new QLineEdit(this))
    , m_namesModel(new CategoryNamesModel(this))
    , m_namesProxy(new SortFilterProxy(this))
    , m_namesView(new QTableView(this))
    , m_namesScope(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_save(new QPushButton(tr("&Save"), this))
    , m_typing(new QTimer(this))
{
    setWindowTitle(tr("Category rules"));
    setModal(false);
    resize(1200, 760);
    m_typing->setSingleShot(true);
    m_typing->setInterval(kTypingDelayMs);

    QLayout* selectors = buildSelectorBar(); // first: the focus chain follows creation order
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(buildRulesBox());
    splitter->addWidget(buildNamesBox());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(selectors);
    layout->addWidget(m_source);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);
    connectRuleFields();
    connectController();

    refillSelectors();
    onRulesChanged();
    onResultsChanged();
    if (m_ruleModel->rowCount() > 0)
        setCurrentRow(0);
}

/// Engine and model selectors, and the buttons that act on the whole rule set.
QLayout* RuleEditorDialog::buildSelectorBar()
{
    auto* newFrom = new QPushButton(tr("New engine/model from this…"), this);
    auto* importButton = new QPushButton(tr("Import…"), this);
    auto* exportButton = new QPushButton(tr("Export…"), this);
    auto* revert = new QPushButton(tr("Revert"), this);
    importButton->setToolTip(tr("Copy a gputrc2graph rule file (JSON) into your rules folder"));
    exportButton->setToolTip(tr("Write this engine as a gputrc2graph rule file"));
    m_save->setShortcut(QKeySequence::Save);
    m_save->setToolTip(tr("Save atomically to your rules folder; shipped rule sets are never modified"));
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Engine:"), this));
    top->addWidget(m_engine);
    top->addWidget(new QLabel(tr("Model:"), this));
    top->addWidget(m_model);
    top->addWidget(newFrom);
    top->addStretch(1);
    top->addWidget(importButton);
    top->addWidget(exportButton);
    top->addWidget(revert);
    top->addWidget(m_save);
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_engine, &QComboBox::activated, this, [this]() {
        const QString engine = m_engine->currentText();
        if (confirmDiscard())
            m_controller->select(engine, m_controller->library().models(engine).value(0));
        refillSelectors();
    });
    connect(m_model, &QComboBox::activated, this, [this]() {
        if (confirmDiscard())
            m_controller->select(m_engine->currentText(), m_model->currentText());
        refillSelectors();
    });
    connect(newFrom, &QPushButton::clicked, this, [this]() { createModelInteractively(*m_controller, this); });
    connect(importButton, &QPushButton::clicked, this, &RuleEditorDialog::importRules);
    connect(exportButton, &QPushButton::clicked, this, [this]() { exportRulesInteractively(*m_controller, this); });
    connect(revert, &QPushButton::clicked, this, [this]() {
        m_controller->revert();
        m_undo->clear();
    });
    connect(m_save, &QPushButton::clicked, this, [this]() {
        if (const QString e = save(); !e.isEmpty())
            QMessageBox::warning(this, tr("Save rules"), e);
    });
    return top;
}

/// The rule table with its toolbar, above the fields of the selected rule.
QWidget* RuleEditorDialog::buildRulesBox()
{
    auto* tools = new QToolBar(this);
    QAction* add = tools->addAction(tr("Add rule"), this, &RuleEditorDialog::addRule);
    add->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    QAction* remove = tools->addAction(tr("Delete"), this, [this]() { deleteRule(currentRow()); });
    remove->setShortcut(QKeySequence::Delete);
    tools->addAction(tr("Move up"), this, [this]() { moveRule(currentRow(), currentRow() - 1); });
    tools->addAction(tr("Move down"), this, [this]() { moveRule(currentRow(), currentRow() + 1); });
    tools->addSeparator();
    QAction* undo = m_undo->createUndoAction(this, tr("Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_undo->createRedoAction(this, tr("Redo"));
    redo->setShortcut(QKeySequence::Redo);
    tools->addAction(undo);
    tools->addAction(redo);
    addAction(undo);
    addAction(redo);

    m_ruleView->setModel(m_ruleModel);
    setupTableView(m_ruleView);
    m_ruleView->setSortingEnabled(false);
    m_ruleView->setItemDelegate(new RuleDelegate(m_ruleView));
    m_ruleView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_ruleView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_ruleView->setDragEnabled(true);
    m_ruleView->setAcceptDrops(true);
    m_ruleView->setDropIndicatorShown(true);
    m_ruleView->setDragDropMode(QAbstractItemView::InternalMove);
    m_ruleView->setDefaultDropAction(Qt::MoveAction);
    m_ruleView->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_ruleView->horizontalHeader()->resizeSection(RuleTableModel::PatternColumn, 360);
    m_ruleView->horizontalHeader()->resizeSection(RuleTableModel::CategoryColumn, 150);
    m_ruleView->horizontalHeader()->resizeSection(RuleTableModel::CaseColumn, 36);
    m_ruleView->horizontalHeader()->resizeSection(RuleTableModel::StatusColumn, 160);

    auto* rulesBox = new QWidget(this);
    auto* rulesLayout = new QVBoxLayout(rulesBox);
    rulesLayout->setContentsMargins(0, 0, 0, 0);
    rulesLayout->addWidget(tools);
    rulesLayout->addWidget(m_ruleView, 1);
    rulesLayout->addLayout(buildRuleForm());
    return rulesBox;
}

QLayout* RuleEditorDialog::buildRuleForm()
{
    m_match->addItem(tr("demangled name"), int(RuleNameKind::Demangled));
    m_match->addItem(tr("short name"), int(RuleNameKind::Short));
    m_match->setToolTip(tr("gputrc2graph matches demangled names; short-name rules are our extension"));
    m_patternError->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_patternError->hide();
    m_patternError->setWordWrap(true);
    m_pattern->setPlaceholderText(tr("regular expression, found anywhere in the name (Python re.search)"));
    m_pattern->setFont(QFont(QStringLiteral("monospace")));
    auto* patternRow = new QHBoxLayout;
    patternRow->addWidget(m_pattern, 1);
    patternRow->addWidget(m_caseInsensitive);
    patternRow->addWidget(m_match);
    auto* form = new QFormLayout;
    form->addRow(tr("Pattern:"), patternRow);
    form->addRow(QString(), m_patternError);
    form->addRow(tr("Category:"), m_category);
    form->addRow(tr("Note:"), m_note);
    return form;
}

/// Names the rules leave to the catch-all (or all names), to make rules from.
QWidget* RuleEditorDialog::buildNamesBox()
{
    m_namesScope->addItem(tr("Uncategorized names (no rule or the catch-all)"), true);
    m_namesScope->addItem(tr("All names of the profile"), false);
    auto* filter = new FilterBar(this);
    filter->setPlaceholder(tr("Filter names"));
    auto* makeRule = new QPushButton(tr("Make a rule from this name…"), this);
    m_namesProxy->setSourceModel(m_namesModel);
    m_namesProxy->setFilterKeyColumn(CategoryNamesModel::NameColumn);
    m_namesView->setModel(m_namesProxy);
    setupTableView(m_namesView);
    m_namesView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_namesView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_namesView->horizontalHeader()->resizeSection(CategoryNamesModel::NameColumn, 420);
    m_namesView->sortByColumn(CategoryNamesModel::TimeColumn, Qt::DescendingOrder);
    auto* namesBox = new QWidget(this);
    auto* namesLayout = new QVBoxLayout(namesBox);
    namesLayout->setContentsMargins(0, 0, 0, 0);
    auto* namesBar = new QHBoxLayout;
    namesBar->addWidget(m_namesScope);
    namesBar->addWidget(filter, 1);
    namesBar->addWidget(makeRule);
    namesLayout->addLayout(namesBar);
    namesLayout->addWidget(m_namesView, 1);
    connect(m_namesScope, &QComboBox::activated, this, &RuleEditorDialog::onResultsChanged);
    connect(filter, &FilterBar::filterChanged, this,
        [this, filter](const QString& text, bool regex) { filter->setError(m_namesProxy->setFilter(text, regex)); });
    connect(makeRule, &QPushButton::clicked, this, &RuleEditorDialog::makeRuleFromCurrentName);
    return namesBox;
}

/// Edits in the table and in the fields of the selected rule become undoable rule changes.
void RuleEditorDialog::connectRuleFields()
{
    connect(m_ruleModel, &RuleTableModel::editRequested, this,
        [this](int row, const CategoryRule& rule) { applyRule(row, rule); });
    connect(m_ruleModel, &RuleTableModel::moveRequested, this, &RuleEditorDialog::moveRule);
    connect(m_ruleView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &RuleEditorDialog::showCurrentRule);
    connect(m_pattern, &QLineEdit::textEdited, this, [this](const QString& text) {
        CategoryRule probe;
        probe.pattern = text;
        probe.caseInsensitive = m_caseInsensitive->isChecked();
        const QString error = validateRulePattern(probe);
        m_patternError->setText(error);
        m_patternError->setVisible(!error.isEmpty());
        m_typing->start();
    });
    connect(m_category, &QLineEdit::textEdited, m_typing, qOverload<>(&QTimer::start));
    connect(m_note, &QLineEdit::textEdited, m_typing, qOverload<>(&QTimer::start));
    connect(m_typing, &QTimer::timeout, this, &RuleEditorDialog::applyTypedFields);
    connect(m_caseInsensitive, &QCheckBox::clicked, this, [this](bool checked) {
        const int row = currentRow();
        if (row < 0)
            return;
        CategoryRule rule = m_controller->rules().rules[std::size_t(row)];
        rule.caseInsensitive = checked;
        applyRule(row, rule);
    });
    connect(m_match, &QComboBox::activated, this, [this]() {
        const int row = currentRow();
        if (row < 0)
            return;
        CategoryRule rule = m_controller->rules().rules[std::size_t(row)];
        rule.name = RuleNameKind(m_match->currentData().toInt());
        applyRule(row, rule);
    });
}

void RuleEditorDialog::connectController()
{
    connect(m_controller, &CategoryController::selectionChanged, this, [this]() {
        m_undo->clear();
        refillSelectors();
    });
    connect(m_controller, &CategoryController::libraryChanged, this, &RuleEditorDialog::refillSelectors);
    connect(m_controller, &CategoryController::rulesChanged, this, &RuleEditorDialog::onRulesChanged);
    connect(m_controller, &CategoryController::resultsChanged, this, &RuleEditorDialog::onResultsChanged);
    connect(m_controller->workbench(), &Workbench::currentChanged, this, &RuleEditorDialog::onResultsChanged);
}

void RuleEditorDialog::makeRuleFromCurrentName()
{
    const QModelIndex current = m_namesProxy->mapToSource(m_namesView->currentIndex());
    if (!current.isValid()) {
        QMessageBox::information(this, tr("Make a rule"), tr("Select a name in the list first."));
        return;
    }
    QStringList categories;
    for (const CategoryRule& r : m_controller->rules().rules)
        if (!categories.contains(r.category))
            categories.append(r.category);
    bool ok = false;
    const QString category = QInputDialog::getItem(this, tr("Make a rule"),
        tr("Category for %1:").arg(m_namesModel->rowAt(current.row())->shortName), categories, 0, true, &ok);
    if (ok && !category.trimmed().isEmpty())
        makeRuleFromName(current.row(), category.trimmed());
}

RuleEditorDialog::~RuleEditorDialog() = default;

int RuleEditorDialog::currentRow() const
{
    return m_ruleView->currentIndex().isValid() ? m_ruleView->currentIndex().row() : -1;
}

void RuleEditorDialog::setCurrentRow(int row)
{
    if (row < 0 || row >= m_ruleModel->rowCount())
        return;
    m_ruleView->setCurrentIndex(m_ruleModel->index(row, RuleTableModel::PatternColumn));
    m_ruleView->scrollTo(m_ruleView->currentIndex());
    showCurrentRule();
}

void RuleEditorDialog::refillSelectors()
{
    fillRuleSelectors(*m_controller, m_engine, m_model);
    const RuleSource* s = m_controller->source();
    QString where;
    if (!s)
        where = tr("New engine, not saved yet.");
    else if (s->kind == RuleSource::Shipped)
        where = tr("Shipped rule set (read-only): saving writes your copy of engine \"%1\" to %2, which then "
                   "replaces the shipped one.")
                    .arg(m_controller->engine(), m_controller->savePath());
    else
        where = tr("Your rules: %1").arg(s->path);
    m_source->setText(where);
}

void RuleEditorDialog::pushRules(const RuleList& after, const QString& text, int mergeId, int selectRow)
{
    m_undo->push(new RulesCommand(
        m_controller, m_controller->rules(), after, text, mergeId, [this](int row) { setCurrentRow(row); }, selectRow));
}

bool RuleEditorDialog::applyRule(int row, const CategoryRule& rule, int mergeKind)
{
    const RuleList& current = m_controller->rules();
    if (row < 0 || std::size_t(row) >= current.rules.size())
        return false;
    QString error = validateRulePattern(rule);
    const int duplicate = current.find(rule.key());
    if (error.isEmpty() && duplicate >= 0 && duplicate != row)
        error = tr("rule %1 has the same pattern; a JSON object cannot hold it twice").arg(duplicate + 1);
    m_patternError->setText(error);
    m_patternError->setVisible(!error.isEmpty());
    if (!error.isEmpty())
        return false;
    if (current.rules[std::size_t(row)] == rule)
        return true;
    RuleList after = current;
    after.rules[std::size_t(row)] = rule;
    pushRules(after, tr("Edit rule %1").arg(row + 1), mergeKind > 0 ? mergeKind * 100000 + row : -1, row);
    return true;
}

void RuleEditorDialog::applyTypedFields()
{
    const int row = currentRow();
    if (row < 0)
        return;
    CategoryRule rule = m_controller->rules().rules[std::size_t(row)];
    int kind = NoMerge;
    if (m_pattern->text() != rule.pattern) {
        rule.pattern = m_pattern->text();
        kind = TypingPattern;
    }
    if (m_category->text().trimmed() != rule.category) {
        rule.category = m_category->text().trimmed();
        kind = kind == NoMerge ? TypingCategory : kind;
    }
    if (m_note->text() != rule.note) {
        rule.note = m_note->text();
        kind = kind == NoMerge ? TypingNote : kind;
    }
    if (kind != NoMerge)
        applyRule(row, rule, kind);
}

void RuleEditorDialog::addRule()
{
    RuleList after = m_controller->rules();
    int row = currentRow() >= 0 ? currentRow() + 1 : int(after.rules.size());
    // Never after a catch-all: a rule there could not win anything.
    for (int r = 0; r < row && r < int(after.rules.size()); ++r)
        if (QRegularExpression(after.rules[std::size_t(r)].key()).match(QString()).hasMatch()) {
            row = r;
            break;
        }
    CategoryRule rule;
    int n = 1;
    do
        rule.pattern = QStringLiteral("new_pattern_%1").arg(n++);
    while (after.find(rule.key()) >= 0);
    rule.category = QStringLiteral("new_category");
    after.rules.insert(after.rules.begin() + row, rule);
    pushRules(after, tr("Add rule"), -1, row);
    m_pattern->setFocus();
    m_pattern->selectAll();
}

void RuleEditorDialog::deleteRule(int row)
{
    RuleList after = m_controller->rules();
    if (row < 0 || std::size_t(row) >= after.rules.size())
        return;
    after.rules.erase(after.rules.begin() + row);
    pushRules(after, tr("Delete rule %1").arg(row + 1), -1, std::min(row, int(after.rules.size()) - 1));
}

void RuleEditorDialog::moveRule(int from, int to)
{
    RuleList after = m_controller->rules();
    const int count = int(after.rules.size());
    if (from < 0 || from >= count || to < 0 || to >= count || from == to)
        return;
    const CategoryRule rule = after.rules[std::size_t(from)];
    after.rules.erase(after.rules.begin() + from);
    after.rules.insert(after.rules.begin() + to, rule);
    pushRules(after, tr("Move rule %1 to %2").arg(from + 1).arg(to + 1), -1, to);
}

bool RuleEditorDialog::makeRuleFromName(int nameRow, const QString& category)
{
    const CategoryNameRow* name = m_namesModel->rowAt(nameRow);
    if (!name)
        return false;
    const CategoryRule rule = suggestRule(name->name, name->shortName, category);
    RuleList after = m_controller->rules();
    if (const int existing = after.find(rule.key()); existing >= 0) {
        setCurrentRow(existing);
        return false;
    }
    int row = int(after.rules.size());
    for (int r = 0; r < int(after.rules.size()); ++r)
        if (QRegularExpression(after.rules[std::size_t(r)].key()).match(QString()).hasMatch()) {
            row = r;
            break;
        }
    after.rules.insert(after.rules.begin() + row, rule);
    pushRules(after, tr("Rule for %1").arg(name->shortName), -1, row);
    return true;
}

QString RuleEditorDialog::save()
{
    const QString error = m_controller->save();
    m_status->setText(error.isEmpty() ? tr("Saved to %1").arg(m_controller->savePath()) : error);
    if (error.isEmpty())
        m_undo->setClean();
    refillSelectors();
    return error;
}

void RuleEditorDialog::onRulesChanged()
{
    m_ruleModel->setRules(m_controller->rules());
    auto* completer = m_category->completer();
    QStringList categories;
    for (const CategoryRule& r : m_controller->rules().rules)
        if (!categories.contains(r.category))
            categories.append(r.category);
    if (!completer) {
        completer = new QCompleter(this);
        completer->setModel(new QStringListModel(completer));
        m_category->setCompleter(completer);
    }
    static_cast<QStringListModel*>(completer->model())->setStringList(categories);
    m_save->setEnabled(m_controller->isModified());
    setWindowTitle(tr("Category rules — %1 / %2%3")
                       .arg(m_controller->engine(), m_controller->model(),
                           m_controller->isModified() ? tr(" (unsaved)") : QString()));
    showCurrentRule();
}

void RuleEditorDialog::showCurrentRule()
{
    const int row = currentRow();
    const bool valid = row >= 0 && std::size_t(row) < m_controller->rules().rules.size();
    for (QWidget* w : { static_cast<QWidget*>(m_pattern), static_cast<QWidget*>(m_category),
             static_cast<QWidget*>(m_caseInsensitive), static_cast<QWidget*>(m_match), static_cast<QWidget*>(m_note) })
        w->setEnabled(valid);
    if (!valid)
        return;
    const CategoryRule& rule = m_controller->rules().rules[std::size_t(row)];
    // Keep what the user is typing (it is applied after the debounce, or refused while invalid).
    if (!m_typing->isActive() && m_patternError->text().isEmpty()) {
        if (m_pattern->text() != rule.pattern)
            m_pattern->setText(rule.pattern);
        if (m_category->text() != rule.category)
            m_category->setText(rule.category);
        if (m_note->text() != rule.note)
            m_note->setText(rule.note);
    }
    m_caseInsensitive->setChecked(rule.caseInsensitive);
    m_match->setCurrentIndex(m_match->findData(int(rule.name)));
}

void RuleEditorDialog::onResultsChanged()
{
    const CategoryController::SessionResult* r = m_controller->result(m_controller->workbench()->current());
    const std::size_t ruleCount = m_controller->rules().rules.size();
    if (r && r->evaluation.rules.size() == ruleCount) {
        m_ruleModel->setDiagnostics(
            r->evaluation.rules, r->breakdown.ruleInstances, r->breakdown.ruleTime, r->breakdown.mode);
        m_namesModel->setRows(
            categoryNameRows(*r->timeline, r->breakdown, r->evaluation, m_namesScope->currentData().toBool()),
            r->breakdown.mode);
    } else if (!r) {
        RuleMatchCache none(NameSet {});
        const RuleEvaluation e = evaluateRules(m_controller->rules(), none, &representativeMatchCache());
        m_ruleModel->setDiagnostics(e.rules, {}, {}, m_controller->timeMode());
        m_namesModel->setRows({}, m_controller->timeMode());
    }
    m_status->setText(statusText());
}

QString RuleEditorDialog::statusText() const
{
    return ruleEditorStatus(*m_controller);
}

bool RuleEditorDialog::confirmDiscard()
{
    if (!m_controller->isModified())
        return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved rules"),
        tr("%1 / %2 has unsaved changes. Save them first?").arg(m_controller->engine(), m_controller->model()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return save().isEmpty();
    return true;
}

void RuleEditorDialog::reject()
{
    // QDialog's Esc and close button both come here (a closeEvent() alone let Esc close without asking).
    if (!confirmDiscard())
        return;
    if (m_controller->isModified())
        m_controller->revert();
    QDialog::reject();
}

void RuleEditorDialog::importRules()
{
    if (!confirmDiscard())
        return;
    const QString file
        = askOpenFileName(this, tr("Import gputrc2graph rules"), tr("Rule files (*.json);;All files (*)"));
    if (!file.isEmpty())
        importRulesFrom(file);
}

bool RuleEditorDialog::importRulesFrom(const QString& file)
{
    return importRulesInteractively(*m_controller, file, this);
}

} // namespace nsw

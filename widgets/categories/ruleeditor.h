// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/rulefile.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;
class QUndoStack;

namespace nsw {

class CategoryController;
class CategoryNamesModel;
class RuleTableModel;
class SortFilterProxy;

/// Edits the rules of one engine/model with live feedback: hits, instances and time per rule on the current
/// profile, shadowed and invalid rules flagged, the bars recomputed as you type (debounced). Add, delete, drag to
/// reorder, undo/redo; a browser of the names no rule or only the catch-all takes, with "make a rule from this
/// name"; atomic save to the user's folder; import/export of gputrc2graph JSON; a new engine/model from this one.
class RuleEditorDialog : public QDialog
{
    Q_OBJECT
public:
    /// Debounce of typing in the pattern/category fields before the rules are applied.
    static constexpr int kTypingDelayMs = 150;

    explicit RuleEditorDialog(CategoryController* controller, QWidget* parent = nullptr);
    ~RuleEditorDialog() override;

    // For tests and the pane.
    QTableView* ruleView() const { return m_ruleView; }
    RuleTableModel* ruleModel() const { return m_ruleModel; }
    QTableView* namesView() const { return m_namesView; }
    CategoryNamesModel* namesModel() const { return m_namesModel; }
    QLineEdit* patternEdit() const { return m_pattern; }
    QLineEdit* categoryEdit() const { return m_category; }
    QLabel* patternError() const { return m_patternError; }
    QUndoStack* undoStack() const { return m_undo; }
    int currentRow() const;
    void setCurrentRow(int row);

    /// Applies an edited rule (validated; refused with the reason shown). @p mergeKind > 0 merges consecutive
    /// edits of the same field of the same rule into one undo step (typing).
    bool applyRule(int row, const CategoryRule& rule, int mergeKind = 0);
    void addRule();
    void deleteRule(int row);
    void moveRule(int from, int to);
    /// Inserts a rule for the browser's name @p nameRow before the first catch-all rule.
    bool makeRuleFromName(int nameRow, const QString& category);
    QString save();
    /// Imports a gputrc2graph rule file (Import… after its file dialog): asks before it replaces saved rules (a file of
    /// that name, or an engine another saved file defines). Returns false when cancelled or failed.
    bool importRulesFrom(const QString& file);
    QString statusText() const;
    /// Applies what is typed in the fields now; the typing timer calls it kTypingDelayMs after the last key.
    void applyTypedFields();

    /// Esc and the window's close button: unsaved edits ask first (Save, Discard or Cancel: stay open).
    void reject() override;

private:
    QLayout* buildSelectorBar();
    QWidget* buildRulesBox();
    QLayout* buildRuleForm();
    QWidget* buildNamesBox();
    void connectRuleFields();
    void connectController();
    void makeRuleFromCurrentName();
    void pushRules(const RuleList& after, const QString& text, int mergeId = -1, int selectRow = -1);
    void refillSelectors();
    void onRulesChanged();
    void onResultsChanged();
    void showCurrentRule();
    bool confirmDiscard();
    void importRules();

    CategoryController* m_controller;
    QUndoStack* m_undo;
    QComboBox* m_engine;
    QComboBox* m_model;
    QLabel* m_source;
    RuleTableModel* m_ruleModel;
    QTableView* m_ruleView;
    QLineEdit* m_pattern;
    QLabel* m_patternError;
    QLineEdit* m_category;
    QCheckBox* m_caseInsensitive;
    QComboBox* m_match;
    QLineEdit* m_note;
    CategoryNamesModel* m_namesModel;
    SortFilterProxy* m_namesProxy;
    QTableView* m_namesView;
    QComboBox* m_namesScope;
    QLabel* m_status;
    QPushButton* m_save;
    QTimer* m_typing;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "rulesetactions.h"

#include "core/controllers/categorycontroller.h"
#include "widgets/common/filedialogs.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QStringList>
#include <utility>

namespace nsw {

void createModelInteractively(CategoryController& controller, QWidget* parent)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QDialog::tr("New engine/model"));
    auto* form = new QFormLayout(&dialog);
    auto* engine = new QComboBox(&dialog);
    engine->setEditable(true);
    engine->addItems(controller.library().engines());
    engine->setCurrentText(controller.engine());
    auto* model = new QLineEdit(controller.model() + QStringLiteral("-copy"), &dialog);
    form->addRow(QDialog::tr("Engine:"), engine);
    form->addRow(QDialog::tr("Model:"), model);
    form->addRow(new QLabel(QDialog::tr("Starts as a copy of the rules shown (with their unsaved edits)."), &dialog));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (const QString e = controller.createModel(engine->currentText().trimmed(), model->text().trimmed());
        !e.isEmpty())
        QMessageBox::warning(parent, QDialog::tr("New engine/model"), e);
}

bool importRulesInteractively(CategoryController& controller, const QString& file, QWidget* parent)
{
    CategoryController::ImportConflicts conflicts;
    QString error = controller.importFile(file, false, &conflicts);
    if (!conflicts.isEmpty()) {
        QStringList replaced;
        if (conflicts.fileExists)
            replaced << QDialog::tr("your saved file %1").arg(QFileInfo(file).fileName());
        for (const auto& [engine, savedIn] : std::as_const(conflicts.savedEngines))
            replaced << QDialog::tr("your saved rules of engine \"%1\" in %2 (kept as %2.bak)")
                            .arg(engine, QFileInfo(savedIn).fileName());
        if (QMessageBox::question(parent, QDialog::tr("Import rules"),
                QDialog::tr("Importing %1 replaces %2. Replace?")
                    .arg(QFileInfo(file).fileName(), replaced.join(QDialog::tr(" and "))))
            != QMessageBox::Yes)
            return false;
        error = controller.importFile(file, true);
    }
    if (!error.isEmpty())
        QMessageBox::warning(parent, QDialog::tr("Import rules"), error);
    return error.isEmpty();
}

void exportRulesInteractively(CategoryController& controller, QWidget* parent)
{
    const QString file = askSaveFileName(parent, QDialog::tr("Export gputrc2graph rules"),
        controller.engine() + QStringLiteral(".json"), QDialog::tr("Rule files (*.json)"));
    if (file.isEmpty())
        return;
    if (const QString e = controller.exportTo(file); !e.isEmpty())
        QMessageBox::warning(parent, QDialog::tr("Export rules"), e);
}

} // namespace nsw

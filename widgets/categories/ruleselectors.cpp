// SPDX-License-Identifier: GPL-3.0-or-later
#include "ruleselectors.h"

#include "core/controllers/categorycontroller.h"

#include <QComboBox>
#include <QSignalBlocker>

namespace nsw {

void fillRuleSelectors(const CategoryController& controller, QComboBox* engine, QComboBox* model)
{
    const QSignalBlocker blockEngine(engine);
    const QSignalBlocker blockModel(model);
    engine->clear();
    engine->addItems(controller.library().engines());
    engine->setCurrentText(controller.engine());
    model->clear();
    model->addItems(controller.library().models(controller.engine()));
    if (model->findText(controller.model()) < 0)
        model->addItem(controller.model()); // a model being created, not in the library yet
    model->setCurrentText(controller.model());
}

} // namespace nsw

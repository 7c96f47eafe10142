// SPDX-License-Identifier: GPL-3.0-or-later
#include "ruleeditorstatus.h"

#include "core/categories/categorytable.h"
#include "core/controllers/categorycontroller.h"
#include "core/session/workbench.h"
#include "core/util/numberformat.h"

#include <QObject>

namespace nsw {

QString ruleEditorStatus(const CategoryController& controller)
{
    const CategoryController::SessionResult* r = controller.result(controller.workbench()->current());
    int shadowed = 0, unused = 0, invalid = 0;
    if (r)
        for (const RuleDiagnostic& d : r->evaluation.rules) {
            shadowed += d.status == RuleDiagnostic::Shadowed;
            unused += d.status == RuleDiagnostic::Unused;
            invalid += d.status == RuleDiagnostic::Invalid;
        }
    QString text = countOf(qint64(controller.rules().rules.size()), QObject::tr("rule"), QObject::tr("rules"));
    if (!r)
        return text + QObject::tr(" · no profile open: hits are counted on the representative name set only");
    text += QObject::tr(" · %1 shadowed · %2 matching nothing").arg(shadowed).arg(unused);
    if (invalid)
        text += QObject::tr(" · %1 invalid").arg(invalid);
    std::int64_t uncategorized = 0;
    TimeNs uncategorizedTime = 0;
    TimeNs total = 0;
    for (const CategoryNameRow& row : categoryNameRows(*r->timeline, r->breakdown, r->evaluation, false)) {
        total += row.time;
        if (row.rule < 0 || row.catchAll) {
            ++uncategorized;
            uncategorizedTime += row.time;
        }
    }
    text += QObject::tr(" · %1 names uncategorized (%2 % of the time) · recomputed in %3 ms")
                .arg(uncategorized)
                .arg(total > 0 ? 100.0 * double(uncategorizedTime) / double(total) : 0.0, 0, 'f', 1)
                .arg(double(r->microseconds) / 1000.0, 0, 'f', 1);
    return text;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparestatus.h"

#include "core/categories/timemodes.h"
#include "core/compare/compareheadline.h"
#include "core/controllers/categorycontroller.h"
#include "core/controllers/comparecontroller.h"
#include "core/session/profilesession.h"
#include "core/util/timeformat.h"

#include <QObject>

namespace nsw {

namespace {
/// The comparison's mode in words, for the status line.
QString modeDescription(const Comparison& c, const QString& marker)
{
    switch (c.normalization) {
    case CompareNormalization::None:
        return QObject::tr("totals (time and instances as captured)");
    case CompareNormalization::PerSecond:
        return QObject::tr("per second of capture");
    case CompareNormalization::PerIteration:
        return QObject::tr("per iteration of \"%1\"").arg(marker);
    case CompareNormalization::PerInstance:
        return QObject::tr("per instance (average and median per execution; Δ % of the average)");
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
            focused.append(QObject::tr("%1 on %2 (%3)")
                               .arg(p->displayName(), p->focus().label, formatDuration(p->focus().durationNs())));
    if (focused.isEmpty())
        return {};
    return QObject::tr("Focus: %1%2. Keys count what overlaps the focus (kernels with whole durations, category "
                       "occupancy clipped, NVTX ranges that overlap); per second is per second of the focus.")
        .arg(focused.join(QStringLiteral("; ")),
            std::size_t(focused.size()) < profiles.size() ? QObject::tr("; the others show the whole capture")
                                                          : QString());
}
} // namespace

QString compareSubtitle(const CompareController& controller)
{
    const Comparison& c = controller.comparison();
    const CompareController::Settings& s = controller.settings();
    QString subtitle;
    if (!c.profiles.isEmpty())
        subtitle = QObject::tr("baseline %1").arg(c.profiles.value(qsizetype(c.baseline)));
    if (s.by == CompareBy::Category) {
        const RuleList rules = controller.categoryRules();
        subtitle += QObject::tr(" · rules %1 / %2, %3")
                        .arg(rules.engine, rules.model, timeModeName(controller.categoryTimeMode()));
    }
    if (c.normalization == CompareNormalization::PerSecond)
        subtitle += QObject::tr(" · per second of capture");
    else if (c.normalization == CompareNormalization::PerIteration)
        subtitle += QObject::tr(" · per iteration of \"%1\"").arg(s.marker);
    else if (c.normalization == CompareNormalization::PerInstance)
        subtitle += QObject::tr(" · per instance (average per execution)");
    return subtitle;
}

QString CompareStatusText::oneLine() const
{
    QStringList ordered = lines;
    if (modeLine >= 0)
        ordered.move(modeLine, ordered.size() - 1);
    return ordered.join(QStringLiteral(" · "));
}

CompareStatusText compareStatusOf(const CompareController& controller, std::size_t openSessions)
{
    const Comparison& c = controller.comparison();
    const CompareController::Settings& s = controller.settings();
    CompareStatusText status;
    QStringList& lines = status.lines;
    const std::size_t members = controller.members().size();
    if (openSessions < 2 && members < 2)
        lines.append(QObject::tr("Open two profiles or more to compare them (File → Open takes several at once); the "
                                 "first one is the baseline. Iterations of one profile compare too: add them in the "
                                 "Iterations pane."));
    else if (members < 2)
        lines.append(
            QObject::tr("Choose two profiles or more under Profiles, or add iterations from the Iterations pane."));
    if (controller.isBusy())
        lines.append(QObject::tr("Computing…"));
    const auto warn = [&status](const QString& line) {
        status.lines.append(QStringLiteral("⚠ ") + line);
        status.warn = true;
    };
    if (!c.error.isEmpty())
        warn(c.error);
    if (s.normalization == CompareNormalization::PerIteration && s.marker.isEmpty())
        warn(QObject::tr("Enter the NVTX range that marks one iteration."));
    for (const QString& w : c.warnings)
        warn(w);
    if (c.error.isEmpty() && c.profileCount() >= 2) {
        // The changes per call and the GPUs' idle shares first (compareHeadline), then the mode.
        lines.append(compareHeadline(c));
        status.modeLine = lines.size();
        lines.append(QObject::tr("Mode: %1").arg(modeDescription(c, s.marker)));
        if (const QString focus = focusDescription(controller.profiles()); !focus.isEmpty())
            lines.append(focus);
    }
    return status;
}

} // namespace nsw

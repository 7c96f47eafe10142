// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/timeline/timelineevent.h"

#include <QColor>
#include <QHash>
#include <functional>

namespace nsw {

/// The fill of each event box: by name (a stable hue per name, so one kernel reads the same everywhere), memory
/// operations by copy kind. A provider (kernel categories, later) can take over; it returns an invalid colour for
/// the events it leaves to the name.
class EventColors
{
public:
    using Provider = std::function<QColor(const Profile&, EventRef)>;

    void setProvider(Provider provider);
    /// Forget cached colours (another profile: string ids mean other names).
    void clear()
    {
        m_byName.clear();
        m_lastColor = {};
    }
    QColor colorOf(const Profile& profile, EventRef event);
    static QColor busyColor() { return QColor(118, 185, 0); }
    /// A colour for a name, independent of the profile it comes from.
    static QColor colorForName(const QString& name);
    static QColor memOpColor(std::uint8_t copyKind);

private:
    Provider m_provider;
    QHash<qint64, QColor> m_byName;
    qint64 m_lastKey = 0; ///< neighbouring boxes often share a name
    QColor m_lastColor;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <cstdint>
#include <vector>

class QMenu;
class QToolButton;
class QWidget;

namespace nsw {

class KernelIndex;

/// The kernel table's Devices, Processes and Streams menus: a checked entry per device, process and stream (lane) of
/// the kernels; a lane is shown while its three entries are checked.
class KernelLaneMenus : public QObject
{
    Q_OBJECT
public:
    /// The menus' buttons are children of @p parent.
    explicit KernelLaneMenus(QWidget* parent);

    QToolButton* devicesButton() const { return m_devicesButton; }
    QToolButton* processesButton() const { return m_processesButton; }
    QToolButton* streamsButton() const { return m_streamsButton; }
    /// Every entry of @p index (may be null: none), all checked.
    void rebuild(const KernelIndex* index);
    /// Per lane of @p index, whether it is shown; empty when every lane is.
    std::vector<char> allowedLanes(const KernelIndex& index) const;
    /// Checks what hides lane @p lane of @p index; true when anything was unchecked.
    bool allowLane(const KernelIndex& index, std::uint32_t lane);
    void setDeviceAllowed(int device, bool allowed);

Q_SIGNALS:
    /// The user checked or unchecked an entry.
    void changed();

private:
    QMenu* m_devicesMenu;
    QMenu* m_processesMenu;
    QMenu* m_streamsMenu;
    QToolButton* m_devicesButton;
    QToolButton* m_processesButton;
    QToolButton* m_streamsButton;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernellanemenus.h"

#include "core/stats/kernelindex.h"
#include "widgets/common/pane.h"

#include <QMenu>
#include <QToolButton>
#include <set>

namespace nsw {

namespace {
bool isChecked(const QMenu* menu, const QVariant& key)
{
    const QList<QAction*> actions = menu->actions();
    for (const QAction* a : actions)
        if (a->isCheckable() && a->data() == key)
            return a->isChecked();
    return true;
}

void addCheckedEntry(QMenu* menu, const QString& text, const QVariant& key)
{
    QAction* a = menu->addAction(text);
    a->setCheckable(true);
    a->setChecked(true);
    a->setData(key);
}
} // namespace

KernelLaneMenus::KernelLaneMenus(QWidget* parent)
    : QObject(parent)
    , m_devicesMenu(new QMenu(parent))
    , m_processesMenu(new QMenu(parent))
    , m_streamsMenu(new QMenu(parent))
    , m_devicesButton(menuButton(tr("Devices"), m_devicesMenu, parent))
    , m_processesButton(menuButton(tr("Processes"), m_processesMenu, parent))
    , m_streamsButton(menuButton(tr("Streams"), m_streamsMenu, parent))
{
    for (QMenu* menu : { m_devicesMenu, m_processesMenu, m_streamsMenu })
        connect(menu, &QMenu::triggered, this, &KernelLaneMenus::changed);
}

void KernelLaneMenus::rebuild(const KernelIndex* index)
{
    for (QMenu* menu : { m_devicesMenu, m_processesMenu, m_streamsMenu })
        menu->clear();
    if (!index)
        return;
    const Profile& p = *index->profile();
    std::set<int> devices;
    std::set<ProcessIndex> processes;
    for (const KernelLane& lane : index->lanes()) {
        devices.insert(lane.device);
        processes.insert(lane.process);
    }
    for (const int d : devices)
        addCheckedEntry(m_devicesMenu, p.deviceLabel(kNoIndex, d), d);
    for (const ProcessIndex pr : processes)
        addCheckedEntry(m_processesMenu, p.processLabel(pr), pr);
    for (std::size_t i = 0; i < index->lanes().size(); ++i) {
        const KernelLane& lane = index->lanes()[i];
        addCheckedEntry(m_streamsMenu,
            tr("Stream %1 · GPU %2 · %3").arg(lane.stream).arg(lane.device).arg(p.processLabel(lane.process)), int(i));
    }
    m_devicesButton->setEnabled(devices.size() > 1);
    m_processesButton->setEnabled(processes.size() > 1);
    m_streamsButton->setEnabled(index->lanes().size() > 1);
}

std::vector<char> KernelLaneMenus::allowedLanes(const KernelIndex& index) const
{
    const auto& lanes = index.lanes();
    bool restricted = false;
    std::vector<char> allowed(lanes.size(), 1);
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        allowed[i] = isChecked(m_devicesMenu, lanes[i].device) && isChecked(m_processesMenu, lanes[i].process)
            && isChecked(m_streamsMenu, int(i));
        restricted |= !allowed[i];
    }
    return restricted ? allowed : std::vector<char> {};
}

bool KernelLaneMenus::allowLane(const KernelIndex& index, std::uint32_t lane)
{
    const KernelLane& l = index.lanes()[lane];
    const QVariant keys[] = { l.device, l.process, int(lane) };
    QMenu* const menus[] = { m_devicesMenu, m_processesMenu, m_streamsMenu };
    bool widened = false;
    for (int m = 0; m < 3; ++m)
        for (QAction* a : menus[m]->actions())
            if (a->isCheckable() && a->data() == keys[m] && !a->isChecked()) {
                a->setChecked(true);
                widened = true;
            }
    return widened;
}

void KernelLaneMenus::setDeviceAllowed(int device, bool allowed)
{
    const QList<QAction*> actions = m_devicesMenu->actions();
    for (QAction* a : actions)
        if (a->data().toInt() == device)
            a->setChecked(allowed);
}

} // namespace nsw

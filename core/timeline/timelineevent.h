// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QString>
#include <QStringList>
#include <cstdint>

namespace nsw {

/// The Profile table an event of the timeline comes from.
enum class EventTable : std::uint8_t
{
    None,
    Kernel,
    MemOp,
    GraphLaunch,
    CudaApi,
    Nvtx,
    Osrt,
};

/// One event of the timeline: a row of a Profile table (the index stores only the row, 4 bytes).
struct EventRef
{
    EventTable table = EventTable::None;
    std::uint32_t row = 0;
    bool valid() const { return table != EventTable::None; }
    bool operator==(const EventRef&) const = default;
};

/// GPU operations of one stream share a lane, so their rows carry their table in the top two bits.
namespace gpuop {
inline constexpr std::uint32_t kRowMask = 0x3FFFFFFFu;
inline constexpr std::uint32_t kMaxRows = kRowMask + 1;
inline std::uint32_t encode(EventTable table, std::uint32_t row)
{
    const std::uint32_t tag = table == EventTable::MemOp ? 1u : table == EventTable::GraphLaunch ? 2u : 0u;
    return (tag << 30) | row;
}
inline EventRef decode(std::uint32_t code)
{
    static constexpr EventTable kTables[]
        = { EventTable::Kernel, EventTable::MemOp, EventTable::GraphLaunch, EventTable::Kernel };
    return { kTables[code >> 30], code & kRowMask };
}
} // namespace gpuop

/// The columns of a GPU activity table (kernels, memory operations, graph launches); null for the CPU-side tables.
const GpuActivityColumns* gpuActivityColumns(const Profile& profile, EventTable table);

/// Start and end of any event; an unterminated NVTX range ends at the last NVTX timestamp (as nsys draws it), a
/// mark ends where it starts.
TimeNs eventStart(const Profile& profile, EventRef event);
TimeNs eventEnd(const Profile& profile, EventRef event);
/// The name drawn in the box: demangled kernel name, "[CUDA memcpy Host-to-Device]", API or NVTX or OS call name.
QString eventName(const Profile& profile, EventRef event);
/// A StringPool id (or a small negative id for memory operations and graphs) that names the event: equal names
/// give equal keys, so colours can be keyed on it without touching the string.
std::int64_t eventNameKey(const Profile& profile, EventRef event);

/// What a tooltip shows about an event.
struct EventDescription
{
    QString kind; ///< "Kernel", "Memcpy", "CUDA API", "NVTX range"...
    QString name;
    TimeNs start = 0; ///< on the capture clock (origin subtracted)
    TimeNs duration = 0;
    QString where; ///< "GPU 0 (H100) · stream 7" or "python (1234) · thread main (1234)"
    QStringList details; ///< "grid 128×1×1 block 256×1×1", "bytes 1.5 MB"...
};
EventDescription describeEvent(const Profile& profile, EventRef event);

} // namespace nsw

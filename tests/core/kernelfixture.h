// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profilebuilder.h"

namespace nsw::test {

/// Two processes, two devices, three streams; kernel "k1" 6 times, "k2" 3 times, with durations chosen so that
/// every filter gives a different, hand-checkable answer.
///   pid 1, device 0, stream 7 : k1 10, 20, 30   k2 100
///   pid 1, device 0, stream 8 : k1 40            k2 200
///   pid 2, device 1, stream 7 : k1 50, 60        k2 300
inline ProfilePtr twoDeviceKernels()
{
    ProfileBuilder b;
    const ThreadIndex t1 = b.thread(b.process(1, QStringLiteral("rank0")), 1);
    const ThreadIndex t2 = b.thread(b.process(2, QStringLiteral("rank1")), 2);
    TimeNs at = 1000;
    auto k = [&](ThreadIndex t, const char* name, TimeNs duration, int device, std::uint32_t stream) {
        b.kernel(t, at - 100, at - 90, at, at + duration, QLatin1String(name), device, stream);
        at += 1000;
    };
    k(t1, "k1", 10, 0, 7);
    k(t1, "k1", 20, 0, 7);
    k(t1, "k1", 30, 0, 7);
    k(t1, "k2", 100, 0, 7);
    k(t1, "k1", 40, 0, 8);
    k(t1, "k2", 200, 0, 8);
    k(t2, "k1", 50, 1, 7);
    k(t2, "k1", 60, 1, 7);
    k(t2, "k2", 300, 1, 7);
    return b.build();
}

} // namespace nsw::test

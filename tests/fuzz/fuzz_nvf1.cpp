// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: any bytes as an NVF1 recording, then the analyses that consume a parsed recording.
#include "core/nvlink/nvf1reader.h"
#include "core/nvlink/nvlinkanalysis.h"
#include "core/nvlink/plotreduction.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const nsw::Nvf1ReadResult r
        = nsw::parseNvf1Bytes(reinterpret_cast<const char*>(data), size, QStringLiteral("fuzz.bin"), 0);
    if (!r.recording)
        return r.error.isEmpty() ? 1 : 0; // a rejected file must say why
    const nsw::Nvf1Recording& rec = *r.recording;
    for (const bool aggregate : { false, true }) {
        nsw::NvlinkFilter f;
        f.aggregateLinks = aggregate;
        const auto series = nsw::selectSeries(rec.links, rec.totals, f);
        (void)nsw::topIntervals(series, 3);
        (void)nsw::avgThroughput(series);
        (void)nsw::totalCommunication(series);
        for (const nsw::ThroughputSeries* s : series) {
            if (s->time.size() != s->bytes.size() + 1 && !(s->time.size() <= 1 && s->bytes.empty()))
                __builtin_trap(); // one byte count per interval
            const nsw::SeriesMaxIndex index(*s);
            if (s->time.size() >= 2)
                (void)nsw::reduceForPlot(*s, index, 0, s->time.front(), s->time.back() + 1, 50);
        }
    }
    return 0;
}

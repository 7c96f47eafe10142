// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/nvf1records.h"

#include <memory>

namespace nsw::nvf1 {

// The fast path: the recorder's own layout. Every poll writes the same fields in the same order (TX, RX of link 0, then
// link 1...), all with nvmlReturn 0 and one host timestamp; so record r is series r % S of poll r / S, and two threads
// can fill the final arrays in place, each over half of the polls. Anything else (a failed field, a missing or extra
// record, samples out of order) and the general path (nvf1general.h) parses the file instead.

struct RegularLayout
{
    int seriesPerPoll = 0;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> keys; // (field, link) per position in a poll
    qint64 records = 0;
    qint64 polls = 0; ///< including a last, partial poll
    int lastPollRecords = 0;
    qint64 origin = 0;
};

/// True when the first poll shows the regular layout (and the file holds at least two polls); fills @p layout.
bool analyzeFirstPoll(const RecordReader& read, int stride, qint64 records, RegularLayout& layout);

/// Parses the whole file on the fast path; null when it leaves the layout somewhere (or on cancel).
std::shared_ptr<Nvf1Recording> parseRegular(const RegularLayout& layout, int stride, const RecordReader& read,
    const QString& name, const Nvf1Header& header, int gpu, qint64 fileBytes, qint64 tailBytes,
    const CancelToken& cancel);

} // namespace nsw::nvf1

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace nsw {

/// The parts of a profile that are not tables of rows (metadata, processes, threads, GPUs, NVTX domains, memcpy
/// labels, the activity span), and the warnings of the load that made it, as one section of a cache file.
QByteArray encodeProfileFacts(const Profile& profile, const QStringList& loadWarnings);
/// Fills @p profile's facts from @p bytes; false when they are not a valid encoding (cut short, counts past the
/// end, a thread of a process that does not exist).
bool decodeProfileFacts(const QByteArray& bytes, Profile& profile, QStringList& loadWarnings);

/// The string pool as two sections: where each text starts in the UTF-16 code units of all texts (n + 1 offsets),
/// and those code units.
struct EncodedStrings
{
    std::vector<std::uint64_t> offsets;
    std::vector<char16_t> units;
};
EncodedStrings encodeStrings(const StringPool& pool);
/// Nothing when the offsets do not tile the units or two texts are equal.
std::optional<StringPool> decodeStrings(
    const std::uint64_t* offsets, std::size_t offsetCount, const char16_t* units, std::size_t unitCount);

} // namespace nsw

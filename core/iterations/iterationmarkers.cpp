// SPDX-License-Identifier: GPL-3.0-or-later
#include "iterationmarkers.h"

#include "core/nvtx/nvtxnames.h"
#include "core/util/stringlists.h"

#include <QRegularExpression>
#include <algorithm>
#include <map>

namespace nsw {

namespace {

struct KnownMarker
{
    QString name;
    QRegularExpression pattern;
};

const std::vector<KnownMarker>& knownMarkers()
{
    static const std::vector<KnownMarker> all = {
        { QStringLiteral("ProfilerStep#N"), QRegularExpression(QStringLiteral("^ProfilerStep#\\d+$")) },
        { QStringLiteral("iteration N / step N"),
            QRegularExpression(QStringLiteral("^(?:train(?:ing)?[ _]?)?(?:iteration|iter|step)[ _#:=-]?\\d+$"),
                QRegularExpression::CaseInsensitiveOption) },
        { QStringLiteral("train_step"),
            QRegularExpression(QStringLiteral("^train(?:ing)?[ _]?step$"), QRegularExpression::CaseInsensitiveOption) },
        { QStringLiteral("execute_model"), QRegularExpression(QStringLiteral("(?:^|[^A-Za-z_])execute_model$")) },
        { QStringLiteral("sample_N"), QRegularExpression(QStringLiteral("^sample_\\d+$")) },
    };
    return all;
}

bool hasLibraryPrefix(const QString& text)
{
    static const QLatin1String prefixes[] = { QLatin1String("cub::"), QLatin1String("thrust::"), QLatin1String("nccl"),
        QLatin1String("cublas"), QLatin1String("cudnn"), QLatin1String("cutlass"), QLatin1String("cusparse"),
        QLatin1String("cufft"), QLatin1String("curand"), QLatin1String("cusolver"), QLatin1String("nvshmem") };
    for (const QLatin1String& p : prefixes)
        if (text.startsWith(p, Qt::CaseInsensitive))
            return true;
    return false;
}

/// Decides once per distinct name whether it is the marker.
class NameMatcher
{
public:
    NameMatcher(const Profile& profile, const QString& marker)
        : m_profile(profile)
        , m_marker(marker)
        , m_normalized(normalizeNvtxName(marker))
        , m_regex(QRegularExpression::anchoredPattern(marker))
        , m_cache(profile.strings.size(), 0)
    { }

    /// The known marker a name is (its index), -1 when none; with a user marker, 0 when it matches.
    int match(StringRef name)
    {
        if (name == kNoString)
            return -1;
        std::int8_t& c = m_cache[std::size_t(name)];
        if (c == 0)
            c = std::int8_t(compute(m_profile.strings.at(name)) + 2);
        return c - 2;
    }

private:
    int compute(const QString& text) const
    {
        if (!m_marker.isEmpty()) {
            const bool same = text == m_marker || normalizeNvtxName(text) == m_normalized;
            return same || (m_regex.isValid() && m_regex.match(text).hasMatch()) ? 0 : -1;
        }
        const auto& known = knownMarkers();
        for (std::size_t i = 0; i < known.size(); ++i)
            if (known[i].pattern.match(text).hasMatch())
                return int(i);
        return -1;
    }

    const Profile& m_profile;
    QString m_marker;
    QString m_normalized;
    QRegularExpression m_regex;
    std::vector<std::int8_t> m_cache; ///< per StringRef: 0 unknown, else match + 2
};

struct Candidate
{
    std::size_t row;
    ProcessIndex process;
};

/// Keeps the outermost instances: sorted by start (longer first on ties), an instance inside an earlier one is
/// dropped, and so is an exact duplicate.
std::vector<MarkerRange> outermost(std::vector<MarkerRange> ranges)
{
    std::sort(ranges.begin(), ranges.end(), [](const MarkerRange& a, const MarkerRange& b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    std::vector<MarkerRange> kept;
    TimeNs maxEnd = kNoTime;
    for (const MarkerRange& r : ranges) {
        if (maxEnd != kNoTime && r.end <= maxEnd)
            continue;
        kept.push_back(r);
        maxEnd = std::max(maxEnd, r.end);
    }
    return kept;
}

} // namespace

QStringList knownIterationMarkers()
{
    return textsOf(knownMarkers(), &KnownMarker::name);
}

bool isLibraryNvtxRange(const Profile& profile, std::size_t nvtxRow)
{
    const NvtxTable& nvtx = profile.nvtx;
    if (hasLibraryPrefix(profile.strings.at(nvtx.name[nvtxRow])))
        return true;
    const int domain = nvtx.domain[nvtxRow];
    return domain >= 0 && hasLibraryPrefix(profile.nvtxDomainName(domain));
}

Result<MarkerRanges> findMarkerRanges(
    const Profile& profile, const QString& marker, const JobContext& job, ProcessIndex process)
{
    const NvtxTable& nvtx = profile.nvtx;
    NameMatcher matcher(profile, marker);
    // Per known marker (or the user's), the instances found; the lowest index that has any wins.
    std::map<int, std::vector<Candidate>> found;
    std::map<int, qint64> unterminated;
    CancelPoll<> poll(job.cancelToken());
    for (std::size_t i = 0; i < nvtx.size(); ++i) {
        if (poll())
            return Result<MarkerRanges>::cancelled();
        if (!NvtxTable::isRange(nvtx.eventType[i]))
            continue;
        const int m = matcher.match(nvtx.name[i]);
        if (m < 0 || isLibraryNvtxRange(profile, i))
            continue;
        const ProcessIndex owner = profile.processOfThread(nvtx.thread[i]);
        if (process != kNoIndex && owner != process)
            continue;
        if (nvtx.end[i] == kNoTime) {
            ++unterminated[m];
            continue;
        }
        found[m].push_back({ i, owner });
    }
    if (found.empty() || (!marker.isEmpty() && found.begin()->first != 0)) {
        const QString what = marker.isEmpty()
            ? QStringLiteral("no iteration marker (%1)").arg(knownIterationMarkers().join(QStringLiteral(", ")))
            : QStringLiteral("no NVTX range matches the marker '%1'%2")
                  .arg(marker,
                      QRegularExpression(marker).isValid() ? QString() : QStringLiteral(" (nor is it a valid regex)"));
        const QString where
            = process == kNoIndex ? QString() : QStringLiteral(" in %1").arg(profile.processLabel(process));
        return Result<MarkerRanges>::failure(
            ErrorKind::NoData, QStringLiteral("%1: %2%3").arg(profile.meta.filePath, what, where));
    }
    const auto& [markerIndex, candidates] = *found.begin();

    std::map<ProcessIndex, std::vector<MarkerRange>> byProcess;
    for (const Candidate& c : candidates)
        byProcess[c.process].push_back({ nvtx.start[c.row], nvtx.end[c.row], nvtx.name[c.row] });
    ProcessIndex chosen = byProcess.begin()->first;
    for (const auto& [process, ranges] : byProcess)
        if (ranges.size() > byProcess[chosen].size())
            chosen = process;

    MarkerRanges result;
    result.marker = marker.isEmpty() ? knownMarkers()[std::size_t(markerIndex)].name : marker;
    const std::size_t instances = byProcess[chosen].size();
    result.ranges = outermost(std::move(byProcess[chosen]));
    result.detail = QStringLiteral("%1 of %2 ranges of %3 (outermost)")
                        .arg(result.ranges.size())
                        .arg(instances)
                        .arg(chosen >= 0 ? profile.processLabel(chosen) : QStringLiteral("an unknown process"));
    Warnings warnings;
    if (byProcess.size() > 1)
        warnings << QStringLiteral("%1: the marker %2 is also in %3 other process(es); iterations are those of %4")
                        .arg(profile.meta.filePath, result.marker)
                        .arg(byProcess.size() - 1)
                        .arg(profile.processLabel(chosen));
    if (const qint64 open = unterminated[markerIndex]; open > 0)
        warnings << QStringLiteral("%1: %2 unterminated %3 range(s) ignored (no end in the capture)")
                        .arg(profile.meta.filePath)
                        .arg(open)
                        .arg(result.marker);
    return Result<MarkerRanges>(std::move(result), warnings);
}

} // namespace nsw

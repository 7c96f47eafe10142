// SPDX-License-Identifier: GPL-3.0-or-later
#include "iterations.h"

#include "core/categories/ruleevaluation.h"
#include "core/categories/rulelibrary.h"
#include "core/iterations/gpubusy.h"
#include "core/iterations/iterationmarkers.h"
#include "core/profile/sessionclock.h"
#include "core/util/timeformat.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace nsw {

namespace {

double medianOf(std::vector<double> v)
{
    if (v.empty())
        return 0;
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2 == 1)
        return upper;
    const double lower = *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid));
    return (lower + upper) / 2;
}

/// Kernel rows sorted by start, with the longest duration, to find those overlapping a range quickly.
struct KernelsByStart
{
    std::vector<std::uint32_t> rows;
    TimeNs longest = 0;
};

KernelsByStart sortKernels(const KernelTable& k)
{
    KernelsByStart s;
    s.rows.resize(k.size());
    std::iota(s.rows.begin(), s.rows.end(), 0u);
    std::sort(s.rows.begin(), s.rows.end(), [&](std::uint32_t a, std::uint32_t b) { return k.start[a] < k.start[b]; });
    for (std::size_t i = 0; i < k.size(); ++i)
        s.longest = std::max(s.longest, k.duration(i));
    return s;
}

/// The category index of each kernel row under the rules; index categories.size() - 1 is "uncategorized".
struct KernelCategories
{
    QStringList categories;
    std::vector<std::uint16_t> ofKernel;
};

KernelCategories categorizeKernels(const Profile& profile, const RuleList& rules)
{
    const KernelTable& k = profile.kernels;
    // Distinct demangled names, each with the short name of its first row.
    std::unordered_map<StringRef, int> nameIndex;
    NameSet names;
    std::vector<int> nameOfRow(k.size());
    for (std::size_t i = 0; i < k.size(); ++i) {
        const StringRef d = k.demangledName.empty() ? kNoString : k.demangledName[i];
        auto [it, added] = nameIndex.try_emplace(d, int(names.size()));
        if (added) {
            names.demangled << profile.strings.at(d);
            names.shortNames << profile.strings.at(k.shortName.empty() ? d : k.shortName[i]);
        }
        nameOfRow[i] = it->second;
    }
    RuleMatchCache cache(std::move(names));
    const RuleEvaluation evaluation = evaluateRules(rules, cache, nullptr);
    KernelCategories result;
    std::vector<int> categoryOfRule;
    for (const CategoryRule& r : rules.rules) {
        qsizetype c = result.categories.indexOf(r.category);
        if (c < 0) {
            c = result.categories.size();
            result.categories << r.category;
        }
        categoryOfRule.push_back(int(c));
    }
    result.categories << QStringLiteral("uncategorized");
    result.ofKernel.resize(k.size());
    for (std::size_t i = 0; i < k.size(); ++i) {
        const int rule = evaluation.ruleOfName[std::size_t(nameOfRow[i])];
        result.ofKernel[i] = std::uint16_t(rule < 0 ? result.categories.size() - 1 : categoryOfRule[std::size_t(rule)]);
    }
    return result;
}

/// Kernel count, top kernel and top category of one iteration. nsys's overlap predicate (FocusRange::overlaps) is, for
/// an event with start <= end, start < range end && end >= range start: the candidates start in [range start - longest,
/// range end).
bool measureKernels(const Profile& profile, const KernelsByStart& sorted, const KernelCategories* categories,
    Iteration& it, const JobContext& job)
{
    const KernelTable& k = profile.kernels;
    const FocusRange range { it.start, it.end, {} };
    const TimeNs from = it.start - sorted.longest;
    auto first = std::lower_bound(
        sorted.rows.begin(), sorted.rows.end(), from, [&](std::uint32_t row, TimeNs t) { return k.start[row] < t; });
    std::unordered_map<StringRef, TimeNs> timeByName;
    std::vector<TimeNs> timeByCategory(categories ? std::size_t(categories->categories.size()) : 0);
    CancelPoll<> poll(job.cancelToken());
    for (auto r = first; r != sorted.rows.end() && k.start[*r] < it.end; ++r) {
        if (poll())
            return false;
        if (!range.overlaps(k.start[*r], k.end[*r]))
            continue;
        ++it.kernels;
        timeByName[k.demangledName.empty() ? kNoString : k.demangledName[*r]] += k.duration(*r);
        if (categories)
            timeByCategory[categories->ofKernel[*r]] += k.duration(*r);
    }
    for (std::size_t c = 0; c < timeByCategory.size(); ++c)
        if (timeByCategory[c] > it.topCategoryTime) { // ties: the category of the earlier rule
            it.topCategory = categories->categories[qsizetype(c)];
            it.topCategoryTime = timeByCategory[c];
        }
    for (const auto& [name, time] : timeByName)
        if (time > it.topKernelTime
            || (time == it.topKernelTime && profile.strings.at(name) < profile.strings.at(it.topKernel))) {
            it.topKernel = name;
            it.topKernelTime = time;
        }
    return true;
}

/// The shape of a gap guess: the complete periods (one splitting gap to the next) and the splitting gaps.
struct GuessShape
{
    std::vector<TimeNs> periods;
    std::vector<TimeNs> gaps;
    double spread = 0; ///< 1.4826 × MAD / median of the periods
    double gapShare = 0; ///< median gap / median period
    TimeNs medianPeriod = 0;
    TimeNs medianGap = 0;
};

GuessShape shapeOf(const GapSegments& segments)
{
    GuessShape shape;
    const auto& seg = segments.segments;
    for (std::size_t i = 0; i + 1 < seg.size(); ++i) {
        shape.periods.push_back(seg[i + 1].first - seg[i].first);
        shape.gaps.push_back(seg[i + 1].first - seg[i].second);
    }
    double median = 0, mad = 0, gapMedian = 0;
    robustOutliers(shape.periods, &median, &mad);
    robustOutliers(shape.gaps, &gapMedian);
    shape.medianPeriod = TimeNs(median);
    shape.medianGap = TimeNs(gapMedian);
    shape.spread = median > 0 ? 1.4826 * mad / median : 0.0;
    shape.gapShare = median > 0 ? gapMedian / median : 0.0;
    return shape;
}

QString percentText(double fraction)
{
    return QString::number(100.0 * fraction, 'f', 1) + QStringLiteral(" %");
}

/// Why the gaps are no iterations, empty when they may be guessed as such.
QString rejectGuess(const GuessShape& shape)
{
    if (shape.spread > kGuessMaxSpread)
        return QStringLiteral("the GPU idle gaps are not regular: the periods between them vary by %1 (1.4826 x MAD / "
                              "median; at most %2 to guess iterations)")
            .arg(percentText(shape.spread), percentText(kGuessMaxSpread));
    if (shape.gapShare < kGuessMinGapShare)
        return QStringLiteral("the GPU idle gaps are small against the work between them (median gap %1, %2 of the "
                              "median period %3; at least %4 to guess iterations)")
            .arg(formatDuration(shape.medianGap), percentText(shape.gapShare), formatDuration(shape.medianPeriod),
                percentText(kGuessMinGapShare));
    return {};
}

void rateGuess(IterationTable& table, const GuessShape& shape)
{
    const bool kernelInEach = std::all_of(
        table.iterations.begin(), table.iterations.end(), [](const Iteration& it) { return it.kernels > 0; });
    const QString numbers = QStringLiteral("%1 complete periods varying by %2, splitting gaps %3 of the median period")
                                .arg(shape.periods.size())
                                .arg(percentText(shape.spread), percentText(shape.gapShare));
    QStringList low;
    if (int(shape.periods.size()) < kGuessHighMinPeriods)
        low << QStringLiteral("fewer than %1 complete periods").arg(kGuessHighMinPeriods);
    if (shape.spread > kGuessHighMaxSpread)
        low << QStringLiteral("periods varying by more than %1").arg(percentText(kGuessHighMaxSpread));
    if (!kernelInEach)
        low << QStringLiteral("an iteration without kernels");
    table.confidence = low.isEmpty() ? IterationTable::Confidence::High : IterationTable::Confidence::Low;
    table.confidenceReason = low.isEmpty()
        ? QStringLiteral("high confidence: %1, a kernel in every iteration").arg(numbers)
        : QStringLiteral("low confidence (%1): %2; no outlier check").arg(low.join(QStringLiteral(", ")), numbers);
}

} // namespace

QString IterationTable::confidenceName() const
{
    switch (confidence) {
    case Confidence::Marker:
        return {};
    case Confidence::High:
        return QStringLiteral("high");
    case Confidence::Low:
        return QStringLiteral("low");
    }
    return {};
}

std::shared_ptr<const RuleList> defaultIterationRules()
{
    RuleLibrary library;
    library.add(RuleLibrary::shippedSet(QStringLiteral("vllm")));
    const RuleList* list = library.find(QStringLiteral("vllm"), QStringLiteral("llama"));
    return list ? std::make_shared<const RuleList>(*list) : nullptr;
}

std::vector<bool> robustOutliers(const std::vector<TimeNs>& values, double* median, double* mad)
{
    const std::vector<double> v(values.begin(), values.end());
    const double m = medianOf(v);
    std::vector<double> deviations;
    deviations.reserve(v.size());
    for (double x : v)
        deviations.push_back(std::abs(x - m));
    const double d = medianOf(deviations);
    std::vector<bool> flags;
    flags.reserve(v.size());
    for (double dev : deviations)
        flags.push_back(dev > 3 * 1.4826 * d);
    if (median)
        *median = m;
    if (mad)
        *mad = d;
    return flags;
}

QString IterationTable::label(int index) const
{
    const Iteration& it = iterations[std::size_t(index)];
    const QString what = isGuess() ? QStringLiteral("guessed from GPU idle gaps") : profile->strings.at(it.name);
    return QStringLiteral("iteration %1 (%2)").arg(it.index).arg(what);
}

int IterationTable::medianIteration() const
{
    if (iterations.empty())
        return -1;
    // A guess's last iteration has no gap after it: no complete period (unless it is the only one).
    std::vector<int> order(isGuess() && iterations.size() > 1 ? iterations.size() - 1 : iterations.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const TimeNs da = iterations[std::size_t(a)].duration(), db = iterations[std::size_t(b)].duration();
        return da != db ? da < db : a < b;
    });
    return order[(order.size() - 1) / 2];
}

Result<IterationSpans> findIterationSpans(const Profile& profile, const QString& marker, const IntervalUnion& busy,
    const JobContext& job, ProcessIndex process)
{
    Result<MarkerRanges> markers = findMarkerRanges(profile, marker, job, process);
    if (markers.isCancelled() || (!markers.ok() && !marker.isEmpty()))
        return markers.failureAs<IterationSpans>();
    IterationSpans spans;
    if (markers.ok()) {
        spans.source = IterationTable::Source::Marker;
        spans.marker = markers->marker;
        spans.detection = QStringLiteral("NVTX marker %1: %2").arg(markers->marker, markers->detail);
        for (const MarkerRange& r : markers->ranges)
            spans.iterations.push_back({ int(spans.iterations.size()), r.start, r.end, r.name });
        return Result<IterationSpans>(std::move(spans), markers.warnings());
    }
    spans.segments = splitAtIdleGaps(busy);
    const QString why = busy.intervals().empty() ? QStringLiteral("no GPU activity to guess them from")
        : spans.segments.segments.empty()        ? QStringLiteral("no clear GPU idle gaps to guess them from")
                                                 : rejectGuess(shapeOf(spans.segments));
    if (!why.isEmpty())
        return Result<IterationSpans>(
            Error { ErrorKind::NoData, QStringLiteral("%1 and %2").arg(markers.errorMessage(), why) },
            markers.warnings());
    spans.source = IterationTable::Source::IdleGapGuess;
    spans.detection = QStringLiteral("a guess: no iteration marker, so iterations are split at GPU idle gaps "
                                     "(all GPUs idle) longer than %1, from the gaps' distribution")
                          .arg(formatDuration(spans.segments.threshold));
    // An iteration runs from the start of its stretch of GPU work to the start of the next one (the idle gap after it
    // belongs to it), the last one to its last GPU work.
    const auto& seg = spans.segments.segments;
    for (std::size_t i = 0; i < seg.size(); ++i) {
        const TimeNs end = i + 1 < seg.size() ? seg[i + 1].first : seg[i].second;
        spans.iterations.push_back({ int(i), seg[i].first, end, kNoString });
    }
    return Result<IterationSpans>(std::move(spans), markers.warnings());
}

Result<IterationTable> computeIterations(const IterationRequest& request, const JobContext& job)
{
    const Profile& profile = *request.profile;
    IterationTable table;
    table.profile = request.profile;
    table.clockOrigin = sessionClockOrigin(profile);

    job.report(QStringLiteral("GPU busy time"), 0);
    const IntervalUnion busy = gpuBusyUnion(profile, job);
    if (job.isCancelled())
        return Result<IterationTable>::cancelled();
    job.report(QStringLiteral("Finding iterations"), 0.2);
    Result<IterationSpans> spans = findIterationSpans(profile, request.marker, busy, job);
    if (!spans)
        return spans.failureAs<IterationTable>();
    const Warnings warnings = spans.warnings();
    const bool guess = spans->source == IterationTable::Source::IdleGapGuess;
    table.source = spans->source;
    table.marker = spans->marker;
    table.detection = spans->detection;
    table.gapThreshold = spans->segments.threshold;
    table.iterations = std::move(spans->iterations);

    job.report(QStringLiteral("Measuring iterations"), 0.4);
    const KernelsByStart sorted = sortKernels(profile.kernels);
    std::optional<KernelCategories> categories;
    if (request.rules) {
        categories = categorizeKernels(profile, *request.rules);
        table.rulesLabel = request.rules->engine + QLatin1Char('/') + request.rules->model;
    }
    for (std::size_t i = 0; i < table.iterations.size(); ++i) {
        Iteration& it = table.iterations[i];
        it.gpuBusy = busy.coveredWithin(it.start, it.end);
        if (!measureKernels(profile, sorted, categories ? &*categories : nullptr, it, job))
            return Result<IterationTable>::cancelled();
        job.report(QStringLiteral("Measuring iterations"), 0.4 + 0.6 * double(i + 1) / double(table.iterations.size()));
    }
    if (guess) {
        rateGuess(table, shapeOf(spans->segments));
        table.detection += QStringLiteral("; ") + table.confidenceReason;
    }
    std::vector<TimeNs> durations;
    for (const Iteration& it : table.iterations)
        durations.push_back(it.duration());
    if (guess)
        durations.pop_back(); // no gap after the last: no complete period
    const std::vector<bool> flags = robustOutliers(durations, &table.medianDurationNs, &table.madNs);
    for (std::size_t i = 0; i < flags.size(); ++i)
        table.iterations[i].outlier = flags[i];
    return Result<IterationTable>(std::move(table), warnings);
}

Result<FocusRange> iterationRange(const IterationTable& table, int n)
{
    if (n < 0 || std::size_t(n) >= table.iterations.size())
        return Result<FocusRange>::failure(ErrorKind::Usage,
            QStringLiteral("%1: no iteration %2 (it has %3: 0 to %4)")
                .arg(table.profile ? table.profile->meta.filePath : QString())
                .arg(n)
                .arg(table.iterations.size())
                .arg(qsizetype(table.iterations.size()) - 1));
    const Iteration& it = table.iterations[std::size_t(n)];
    return FocusRange { it.start, it.end, table.label(n) };
}

Result<FocusRange> medianIterationRange(const IterationTable& table)
{
    Result<FocusRange> range = iterationRange(table, table.medianIteration());
    if (range)
        range->label = QStringLiteral("median iteration: ") + range->label;
    return range;
}

} // namespace nsw

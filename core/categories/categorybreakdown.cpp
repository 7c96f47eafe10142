// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorybreakdown.h"

#include "core/util/timeformat.h"

#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>

namespace nsw {

QString unmatchedCategory()
{
    return QStringLiteral("(unmatched)");
}

QString cpuCategory()
{
    return QStringLiteral("CPU (non-GPU)");
}

namespace {
void setCpuSegment(CategoryBar& bar, const CategoryOptions& options, TimeMode mode, std::size_t devices)
{
    bar.hasCpu = options.wallNs != kNoTime;
    if (!bar.hasCpu)
        return;
    bar.wallNs = options.wallNs;
    const QString source = options.wallSource.isEmpty() ? QStringLiteral("wall time") : options.wallSource;
    if (options.wallNs >= bar.gpuTime) {
        bar.cpuNs = options.wallNs - bar.gpuTime;
        return;
    }
    bar.cpuNs = 0;
    bar.warning = QStringLiteral("%1 %2 is shorter than the GPU time %3 (%4): no CPU (non-GPU) segment")
                      .arg(source, formatDuration(options.wallNs), formatDuration(bar.gpuTime), timeModeName(mode));
    if (bar.device < 0 && devices > 1 && mode != TimeMode::Global)
        bar.warning += QStringLiteral("; %1 mode adds up %2 GPUs, g2g compares with one wall clock")
                           .arg(timeModeName(mode))
                           .arg(devices);
}
} // namespace

CategoryBreakdown categorize(const CategoryTimeline& timeline, const RuleList& rules, const RuleEvaluation& evaluation,
    const CategoryOptions& options)
{
    CategoryBreakdown b;
    b.mode = options.mode;
    const std::size_t ruleCount = rules.rules.size();
    std::vector<std::uint32_t> categoryOfRule(ruleCount);
    for (std::size_t r = 0; r < ruleCount; ++r) {
        qsizetype c = b.categories.indexOf(rules.rules[r].category);
        if (c < 0) {
            c = b.categories.size();
            b.categories.append(rules.rules[r].category);
        }
        categoryOfRule[r] = std::uint32_t(c);
    }
    const std::uint32_t unmatched = std::uint32_t(b.categories.size());
    b.categories.append(unmatchedCategory());
    const std::size_t categoryCount = std::size_t(b.categories.size());

    const std::size_t nameCount = timeline.names().size();
    b.ruleOfName = evaluation.ruleOfName;
    b.ruleOfName.resize(nameCount, -1);
    b.categoryOfName.resize(nameCount);
    // Rules are grouped with an extra "no rule" group at the end.
    std::vector<std::uint32_t> categoryOf(nameCount);
    std::vector<std::uint32_t> ruleOf(nameCount);
    for (std::size_t n = 0; n < nameCount; ++n) {
        const int r = b.ruleOfName[n];
        categoryOf[n] = r >= 0 ? categoryOfRule[std::size_t(r)] : unmatched;
        ruleOf[n] = r >= 0 ? std::uint32_t(r) : std::uint32_t(ruleCount);
        b.categoryOfName[n] = int(categoryOf[n]);
    }

    const std::size_t deviceCount = timeline.devices().size();
    std::vector<TimeNs> time(deviceCount * categoryCount, 0);
    std::vector<std::int64_t> count(deviceCount * categoryCount, 0);
    std::vector<TimeNs> ruleTime(ruleCount + 1, 0);
    std::vector<std::int64_t> ruleInstances(ruleCount + 1, 0);
    const GroupTimes& names = timeline.nameTimes(options.mode);
    b.nameTime.assign(nameCount, 0);
    b.nameCount.assign(nameCount, 0);
    for (std::size_t d = 0; d < deviceCount; ++d)
        for (std::size_t n = 0; n < nameCount; ++n) {
            const std::size_t at = d * nameCount + n;
            b.nameTime[n] += names.time[at];
            b.nameCount[n] += names.count[at];
            count[d * categoryCount + categoryOf[n]] += names.count[at];
            ruleInstances[ruleOf[n]] += names.count[at];
            if (options.mode != TimeMode::Busy) {
                time[d * categoryCount + categoryOf[n]] += names.time[at];
                ruleTime[ruleOf[n]] += names.time[at];
            }
        }
    if (options.mode == TimeMode::Busy) {
        GroupTimes perRule;
        const GroupTimes perCategory = timeline.busyTimes(categoryOf, categoryCount, &ruleOf, ruleCount + 1, &perRule);
        time = perCategory.time;
        ruleTime = perRule.perGroup();
    }
    b.ruleTime.assign(ruleTime.begin(), ruleTime.begin() + std::ptrdiff_t(ruleCount));
    b.ruleInstances.assign(ruleInstances.begin(), ruleInstances.begin() + std::ptrdiff_t(ruleCount));

    const auto makeBar = [&](int device) {
        CategoryBar bar;
        bar.device = device;
        bar.time.assign(categoryCount, 0);
        bar.instances.assign(categoryCount, 0);
        for (std::size_t d = 0; d < deviceCount; ++d) {
            if (device >= 0 && std::size_t(device) != d)
                continue;
            for (std::size_t c = 0; c < categoryCount; ++c) {
                bar.time[c] += time[d * categoryCount + c];
                bar.instances[c] += count[d * categoryCount + c];
            }
        }
        for (const TimeNs t : bar.time)
            bar.gpuTime += t;
        setCpuSegment(bar, options, options.mode, deviceCount);
        return bar;
    };
    if (options.perDevice) {
        for (std::size_t d = 0; d < deviceCount; ++d) {
            b.bars.push_back(makeBar(int(d)));
            b.bars.back().label = timeline.deviceLabel(d);
        }
    } else {
        b.bars.push_back(makeBar(-1));
    }
    for (const CategoryBar& bar : b.bars)
        if (!bar.warning.isEmpty())
            b.warnings.append(bar.label.isEmpty() ? bar.warning : bar.label + QStringLiteral(": ") + bar.warning);
    if (timeline.graphLaunches() > 0)
        b.warnings.append(QStringLiteral("%1 CUDA graph launches were traced as whole graphs: their kernels are not "
                                         "in the export and not categorised")
                              .arg(timeline.graphLaunches()));
    return b;
}

std::shared_ptr<const std::vector<char>> kernelRowsOfCategory(
    const CategoryTimeline& timeline, const CategoryBreakdown& breakdown, int category, int device)
{
    const std::size_t rows = timeline.profile()->kernels.size();
    auto mask = std::make_shared<std::vector<char>>(rows, char(0));
    std::vector<char> nameIn(breakdown.categoryOfName.size());
    for (std::size_t n = 0; n < nameIn.size(); ++n)
        nameIn[n] = breakdown.categoryOfName[n] == category;
    for (std::size_t r = 0; r < rows; ++r)
        (*mask)[r]
            = nameIn[timeline.nameOfKernel(r)] && (device < 0 || timeline.deviceOfKernel(r) == std::size_t(device));
    return mask;
}

namespace {
std::uint32_t rgb(int r, int g, int b)
{
    return 0xFF000000u | (std::uint32_t(r) << 16) | (std::uint32_t(g) << 8) | std::uint32_t(b);
}

std::uint32_t hsl(double h, double s, double l)
{
    const double c = (1 - std::abs(2 * l - 1)) * s;
    const double hp = h / 60.0;
    const double x = c * (1 - std::abs(std::fmod(hp, 2.0) - 1));
    double r = 0, g = 0, b = 0;
    if (hp < 1)
        r = c, g = x;
    else if (hp < 2)
        r = x, g = c;
    else if (hp < 3)
        g = c, b = x;
    else if (hp < 4)
        g = x, b = c;
    else if (hp < 5)
        r = x, b = c;
    else
        r = c, b = x;
    const double m = l - c / 2;
    return rgb(int(std::lround((r + m) * 255)), int(std::lround((g + m) * 255)), int(std::lround((b + m) * 255)));
}
} // namespace

std::uint32_t categoryColor(const QString& category)
{
    // The vocabulary of the shipped rule sets (and gputrc2graph's) gets hand-picked, well separated colours;
    // any other name a colour derived from a hash of its text, so it is the same in every profile and run.
    static const QHash<QString, std::uint32_t> fixed = {
        { QStringLiteral("gemm"), rgb(31, 119, 180) },
        { QStringLiteral("moe_gemm"), rgb(23, 190, 207) },
        { QStringLiteral("block_fp8_gemm"), rgb(57, 59, 121) },
        { QStringLiteral("attn"), rgb(255, 127, 14) },
        { QStringLiteral("attn_fwd"), rgb(255, 127, 14) },
        { QStringLiteral("attn_bwd"), rgb(253, 174, 107) },
        { QStringLiteral("nccl_and_custom_ar"), rgb(44, 160, 44) },
        { QStringLiteral("nccl"), rgb(44, 160, 44) },
        { QStringLiteral("moe"), rgb(148, 103, 189) },
        { QStringLiteral("norm"), rgb(214, 39, 40) },
        { QStringLiteral("activation"), rgb(227, 119, 194) },
        { QStringLiteral("elementwise"), rgb(140, 86, 75) },
        { QStringLiteral("quantize"), rgb(188, 189, 34) },
        { QStringLiteral("rope"), rgb(255, 187, 120) },
        { QStringLiteral("softmax"), rgb(152, 223, 138) },
        { QStringLiteral("reduce"), rgb(196, 156, 148) },
        { QStringLiteral("topk"), rgb(197, 176, 213) },
        { QStringLiteral("prepare_next"), rgb(219, 219, 141) },
        { QStringLiteral("triton_kernel"), rgb(158, 218, 229) },
        { QStringLiteral("optimizer"), rgb(99, 121, 57) },
        { QStringLiteral("copy"), rgb(189, 158, 57) },
        { QStringLiteral("non-gpu-H_D_memops"), rgb(174, 199, 232) },
        { QStringLiteral("memops"), rgb(174, 199, 232) },
        { QStringLiteral("misc"), rgb(127, 127, 127) },
        { unmatchedCategory(), rgb(90, 90, 90) },
        { cpuCategory(), rgb(210, 210, 210) },
        { QStringLiteral("CPU(non-GPU)"), rgb(210, 210, 210) },
    };
    if (const auto it = fixed.constFind(category); it != fixed.constEnd())
        return it.value();
    // NCCL by collective (nccl_allreduce, nccl_allgather...) stay in the green family.
    std::uint32_t h = 2166136261u; // FNV-1a over UTF-8
    for (const char c : category.toUtf8()) {
        h ^= std::uint8_t(c);
        h *= 16777619u;
    }
    if (category.startsWith(QLatin1String("nccl")))
        return hsl(100.0 + double(h % 60), 0.45 + double((h >> 8) % 30) / 100.0, 0.35 + double((h >> 16) % 25) / 100.0);
    return hsl(double(h % 360), 0.50 + double((h >> 9) % 30) / 100.0, 0.42 + double((h >> 17) % 20) / 100.0);
}

double colorDistance(std::uint32_t a, std::uint32_t b)
{
    const auto channel = [](std::uint32_t c, int shift) { return double((c >> shift) & 0xFFu); };
    const double meanRed = (channel(a, 16) + channel(b, 16)) / 2;
    const double dr = channel(a, 16) - channel(b, 16);
    const double dg = channel(a, 8) - channel(b, 8);
    const double db = channel(a, 0) - channel(b, 0);
    return std::sqrt((2 + meanRed / 256) * dr * dr + 4 * dg * dg + (2 + (255 - meanRed) / 256) * db * db);
}

std::vector<std::uint32_t> categoryColors(const QStringList& categories)
{
    // Kelly's colours of maximum contrast (without white and black), then a few darker and lighter ones.
    static const std::uint32_t fallback[] = { rgb(243, 195, 0), rgb(135, 86, 146), rgb(243, 132, 0), rgb(161, 202, 241),
        rgb(190, 0, 50), rgb(194, 178, 128), rgb(0, 136, 86), rgb(230, 143, 172), rgb(0, 103, 165), rgb(249, 147, 121),
        rgb(96, 78, 151), rgb(246, 166, 0), rgb(179, 68, 108), rgb(220, 211, 0), rgb(136, 45, 23), rgb(141, 182, 0),
        rgb(101, 69, 34), rgb(226, 88, 34), rgb(43, 61, 38), rgb(0, 0, 128), rgb(128, 0, 0), rgb(0, 128, 128),
        rgb(255, 0, 255), rgb(0, 255, 127), rgb(64, 224, 208) };
    std::vector<std::uint32_t> given;
    const auto nearest = [&given](std::uint32_t c) {
        double d = std::numeric_limits<double>::infinity();
        for (const std::uint32_t o : given)
            d = std::min(d, colorDistance(c, o));
        return d;
    };
    QStringList byName = categories;
    byName.removeDuplicates();
    std::sort(byName.begin(), byName.end());
    QHash<QString, std::uint32_t> colorOf;
    for (const QString& category : byName) {
        std::uint32_t color = categoryColor(category);
        if (nearest(color) < kMinCategoryColorDistance) {
            // The farthest fallback when none is far enough (very many categories).
            std::uint32_t best = fallback[0];
            double bestDistance = -1;
            for (const std::uint32_t f : fallback) {
                const double d = nearest(f);
                if (d >= kMinCategoryColorDistance) {
                    best = f;
                    break;
                }
                if (d > bestDistance) {
                    bestDistance = d;
                    best = f;
                }
            }
            color = best;
        }
        given.push_back(color);
        colorOf.insert(category, color);
    }
    std::vector<std::uint32_t> out;
    out.reserve(std::size_t(categories.size()));
    for (const QString& category : categories)
        out.push_back(colorOf.value(category));
    return out;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "ccljson.h"

#include "core/util/numberformat.h"

#include <QDateTime>
#include <QTimeZone>
#include <algorithm>
#include <cstdio>

namespace nsw {

namespace {

constexpr TimeNs kCandidateMarginNs = 2000; // doubles at epoch-µs magnitude are exact to 0.25 µs

void appendEscaped(std::string& out, const std::string& utf8)
{
    out.push_back('"');
    const QString s = QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
    char buf[8];
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        switch (u) {
        case u'"':
            out += "\\\"";
            break;
        case u'\\':
            out += "\\\\";
            break;
        case u'\n':
            out += "\\n";
            break;
        case u'\r':
            out += "\\r";
            break;
        case u'\t':
            out += "\\t";
            break;
        case u'\b':
            out += "\\b";
            break;
        case u'\f':
            out += "\\f";
            break;
        default:
            if (u >= 0x20 && u < 0x7f) {
                out.push_back(char(u));
            } else {
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(u)); // UTF-16 units: surrogates stay pairs
                out += buf;
            }
        }
    }
    out.push_back('"');
}

void appendFloat(std::string& out, double v)
{
    if (std::isnan(v))
        out += "NaN";
    else if (std::isinf(v))
        out += v > 0 ? "Infinity" : "-Infinity";
    else
        out += pythonFloatRepr(v).toStdString();
}

void dump(std::string& out, const OrderedJson& v, int indent, int depth)
{
    auto newline = [&](int d) {
        out.push_back('\n');
        out.append(std::size_t(indent * d), ' ');
    };
    switch (v.type()) {
    case OrderedJson::value_t::null:
        out += "null";
        break;
    case OrderedJson::value_t::boolean:
        out += v.get<bool>() ? "true" : "false";
        break;
    case OrderedJson::value_t::number_integer:
        out += std::to_string(v.get<std::int64_t>());
        break;
    case OrderedJson::value_t::number_unsigned:
        out += std::to_string(v.get<std::uint64_t>());
        break;
    case OrderedJson::value_t::number_float:
        appendFloat(out, v.get<double>());
        break;
    case OrderedJson::value_t::string:
        appendEscaped(out, v.get_ref<const std::string&>());
        break;
    case OrderedJson::value_t::array: {
        if (v.empty()) {
            out += "[]";
            break;
        }
        out.push_back('[');
        bool first = true;
        for (const auto& item : v) {
            if (!first)
                out.push_back(',');
            first = false;
            newline(depth + 1);
            dump(out, item, indent, depth + 1);
        }
        newline(depth);
        out.push_back(']');
        break;
    }
    case OrderedJson::value_t::object: {
        if (v.empty()) {
            out += "{}";
            break;
        }
        out.push_back('{');
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (!first)
                out.push_back(',');
            first = false;
            newline(depth + 1);
            appendEscaped(out, it.key());
            out += ": ";
            dump(out, it.value(), indent, depth + 1);
        }
        newline(depth);
        out.push_back('}');
        break;
    }
    default:
        out += "null";
    }
}

std::string utf8(const QString& s)
{
    return s.toStdString();
}

} // namespace

std::string pythonJsonDumps(const OrderedJson& value, int indent)
{
    std::string out;
    dump(out, value, indent, 0);
    return out;
}

QString cclTimestampIso(qint64 wallUs)
{
    // datetime.utcfromtimestamp(us / 1e6): split the float seconds, round the fraction to µs half-even.
    const double t = double(wallUs) / 1e6;
    double whole = 0;
    double frac = std::modf(t, &whole);
    double us = std::nearbyint(frac * 1e6);
    if (us >= 1e6) {
        whole += 1;
        us -= 1e6;
    } else if (us < 0) {
        whole -= 1;
        us += 1e6;
    }
    const QDateTime dt = QDateTime::fromSecsSinceEpoch(qint64(whole), QTimeZone::utc());
    return dt.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"))
        + QStringLiteral(".%1Z").arg(int(us) / 1000, 3, 10, QLatin1Char('0'));
}

OrderedJson cclMaxThroughput(const std::vector<const ThroughputSeries*>& series)
{
    const std::vector<IntervalRef> top = topIntervals(series, 1);
    OrderedJson j;
    if (top.empty()) {
        j["max_throughput_gbps"] = 0.0;
        j["link_id"] = nullptr;
        j["direction"] = nullptr;
        j["timestamp_us"] = nullptr;
        j["interval_duration_us"] = nullptr;
        j["interval_bytes"] = nullptr;
        return j;
    }
    const ThroughputSeries& s = *series[top[0].series];
    const std::size_t i = top[0].index;
    j["max_throughput_gbps"] = s.gbps(i);
    j["link_id"] = s.link == kAllLinks ? OrderedJson(nullptr) : OrderedJson(s.link);
    j["direction"] = utf8(directionLabel(s.direction));
    j["timestamp_us"] = s.wallUs(i);
    j["interval_duration_us"] = s.wallUs(i + 1) - s.wallUs(i);
    j["interval_bytes"] = s.bytes[i];
    return j;
}

OrderedJson cclAvgThroughput(const std::vector<const ThroughputSeries*>& series)
{
    const AvgThroughput a = avgThroughput(series);
    OrderedJson j;
    j["avg_throughput_gbps"] = a.gbps;
    j["total_duration_us"] = a.totalDurationUs;
    j["num_intervals"] = a.intervals;
    j["num_active_intervals"] = a.activeIntervals;
    return j;
}

OrderedJson cclTotalCommunication(const std::vector<const ThroughputSeries*>& series, bool directionFiltered)
{
    const TotalCommunication t = totalCommunication(series);
    OrderedJson j;
    if (t.intervals == 0) {
        j["total_bytes"] = 0;
        j["total_gb"] = 0.0;
        j["rx_bytes"] = 0;
        j["tx_bytes"] = 0;
        return j;
    }
    if (directionFiltered) {
        const qint64 total = t.rxBytes + t.txBytes; // one of them is 0
        j["total_bytes"] = total;
        j["total_gb"] = double(total) / 1e9;
        return j;
    }
    const qint64 total = qint64((__int128(t.rxBytes) + __int128(t.txBytes)) / 2); // "symmetry": (rx + tx) // 2
    j["total_bytes"] = total;
    j["total_gb"] = double(total) / 1e9;
    j["rx_bytes"] = t.rxBytes;
    j["tx_bytes"] = t.txBytes;
    return j;
}

OrderedJson cclInterval(
    const ThroughputSeries& s, std::size_t i, const ClockAlignment& alignment, const CclPeakOptions& options)
{
    OrderedJson j;
    if (s.unit == ThroughputUnit::GBps) {
        const qint64 a = s.wallUs(i), b = s.wallUs(i + 1);
        j["start_us"] = a;
        j["end_us"] = b;
        j["duration_us"] = b - a;
        j["throughput_gbps"] = s.gbps(i);
        j["bytes_transferred"] = s.bytes[i];
        j["link_id"] = s.link == kAllLinks ? OrderedJson(nullptr) : OrderedJson(s.link);
        j["direction"] = utf8(directionLabel(s.direction));
        j["timestamp_iso"] = utf8(cclTimestampIso(a));
        return j;
    }
    // nsys GPU metrics share the kernels' clock: their wall time is the kernels' formula.
    const double a = alignment.kernelWallUs(s.time[i] + alignment.offsetNs);
    const double b = alignment.kernelWallUs(s.time[i + 1] + alignment.offsetNs);
    const double pct = s.percent[i];
    j["start_us"] = a;
    j["end_us"] = b;
    j["duration_us"] = b - a;
    j["throughput_gbps"]
        = std::isnan(options.gbpsPerPercent) ? OrderedJson(nullptr) : OrderedJson(pct * options.gbpsPerPercent);
    j["bytes_transferred"] = nullptr;
    j["link_id"] = nullptr;
    j["direction"] = utf8(directionLabel(s.direction));
    j["timestamp_iso"] = utf8(cclTimestampIso(qint64(std::floor(a))));
    j["throughput_pct"] = pct;
    return j;
}

OrderedJson cclKernelsInInterval(const KernelOverlapIndex& index, const ClockAlignment& alignment, double startUs,
    double endUs, bool integralBounds, bool ncclOnly)
{
    const KernelSpans& spans = index.spans();
    const TimeNs from = TimeNs(std::floor((startUs - double(alignment.anchorUs)) * 1000.0)) + alignment.offsetNs;
    const TimeNs to = TimeNs(std::ceil((endUs - double(alignment.anchorUs)) * 1000.0)) + alignment.offsetNs;
    std::vector<std::uint32_t> candidates;
    index.forEachOverlapping(
        from - kCandidateMarginNs, to + kCandidateMarginNs, [&](std::uint32_t k) { candidates.push_back(k); });
    std::sort(candidates.begin(), candidates.end()); // spans are in the tool's ORDER BY start order

    struct Hit
    {
        std::uint32_t k;
        double overlap;
        bool overlapIsInt;
        double pct;
    };
    std::vector<Hit> hits;
    const double duration = endUs - startUs;
    for (const std::uint32_t k : candidates) {
        const double ks = alignment.kernelWallUs(spans.start[k]);
        const double ke = alignment.kernelWallUs(spans.end[k]);
        if (!(ks < endUs && ke > startUs))
            continue;
        // max()/min() keep their first argument on ties, so the interval bound (an int) wins only when strictly
        // inside the kernel; int − int stays an int in the tool's output.
        const bool startFromInterval = startUs > ks, endFromInterval = endUs < ke;
        const double os = startFromInterval ? startUs : ks;
        const double oe = endFromInterval ? endUs : ke;
        Hit h;
        h.k = k;
        h.overlapIsInt = integralBounds && startFromInterval && endFromInterval;
        h.overlap = oe - os;
        h.pct = duration > 0 ? (100.0 * h.overlap) / duration : 0.0;
        if (ncclOnly && !spans.nccl[k])
            continue;
        hits.push_back(h);
    }
    std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return -a.overlap < -b.overlap; });
    OrderedJson list = OrderedJson::array();
    for (const Hit& h : hits) {
        const std::uint32_t k = h.k;
        OrderedJson kj;
        kj["name"] = utf8(spans.nameOf(k));
        kj["start_us"] = alignment.kernelWallUs(spans.start[k]);
        kj["end_us"] = alignment.kernelWallUs(spans.end[k]);
        kj["duration_us"] = double(spans.end[k] - spans.start[k]) / 1000.0;
        kj["device_id"] = spans.device;
        kj["stream_id"] = spans.stream[k];
        kj["overlap_us"] = h.overlapIsInt ? OrderedJson(qint64(h.overlap)) : OrderedJson(h.overlap);
        kj["overlap_pct"] = h.pct;
        kj["is_nccl"] = bool(spans.nccl[k]);
        list.push_back(std::move(kj));
    }
    return list;
}

OrderedJson cclPeakError(const QString& message)
{
    OrderedJson j;
    j["peak_interval"] = nullptr;
    j["kernels"] = OrderedJson::array();
    j["error"] = utf8(message);
    return j;
}

OrderedJson cclPeakKernels(const std::vector<const ThroughputSeries*>& series, const std::vector<IntervalRef>& peaks,
    const KernelOverlapIndex& kernels, const ClockAlignment& alignment, const CclPeakOptions& options)
{
    if (peaks.empty() && topIntervals(series, 1).empty())
        return cclPeakError(QStringLiteral("No NVLink intervals found after filtering"));
    OrderedJson results = OrderedJson::array();
    for (const IntervalRef& ref : peaks) {
        const ThroughputSeries& s = *series[ref.series];
        OrderedJson interval = cclInterval(s, ref.index, alignment, options);
        const bool integral = s.unit == ThroughputUnit::GBps;
        const double a = interval["start_us"].get<double>(), b = interval["end_us"].get<double>();
        OrderedJson list = cclKernelsInInterval(kernels, alignment, a, b, integral, options.ncclOnly);
        qint64 nccl = 0;
        for (const auto& k : list)
            nccl += k["is_nccl"].get<bool>() ? 1 : 0;
        OrderedJson r;
        r["interval"] = std::move(interval);
        r["num_kernels"] = qint64(list.size());
        r["num_nccl_kernels"] = nccl;
        r["kernels"] = std::move(list);
        results.push_back(std::move(r));
    }
    OrderedJson j;
    if (options.top == 1) {
        j["peak_interval"] = results.empty() ? OrderedJson(nullptr) : results[0]["interval"];
        j["kernels"] = results.empty() ? OrderedJson::array() : results[0]["kernels"];
        j["num_kernels"] = results.empty() ? 0 : results[0]["num_kernels"].get<qint64>();
        j["num_nccl_kernels"] = results.empty() ? 0 : results[0]["num_nccl_kernels"].get<qint64>();
        return j;
    }
    // Key order of each peak as the tool writes it.
    OrderedJson ordered = OrderedJson::array();
    for (auto& r : results) {
        OrderedJson o;
        o["interval"] = std::move(r["interval"]);
        o["kernels"] = std::move(r["kernels"]);
        o["num_kernels"] = r["num_kernels"];
        o["num_nccl_kernels"] = r["num_nccl_kernels"];
        ordered.push_back(std::move(o));
    }
    j["peaks"] = std::move(ordered);
    j["num_peaks"] = qint64(peaks.size());
    return j;
}

} // namespace nsw

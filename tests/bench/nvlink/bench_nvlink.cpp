// SPDX-License-Identifier: GPL-3.0-or-later
// nsw-bench-nvlink: inputs and in-process timings for the NVLink targets of issue 6.
//   generate FILE --seconds S --links L [--start-us US]   writes an NVF1 recording (1 ms polls, TX+RX per link)
//   generate-for EXPORT FILE --seconds S --links L [--follow-nccl]
//                                                         the same, from the export's first kernel (traffic while
//                                                         device 0's NCCL kernels run with --follow-nccl)
//   parse FILE [--repeat N]                               reading the file once vs parsing it, best of N
#include "core/nvlink/clockalignment.h"
#include "core/nvlink/nvf1reader.h"
#include "core/profile/metadatareader.h"
#include "core/sqlite/sqlitedb.h"
#include "core/util/procstatus.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

using namespace nsw;

namespace {

template <typename T> void put(unsigned char*& p, T v)
{
    std::memcpy(p, &v, sizeof v); // little-endian host, as the recorder
    p += sizeof v;
}

/// Bursty NCCL-like traffic: idle links move a few KiB per ms; every ~40 ms a burst of 5-20 ms drives some links
/// near their bandwidth. With @p busy (NVML µs ranges, sorted), the bursts are those ranges instead.
int generate(const QString& path, double seconds, int links, qint64 startUs,
    const std::vector<std::pair<qint64, qint64>>& busy = {})
{
    std::FILE* f = std::fopen(QFile::encodeName(path).constData(), "wb");
    if (!f) {
        std::fprintf(stderr, "%s: cannot create\n", qPrintable(path));
        return 2;
    }
    std::setvbuf(f, nullptr, _IOFBF, 8 << 20);
    unsigned char header[12];
    std::memcpy(header, "NVF1", 4);
    unsigned char* h = header + 4;
    put<std::uint16_t>(h, 1);
    put<std::uint16_t>(h, 40);
    put<std::int32_t>(h, 8);
    std::fwrite(header, 1, 12, f);
    const qint64 polls = qint64(seconds * 1000);
    std::vector<std::uint64_t> counters(std::size_t(links) * 2, 0);
    std::vector<unsigned char> poll(std::size_t(links) * 2 * 48);
    std::uint64_t rng = 0x9E3779B97F4A7C15ULL;
    auto next = [&rng]() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return rng;
    };
    qint64 burstUntil = -1, nextBurst = 20;
    for (qint64 p = 0; p < polls; ++p) {
        if (p == nextBurst) {
            burstUntil = p + 5 + qint64(next() % 16);
            nextBurst = burstUntil + 20 + qint64(next() % 40);
        }
        bool burst = p < burstUntil;
        if (!busy.empty()) {
            const qint64 t = startUs + p * 1000;
            const auto it
                = std::upper_bound(busy.begin(), busy.end(), std::make_pair(t, std::numeric_limits<qint64>::max()));
            burst = it != busy.begin() && std::prev(it)->second > t - 1000;
        }
        const std::uint64_t hostTs = std::uint64_t(p) * 1000000 + 123456789;
        const qint64 nvmlUs = startUs + p * 1000 + qint64(next() % 40);
        unsigned char* out = poll.data();
        for (int l = 0; l < links; ++l)
            for (int d = 0; d < 2; ++d) {
                std::uint64_t& c = counters[std::size_t(l * 2 + d)];
                // Up to ~24 GB/s per link (24,000 KiB per ms) in a burst, a few KiB otherwise.
                c += burst && (l % 3 != 2) ? 15000 + next() % 9000 : next() % 8;
                put<std::uint64_t>(out, hostTs);
                put<std::uint32_t>(out, d == 0 ? 138 : 139);
                put<std::uint32_t>(out, std::uint32_t(l));
                put<std::int64_t>(out, nvmlUs);
                put<std::int64_t>(out, 20);
                put<std::uint32_t>(out, 3);
                put<std::uint32_t>(out, 0);
                put<std::uint64_t>(out, c);
            }
        if (std::fwrite(poll.data(), 1, poll.size(), f) != poll.size()) {
            std::fprintf(stderr, "%s: write failed\n", qPrintable(path));
            std::fclose(f);
            return 2;
        }
    }
    if (std::fclose(f) != 0)
        return 2;
    std::printf("%s: %lld polls x %d links x 2 = %lld records, %.1f MB\n", qPrintable(path), polls, links,
        polls * links * 2, double(12 + polls * links * 2 * 48) / 1e6);
    return 0;
}

double seconds(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e9;
}

int parse(const QString& path, int repeat)
{
    double bestRead = 1e9, bestParse = 1e9;
    std::size_t bytes = 0;
    std::shared_ptr<Nvf1Recording> kept;
    std::vector<char> buffer(8 << 20);
    for (int i = 0; i < repeat; ++i) {
        QElapsedTimer t;
        t.start();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
            return 2;
        bytes = 0;
        for (qint64 n; (n = f.read(buffer.data(), qint64(buffer.size()))) > 0;)
            bytes += std::size_t(n);
        f.close();
        bestRead = std::min(bestRead, seconds(t));

        t.start();
        Nvf1ReadResult r = readNvf1File(path, 0);
        bestParse = std::min(bestParse, seconds(t));
        if (!r.recording) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error));
            return 2;
        }
        kept = std::move(r.recording); // the previous one is freed here, outside the timing
    }
    std::printf(
        "file            %s (%.1f MB, %lld records)\n", qPrintable(path), double(bytes) / 1e6, kept->stats.records);
    std::printf("read once       %.3f s (best of %d, 8 MiB reads)\n", bestRead, repeat);
    std::printf("parse           %.3f s (best of %d)\n", bestParse, repeat);
    std::printf("parse / read    %.2f (target <= 1.5)\n", bestParse / bestRead);
    std::printf("series memory   %.1f MB (%.1f bytes per record); peak RSS %.1f MB\n",
        double(kept->memoryBytes()) / 1e6,
        double(kept->memoryBytes()) / double(std::max<qint64>(1, kept->stats.records)),
        double(procStatusKiB("VmHWM")) / 1024);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList a = app.arguments().mid(1);
    auto option = [&a](const char* name, const QString& fallback) {
        const int i = a.indexOf(QLatin1String(name));
        return i >= 0 && i + 1 < a.size() ? a[i + 1] : fallback;
    };
    const double secs = option("--seconds", QStringLiteral("600")).toDouble();
    const int links = option("--links", QStringLiteral("12")).toInt();
    if (a.value(0) == QLatin1String("generate") && a.size() >= 2)
        return generate(a[1], secs, links, option("--start-us", QStringLiteral("1779782390000000")).toLongLong());
    if (a.value(0) == QLatin1String("generate-for") && a.size() >= 3) {
        QString error;
        const auto db = SqliteDb::open(a[1], &error);
        if (!db) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        Profile meta;
        if (const Status metadata = readMetadata(*db, meta); !metadata) {
            std::fprintf(stderr, "%s\n", qPrintable(metadata.errorMessage()));
            return 2;
        }
        const qint64 firstKernel
            = db->scalarText(QStringLiteral("SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL")).toLongLong();
        if (meta.meta.sessionStartUtcNs == kNoTime) {
            std::fprintf(stderr, "%s: no session start time\n", qPrintable(a[1]));
            return 2;
        }
        const qint64 anchor = floorDiv(meta.meta.sessionStartUtcNs, 1000);
        std::vector<std::pair<qint64, qint64>> busy;
        if (a.contains(QStringLiteral("--follow-nccl"))) {
            // Traffic while the NCCL kernels of device 0 run, as a real recording of that GPU would show.
            Statement st(*db,
                QStringLiteral("SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
                               "k.shortName WHERE k.deviceId = 0 AND s.value LIKE '%nccl%' ORDER BY k.start"));
            while (st.step() == Statement::Step::Row)
                busy.emplace_back(anchor + st.int64(0) / 1000, anchor + st.int64(1) / 1000);
        }
        return generate(a[2], secs, links, anchor + firstKernel / 1000, busy);
    }
    if (a.value(0) == QLatin1String("parse") && a.size() >= 2)
        return parse(a[1], option("--repeat", QStringLiteral("3")).toInt());
    std::fprintf(stderr,
        "usage: nsw-bench-nvlink generate FILE [--seconds S] [--links L] [--start-us US]\n"
        "       nsw-bench-nvlink generate-for EXPORT FILE [--seconds S] [--links L]\n"
        "       nsw-bench-nvlink parse FILE [--repeat N]\n");
    return 1;
}

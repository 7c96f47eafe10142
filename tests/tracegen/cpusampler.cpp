// SPDX-License-Identifier: GPL-3.0-or-later
#include "cpusampler.h"

#include "random.h"

#include <QStringList>
#include <algorithm>
#include <map>
#include <sqlite3.h>
#include <stdexcept>

namespace nsw::tracegen {

namespace {

constexpr const char* kPython = "/usr/bin/python3.10";
constexpr const char* kLibPython = "/usr/lib/x86_64-linux-gnu/libpython3.10.so.1.0";
constexpr const char* kLibc = "/usr/lib/x86_64-linux-gnu/libc.so.6";
constexpr const char* kTorch = "/opt/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so";
constexpr const char* kCudart = "/usr/local/cuda/lib64/libcudart.so.12";
constexpr const char* kCuda = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
constexpr const char* kTokenizers = "/opt/venv/lib/python3.10/site-packages/tokenizers/tokenizers.so";
constexpr const char* kKernel = "[kernel.kallsyms]";
constexpr const char* kHostWork = "/opt/app/lib/libhostwork.so";

/// The merged intervals in which some GPU work of @p globalPid runs, sorted.
std::vector<std::pair<qint64, qint64>> busyIntervals(ExportWriter& w, qint64 globalPid)
{
    QStringList parts;
    for (const char* name :
        { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET" }) {
        const QString table = QString::fromLatin1(name);
        if (w.hasTable(table) && w.hasColumn(table, QStringLiteral("globalPid")))
            parts << QStringLiteral("SELECT start, end FROM %1 WHERE globalPid = %2").arg(table).arg(globalPid);
    }
    std::vector<std::pair<qint64, qint64>> out;
    if (parts.isEmpty())
        return out;
    w.flush();
    const QByteArray sql = (parts.join(QStringLiteral(" UNION ALL ")) + QStringLiteral(" ORDER BY 1")).toUtf8();
    sqlite3_stmt* st = nullptr;
    // A table created lazily and never written does not exist yet: no work of that kind.
    if (sqlite3_prepare_v2(w.handle(), sql.constData(), -1, &st, nullptr) != SQLITE_OK) {
        sqlite3_finalize(st);
        return out;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        const qint64 s = sqlite3_column_int64(st, 0), e = sqlite3_column_int64(st, 1);
        if (!out.empty() && s <= out.back().second)
            out.back().second = std::max(out.back().second, e);
        else
            out.emplace_back(s, e);
    }
    sqlite3_finalize(st);
    return out;
}

bool covered(const std::vector<std::pair<qint64, qint64>>& busy, qint64 t)
{
    const auto it = std::upper_bound(busy.begin(), busy.end(), std::pair(t, std::numeric_limits<qint64>::max()));
    return it != busy.begin() && std::prev(it)->second > t;
}

struct Sample
{
    qint64 time;
    qint64 globalTid;
    int stack;
    int cpu;
};

/// A stack index: launchers pick 0-1 (busy) or 2-4 (idle), workers 5-6.
int pickStack(Rng& rng, bool launcher, bool gpuBusy)
{
    const std::uint64_t r = rng.below(100);
    if (!launcher)
        return r < 70 ? 5 : 6;
    if (gpuBusy)
        return r < 70 ? 0 : 1;
    return r < 60 ? 2 : r < 85 ? 3 : 4;
}

} // namespace

const std::vector<SampleStack>& sampleStackCatalogue()
{
    using F = SampleStack::Frame;
    const F start { "_start", kPython }, main { "main", kPython }, eval { "_PyEval_EvalFrameDefault", kLibPython };
    static const std::vector<SampleStack> stacks = {
        { { start, main, eval, { "forward", kPython }, { "at::native::addmm_out_cuda", kTorch },
            { "cudaLaunchKernel", kCudart }, { "cuLaunchKernel", kCuda }, { "ioctl", kLibc },
            { "do_syscall_64", kKernel, true } } },
        { { start, main, eval, eval, { "forward", kPython }, { "cudaStreamSynchronize", kCudart },
            { "cuStreamSynchronize", kCuda }, { "0x7f3a2c001234", kCuda, false, true } } },
        { { start, main, eval, { "tokenizer.encode", kTokenizers }, { "regex_match", kTokenizers } } },
        { { start, main, eval, eval, { "DataLoader.__next__", kPython }, { "collate", kPython },
            { "__memmove_avx_unaligned_erms", kLibc } } },
        { { start, main, eval, { "tokenizer.encode", kTokenizers }, { "tokenizer.encode", kTokenizers },
            { "unicode_normalize", kTokenizers } } },
        { { { "clone3", kLibc }, { "start_thread", kLibc }, { "worker_loop", kPython }, { "pthread_cond_wait", kLibc },
              { "futex_wait", kKernel, true } },
            8 },
        { { { "clone3", kLibc }, { "start_thread", kLibc }, { "worker_loop", kPython }, { "detokenize", kTokenizers },
            { "utf8_decode", kTokenizers } } },
    };
    return stacks;
}

qint64 writeCpuSamples(ExportWriter& w, const std::vector<SampledThread>& threads, qint64 endNs, qint64 samples,
    quint64 seed, const SampleStress& stress)
{
    if (samples <= 0 || threads.empty() || endNs <= 0 || !w.hasTable(QStringLiteral("COMPOSITE_EVENTS"))
        || !w.hasTable(QStringLiteral("SAMPLING_CALLCHAINS")))
        return 0;
    Rng rng(seed ^ 0x53414D50ULL);
    std::map<qint64, std::vector<std::pair<qint64, qint64>>> busyByPid;
    std::vector<Sample> all;
    all.reserve(std::size_t(samples));
    for (std::size_t t = 0; t < threads.size(); ++t) {
        const SampledThread& thread = threads[t];
        const qint64 pid = globalPid(pidOfGlobalId(thread.globalTid));
        if (thread.launcher && !busyByPid.count(pid))
            busyByPid[pid] = busyIntervals(w, pid);
        const qint64 count = samples / qint64(threads.size()) + (qint64(t) < samples % qint64(threads.size()) ? 1 : 0);
        const double period = double(endNs) / double(std::max<qint64>(count, 1));
        for (qint64 k = 0; k < count; ++k) {
            const qint64 time = qint64(period * (double(k) + 0.5)) + rng.range(-qint64(period / 4), qint64(period / 4));
            const bool busy = thread.launcher && covered(busyByPid[pid], time);
            all.push_back({ std::clamp<qint64>(time, 0, endNs - 1), thread.globalTid,
                pickStack(rng, thread.launcher, busy), int(t % 64) });
        }
    }
    std::stable_sort(all.begin(), all.end(), [](const Sample& a, const Sample& b) { return a.time < b.time; });

    w.createTable(QStringLiteral("COMPOSITE_EVENTS"));
    w.createTable(QStringLiteral("SAMPLING_CALLCHAINS"));
    Inserter& event = w.prepare(QStringLiteral("COMPOSITE_EVENTS"),
        { QStringLiteral("id"), QStringLiteral("start"), QStringLiteral("cpu"), QStringLiteral("threadState"),
            QStringLiteral("globalTid"), QStringLiteral("cpuCycles") },
        ExportWriter::MissingColumns::Fail, 256);
    Inserter& frame = w.prepare(QStringLiteral("SAMPLING_CALLCHAINS"),
        { QStringLiteral("id"), QStringLiteral("symbol"), QStringLiteral("module"), QStringLiteral("kernelMode"),
            QStringLiteral("unresolved"), QStringLiteral("stackDepth") },
        ExportWriter::MissingColumns::Fail, 256);
    // StringIds ids and flags of each stack's frames, innermost first as SAMPLING_CALLCHAINS numbers them.
    struct FrameIds
    {
        qint64 symbol, module;
        bool kernel = false, unresolved = false;
    };
    std::vector<std::vector<FrameIds>> ids;
    for (const SampleStack& s : sampleStackCatalogue()) {
        auto& frames = ids.emplace_back();
        for (auto f = s.frames.rbegin(); f != s.frames.rend(); ++f)
            frames.push_back({ w.string(QString::fromUtf8(f->symbol)), w.string(QString::fromUtf8(f->module)),
                f->kernel, f->unresolved });
    }
    const qint64 hostWork = w.string(QString::fromUtf8(kHostWork));
    const FrameIds recurse { w.string(QStringLiteral("recurse")), hostWork };
    std::vector<FrameIds> frames;
    event.set(5, 1);
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Sample& s = all[i];
        const SampleStack& stack = sampleStackCatalogue()[std::size_t(s.stack)];
        const qint64 id = qint64(i) + 1;
        event.set(0, id);
        event.set(1, s.time);
        event.set(2, s.cpu);
        event.set(3, stack.state);
        event.set(4, s.globalTid);
        event.insert();
        frames.clear();
        if (stress.distinctLeaves > 0)
            frames.push_back(
                { w.string(QStringLiteral("host_fn_%1").arg((id - 1) % stress.distinctLeaves)), hostWork });
        const auto& catalogued = ids[std::size_t(s.stack)];
        frames.insert(frames.end(), catalogued.begin(), catalogued.end() - 1);
        if (stress.recursionDepth > 0 && id % 10000 == 1)
            frames.insert(frames.end(), std::size_t(stress.recursionDepth), recurse);
        frames.push_back(catalogued.back());
        for (std::size_t d = 0; d < frames.size(); ++d) {
            frame.set(0, id);
            frame.set(1, frames[d].symbol);
            frame.set(2, frames[d].module);
            frame.set(3, frames[d].kernel ? 1 : 0);
            frame.set(4, frames[d].unresolved ? 1 : 0);
            frame.set(5, qint64(d));
            frame.insert();
        }
    }
    return qint64(all.size());
}

} // namespace nsw::tracegen

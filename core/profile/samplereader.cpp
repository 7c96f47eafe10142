// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/samplereader.h"

#include "core/profile/scanloop.h"
#include "core/profile/stringresolver.h"
#include "core/profile/timelimits.h"
#include "core/util/hugepages.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace nsw {

namespace {

constexpr std::int32_t kUnreadableDepth = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kNoSampleId = std::numeric_limits<std::int64_t>::min();

/// An optional small integer column: NULL (or a missing column) reads as @p none; a value out of [lo, hi] or not an
/// integer is counted as a bad id and reads as @p none too.
template <typename T> T readSmall(const Row& r, int column, ScanContext& ctx, T none, qint64 lo, qint64 hi)
{
    const Statement::IntCell cell = r.cell(column);
    if (cell.type == SqlType::Null)
        return none;
    if (cell.type != SqlType::Integer || cell.value < lo || cell.value > hi) {
        ++ctx.badIds;
        return none;
    }
    return T(cell.value);
}

bool isTrue(const Row& r, int column)
{
    const Statement::IntCell cell = r.cell(column);
    return cell.type == SqlType::Integer && cell.value != 0;
}

} // namespace

bool readSamples(const SqliteDb& db, ScanContext& ctx, SampleScan& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, db.path(), { "id", "start" }))
        return false;
    const int id = s.add(QStringLiteral("id"));
    const int start = s.add(QStringLiteral("start"));
    const int thread = s.add(QStringLiteral("globalTid"));
    const int cpu = s.add(QStringLiteral("cpu"));
    const int state = s.add(QStringLiteral("threadState"));
    reserveAllHugePages(expectedRows(ctx), out.id, out.time, out.thread, out.cpu, out.state);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](const Row& r) {
        const Statement::IntCell time = r.cell(start);
        if (time.type != SqlType::Integer || !plausibleTime(time.value)) {
            ++ctx.badTimeRows;
            return;
        }
        const Statement::IntCell key = r.cell(id);
        out.id.push_back(key.type == SqlType::Integer ? key.value : kNoSampleId);
        out.time.push_back(time.value);
        out.thread.push_back(r.isNull(thread) ? -1 : ctx.threads.index(r.int64(thread)));
        out.cpu.push_back(readSmall<std::int16_t>(r, cpu, ctx, -1, 0, std::numeric_limits<std::int16_t>::max()));
        out.state.push_back(readSmall<std::uint8_t>(r, state, ctx, CpuSamples::kUnknownState, 0, 255));
    });
}

bool readCallchains(const SqliteDb& db, ScanContext& ctx, CallchainScan& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, db.path(), { "id", "stackDepth", "symbol" }))
        return false;
    const int id = s.add(QStringLiteral("id"));
    const int depth = s.add(QStringLiteral("stackDepth"));
    const int symbol = s.add(QStringLiteral("symbol"));
    const int module = s.add(QStringLiteral("module"));
    const int kernelMode = s.add(QStringLiteral("kernelMode"));
    const int unresolved = s.add(QStringLiteral("unresolved"));
    reserveAllHugePages(expectedRows(ctx), out.function, out.depth);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](const Row& r) {
        const Statement::IntCell key = r.cell(id);
        if (key.type != SqlType::Integer) {
            ++out.framesWithoutId;
            return;
        }
        if (out.runs.empty() || out.runs.back().id != key.value)
            out.runs.push_back({ key.value, std::uint32_t(out.function.size()) });
        const std::int32_t sym = readStringId(ctx, r, symbol);
        const std::int32_t mod = readStringId(ctx, r, module);
        const std::int32_t local = out.functionKeys.index(CallchainScan::functionKey(sym, mod));
        if (std::size_t(local) == out.functionFlags.size())
            out.functionFlags.push_back(0);
        std::uint8_t& flags = out.functionFlags[std::size_t(local)];
        flags |= (isTrue(r, kernelMode) ? CpuFunctionTable::kKernelMode : 0)
            | (isTrue(r, unresolved) ? CpuFunctionTable::kUnresolved : 0);
        out.function.push_back(local);
        out.depth.push_back(readSmall<std::int32_t>(r, depth, ctx, kUnreadableDepth, 0, kUnreadableDepth - 1));
    });
}

void needCallchainStrings(StringResolver& strings, const std::vector<CallchainScan*>& chains)
{
    for (const CallchainScan* c : chains)
        for (const std::int64_t key : c->functionKeys.keys()) {
            strings.need(CallchainScan::symbolOf(key));
            strings.need(CallchainScan::moduleOf(key));
        }
}

namespace {

/// Where the frames of one run are: a chunk and a range of its frames.
struct RunPlace
{
    std::int64_t id;
    std::uint32_t chunk;
    std::uint32_t begin;
    std::uint32_t end;
};

class SampleAssembly
{
public:
    SampleAssembly(CpuSamples& out, const std::vector<SampleScan*>& samples, const std::vector<CallchainScan*>& chains,
        const StringResolver& strings, const CancelToken& cancel)
        : m_out(out)
        , m_samples(samples)
        , m_chains(chains)
        , m_strings(strings)
        , m_cancel(cancel)
    { }

    QStringList run()
    {
        mergeFunctions();
        std::vector<std::int64_t> ids = stitchSamples();
        std::vector<RunPlace> runs = runsById();
        attachFrames(ids, runs);
        return warnings();
    }

private:
    /// Chunk-local functions -> rows of the profile's function table, one row per (symbol, module) text.
    void mergeFunctions()
    {
        CpuFunctionTable& f = m_out.functions;
        FlatIndex<std::int64_t, IntegerHash> global;
        for (const CallchainScan* c : m_chains) {
            std::vector<std::int32_t>& remap = m_functionRemap.emplace_back();
            const std::vector<std::int64_t>& keys = c->functionKeys.keys();
            for (std::size_t i = 0; i < keys.size(); ++i) {
                const StringRef symbol = m_strings.ref(CallchainScan::symbolOf(keys[i]));
                const StringRef module = m_strings.ref(CallchainScan::moduleOf(keys[i]));
                const std::int32_t row = global.index(CallchainScan::functionKey(symbol, module));
                if (std::size_t(row) == f.size()) {
                    f.symbol.push_back(symbol);
                    f.module.push_back(module);
                    f.flags.push_back(symbol == kNoString ? CpuFunctionTable::kNoSymbol : 0);
                }
                f.flags[std::size_t(row)] |= c->functionFlags[i];
                remap.push_back(row);
            }
        }
    }

    /// Moves the chunks' columns into the profile in table order; returns the samples' ids.
    std::vector<std::int64_t> stitchSamples()
    {
        std::size_t total = 0;
        for (const SampleScan* s : m_samples)
            total += s->id.size();
        std::vector<std::int64_t> ids;
        reserveAllHugePages(total, ids, m_out.time, m_out.thread, m_out.cpu, m_out.state);
        for (SampleScan* s : m_samples) {
            ids.insert(ids.end(), s->id.begin(), s->id.end());
            if (m_out.time.empty())
                m_out.time = std::move(s->time);
            else
                m_out.time.append(s->time);
            m_out.thread.append(s->thread);
            m_out.cpu.append(s->cpu.begin(), s->cpu.end());
            m_out.state.append(s->state.begin(), s->state.end());
            *s = SampleScan {};
        }
        return ids;
    }

    /// Every run of frames of every chunk, ordered by sample id (stable: row order within an id).
    std::vector<RunPlace> runsById()
    {
        std::vector<RunPlace> runs;
        for (std::size_t c = 0; c < m_chains.size(); ++c) {
            const CallchainScan& chain = *m_chains[c];
            m_framesWithoutId += chain.framesWithoutId;
            for (std::size_t r = 0; r < chain.runs.size(); ++r) {
                const std::uint32_t end
                    = r + 1 < chain.runs.size() ? chain.runs[r + 1].begin : std::uint32_t(chain.function.size());
                runs.push_back({ chain.runs[r].id, std::uint32_t(c), chain.runs[r].begin, end });
            }
        }
        const auto byId = [](const RunPlace& a, const RunPlace& b) { return a.id < b.id; };
        if (!std::is_sorted(runs.begin(), runs.end(), byId))
            std::stable_sort(runs.begin(), runs.end(), byId);
        return runs;
    }

    /// Gives each sample the runs with its id, then writes the frames in sample order.
    void attachFrames(const std::vector<std::int64_t>& ids, const std::vector<RunPlace>& runs)
    {
        std::vector<std::uint32_t> byId(ids.size());
        std::iota(byId.begin(), byId.end(), 0u);
        if (!std::is_sorted(ids.begin(), ids.end()))
            std::stable_sort(
                byId.begin(), byId.end(), [&](std::uint32_t a, std::uint32_t b) { return ids[a] < ids[b]; });
        // firstRun[sample]..firstRun[sample] + runCount[sample] in runs.
        std::vector<std::uint32_t> firstRun(ids.size(), 0), runCount(ids.size(), 0);
        std::size_t r = 0;
        std::uint64_t frames = 0;
        for (std::size_t k = 0; k < byId.size(); ++k) {
            const std::int64_t id = ids[byId[k]];
            for (; r < runs.size() && runs[r].id < id; ++r)
                m_orphanFrames += runs[r].end - runs[r].begin;
            std::size_t last = r;
            while (last < runs.size() && runs[last].id == id) {
                frames += runs[last].end - runs[last].begin;
                ++last;
            }
            firstRun[byId[k]] = std::uint32_t(r);
            runCount[byId[k]] = std::uint32_t(last - r);
            // Samples with the same id (a table without its primary key) each get the frames, as an SQL join would.
            if (k + 1 == byId.size() || ids[byId[k + 1]] != id)
                r = last;
        }
        for (; r < runs.size(); ++r)
            m_orphanFrames += runs[r].end - runs[r].begin;
        writeFrames(firstRun, runCount, runs, frames);
    }

    void writeFrames(const std::vector<std::uint32_t>& firstRun, const std::vector<std::uint32_t>& runCount,
        const std::vector<RunPlace>& runs, std::uint64_t frames)
    {
        const std::size_t n = firstRun.size();
        const auto limit = std::uint64_t(std::numeric_limits<std::uint32_t>::max());
        std::vector<std::uint32_t> begin;
        reserveHugePages(begin, n + 1);
        m_out.frames.reserve(std::size_t(std::min(frames, limit)));
        std::vector<std::pair<std::int32_t, std::int32_t>> scratch; // (depth, function) of an irregular stack
        CancelPoll<4096> poll(m_cancel);
        for (std::size_t i = 0; i < n; ++i) {
            begin.push_back(std::uint32_t(m_out.frames.size()));
            if (poll())
                break;
            if (runCount[i] == 1 && copyRegularRun(runs[firstRun[i]], limit))
                continue;
            scratch.clear();
            for (std::uint32_t k = 0; k < runCount[i]; ++k) {
                const RunPlace& run = runs[firstRun[i] + k];
                const CallchainScan& chain = *m_chains[run.chunk];
                const std::vector<std::int32_t>& remap = m_functionRemap[run.chunk];
                for (std::uint32_t f = run.begin; f < run.end; ++f)
                    scratch.emplace_back(chain.depth[f], remap[std::size_t(chain.function[f])]);
            }
            if (m_out.frames.size() + scratch.size() > limit) {
                m_tooManyFrames += scratch.size();
                continue;
            }
            keepInDepthOrder(scratch);
            for (const auto& frame : scratch)
                m_out.frames.push_back(frame.second);
        }
        begin.push_back(std::uint32_t(m_out.frames.size()));
        begin.resize(n + 1, begin.back());
        m_out.stackBegin = Column<std::uint32_t>(std::move(begin));
    }

    /// The usual case: the sample's frames are one run written depth 0, 1, 2..., copied as they are. False (nothing
    /// written) otherwise.
    bool copyRegularRun(const RunPlace& run, std::uint64_t limit)
    {
        const CallchainScan& chain = *m_chains[run.chunk];
        for (std::uint32_t f = run.begin; f < run.end; ++f)
            if (chain.depth[f] != std::int32_t(f - run.begin))
                return false;
        if (m_out.frames.size() + (run.end - run.begin) > limit)
            return false;
        const std::vector<std::int32_t>& remap = m_functionRemap[run.chunk];
        for (std::uint32_t f = run.begin; f < run.end; ++f)
            m_out.frames.push_back(remap[std::size_t(chain.function[f])]);
        return true;
    }

    /// Frames are normally written depth 0, 1, 2...; any other order is sorted, and a stack whose depths are not
    /// exactly 0..n-1 is counted.
    void keepInDepthOrder(std::vector<std::pair<std::int32_t, std::int32_t>>& frames)
    {
        const auto regular = [&] {
            for (std::size_t d = 0; d < frames.size(); ++d)
                if (frames[d].first != std::int32_t(d))
                    return false;
            return true;
        };
        if (regular())
            return;
        std::stable_sort(frames.begin(), frames.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        if (!regular())
            ++m_irregularStacks;
    }

    QStringList warnings() const
    {
        QStringList out;
        const QString chains = QStringLiteral("SAMPLING_CALLCHAINS");
        if (m_irregularStacks > 0)
            out << QStringLiteral("%1: %2 call stacks have gaps or repeats in stackDepth; their frames are kept in "
                                  "depth order and the lowest is counted as the sample's own function")
                       .arg(chains)
                       .arg(m_irregularStacks);
        if (m_orphanFrames + m_framesWithoutId > 0)
            out << QStringLiteral("%1: %2 frames belong to no sample of COMPOSITE_EVENTS (id missing or unknown); "
                                  "not counted")
                       .arg(chains)
                       .arg(m_orphanFrames + m_framesWithoutId);
        qint64 noSymbol = 0;
        for (std::size_t f = 0; f < m_out.functions.size(); ++f)
            noSymbol += (m_out.functions.flags[f] & CpuFunctionTable::kNoSymbol) ? 1 : 0;
        if (noSymbol > 0)
            out << QStringLiteral("%1: %2 functions have no symbol (NULL or not in StringIds); shown as [unknown] "
                                  "with their module")
                       .arg(chains)
                       .arg(noSymbol);
        if (m_tooManyFrames > 0)
            out << QStringLiteral("%1: more than 2^32 frames; the stacks of the last samples (%2 frames) are left "
                                  "empty")
                       .arg(chains)
                       .arg(m_tooManyFrames);
        return out;
    }

    CpuSamples& m_out;
    const std::vector<SampleScan*>& m_samples;
    const std::vector<CallchainScan*>& m_chains;
    const StringResolver& m_strings;
    const CancelToken& m_cancel;
    std::vector<std::vector<std::int32_t>> m_functionRemap; ///< per chunk: local function -> function row
    qint64 m_irregularStacks = 0;
    qint64 m_orphanFrames = 0;
    qint64 m_framesWithoutId = 0;
    qint64 m_tooManyFrames = 0;
};

} // namespace

QStringList assembleCpuSamples(CpuSamples& out, const std::vector<SampleScan*>& samples,
    const std::vector<CallchainScan*>& chains, const StringResolver& strings, const CancelToken& cancel)
{
    if (samples.empty() && chains.empty())
        return {};
    return SampleAssembly(out, samples, chains, strings, cancel).run();
}

} // namespace nsw

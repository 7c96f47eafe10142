// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "activitytimeline.h"
#include "exportwriter.h"
#include "generator.h"
#include "kernelcatalog.h"
#include "random.h"

#include <array>
#include <deque>
#include <initializer_list>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nsw::tracegen {

class GpuMetricsWriter;
class NvlinkPoller;

enum class Thread : std::uint8_t
{
    Main,
    Worker,
    Autograd
};
enum Stream : int
{
    Compute,
    Comm,
    Copy,
    StreamCount
};
inline constexpr std::array<int, StreamCount> kStreamIds = { 7, 13, 14 };

enum class Api : std::uint8_t
{
    LaunchKernel,
    CuLaunchKernelEx,
    CuLaunchKernel,
    MemcpyAsync,
    MemsetAsync,
    StreamSynchronize,
    EventRecord,
    StreamWaitEvent,
    GraphLaunch,
    GetDeviceCount,
    GetDeviceProperties,
    SetDevice,
    ModuleGetLoadingMode,
    StreamCreateWithPriority,
    Malloc,
    HostAlloc,
    EventCreateWithFlags,
    DeviceSynchronize,
    Count
};

/// NVTX range name: a literal, "literal, op_id = N" (PyTorch emit_nvtx), literal + N, or a registered string
/// (written through textId).
struct RangeName
{
    enum Kind : std::uint8_t
    {
        Literal,
        OpId,
        Indexed,
        Registered
    };
    Kind kind = Literal;
    const char* text = nullptr;
    qint64 number = 0;
};

struct OpenRange
{
    qint64 start = 0;
    RangeName name;
    qint64 color = -1;
    int domain = 0;
    bool skipped = false;
};

struct OpenRequest
{
    const char* text = nullptr;
    qint64 rangeId = 0;
    qint64 start = 0;
    qint64 number = 0;
};

/// One GPU's process: its threads' clock, its streams, its id counters and its open NVTX ranges.
struct RankState
{
    explicit RankState(std::uint64_t seed)
        : rng(seed)
    { }
    int rank = 0;
    qint64 pid = 0;
    qint64 gpid = 0;
    std::array<qint64, 3> tids {}; // global tids of the main, worker and autograd threads
    Thread thread = Thread::Main;
    qint64 cpu = 0; // time of the launching thread (main blocks while autograd runs backward)
    std::array<qint64, StreamCount> streamEnd {};
    qint64 corr = 0, opId = 0, gridId = 0, eventId = 0, syncId = 0, rangeId = 0;
    qint64 kernelsLeft = 0;
    bool active = true;
    Rng rng;
    std::array<std::vector<OpenRange>, 3> stacks;
    std::deque<OpenRequest> requests;
    std::optional<OpenRequest> localRange;
    std::unique_ptr<ActivityTimeline> metrics;
    qint64 arrival = 0; // scratch: NCCL kernel arrival time
};

using Ops = std::initializer_list<const char*>;
using GraphBody = std::vector<std::pair<K, qint64>>;

/// Emits the rows of all GPU processes in lock step: every call applies to each rank in turn, so collectives can
/// end together. Once a rank's kernel budget is used up it launches no more kernels and stops after the current step.
class Simulator
{
public:
    Simulator(ExportWriter& w, const GeneratorConfig& cfg, GeneratorStats& stats, std::vector<RankState>& ranks);
    ~Simulator();

    void setMetrics(GpuMetricsWriter* metrics) { m_metrics = metrics; }
    void setNvlink(NvlinkPoller* poller, int rank, Rng* pollJitter);

    bool anyActive() const;
    int jitter() const { return m_cfg.jitterPct; }

    void cpuGap(qint64 ns); // per-rank jittered CPU time
    void idle(qint64 ns); // the same gap on every rank
    void barrier(); // every rank waits for the last one (collective set-up)
    void switchThread(Thread t); // main <-> autograd (main blocks in backward())
    void push(RangeName name, qint64 color = -1, int domain = 0);
    void pop();
    void kernel(K k, qint64 durNs, Ops ops);
    void nccl(K k, qint64 durNs, const char* op, bool computeWaits);
    void memcpy(int copyKind, qint64 bytes, Stream s, const char* op);
    void memset(qint64 bytes, Stream s);
    void streamSync(Stream s);
    void waitStream(Stream waiter, Stream producer);
    void graphLaunch(const GraphBody& body, qint64 graphExecId);
    void api(Api a, qint64 durNs); // an API call with no GPU work
    void mark(const char* text);
    void startRequest(const char* text, qint64 number); // start/end range begun on the worker thread ...
    void finishRequest(); // ... and ended on the main thread
    void startLocalRange(const char* text, qint64 number); // start/end range on the launching thread
    void endLocalRange();
    void workerRanges(const char* outer, const char* inner, qint64 durNs);
    void domainCreate(int domain, const char* name, qint64 at);
    void endStep();
    /// Closes everything, returns the session end.
    qint64 finish();

private:
    struct ApiCall
    {
        qint64 start, end, corr;
    };
    ApiCall apiCall(RankState& r, Api a, qint64 durNs);
    qint64 launchApi(RankState& r, K k, Stream s); // returns the correlation id, sets r.arrival
    void finishRequestOn(RankState& r);
    void writeKernelRow(RankState& r, K k, Stream s, qint64 start, qint64 end, qint64 corr);
    void pushOn(RankState& r, RangeName name, qint64 color, int domain);
    void popOn(RankState& r);
    void nvtxRow(qint64 start, qint64 end, int type, qint64 tid, RangeName name, qint64 color, int domain,
        qint64 rangeId = -1, qint64 endTid = -1);
    void eventRecord(RankState& r, Stream s);
    void streamWait(RankState& r, Stream waiter, qint64 until);
    void feed(RankState& r, K k, qint64 start, qint64 end);
    void flush(RankState& r, qint64 until);
    qint64 registered(const char* text);

    ExportWriter& m_w;
    const GeneratorConfig& m_cfg;
    GeneratorStats& m_stats;
    std::vector<RankState>& m_ranks;
    GpuMetricsWriter* m_metrics = nullptr;
    NvlinkPoller* m_nvlink = nullptr;
    int m_nvlinkRank = -1;
    Rng* m_pollJitter = nullptr;
    std::unique_ptr<ActivityTimeline> m_nvlinkTimeline;

    Inserter* m_runtime = nullptr;
    Inserter* m_kernel = nullptr;
    Inserter* m_nvtx = nullptr;
    Inserter* m_memcpy = nullptr;
    Inserter* m_memset = nullptr;
    Inserter* m_sync = nullptr;
    Inserter* m_event = nullptr;
    Inserter* m_graph = nullptr;

    std::array<std::array<qint64, 3>, std::size_t(K::Count)> m_kernelNames {}; // demangled, short, mangled ids
    std::array<qint64, std::size_t(Api::Count)> m_apiNames {};
    std::unordered_map<const char*, qint64> m_registered;
};

} // namespace nsw::tracegen

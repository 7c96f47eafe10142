// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/syncanalysis.h"

#include <algorithm>
#include <map>

namespace nsw {

SyncResult computeSync(const AnalysisContext& c, const JobContext& job)
{
    SyncResult result;
    const Profile& p = *c.profile;
    struct ThreadAcc
    {
        SyncThreadRow row;
        TimeNs first = kNoTime;
        TimeNs last = kNoTime;
    };
    std::map<ThreadIndex, ThreadAcc> threads;
    std::map<std::pair<int, StringRef>, SyncApiRow> apis;
    CancelPoll<> poll(job.cancelToken());
    c.forEachApiCall([&](std::size_t i) {
        if (poll())
            return;
        const TimeNs s = p.cudaApi.start[i], e = p.cudaApi.end[i];
        const ThreadIndex thread = p.cudaApi.thread[i];
        ThreadAcc& t = threads[thread];
        t.first = t.first == kNoTime ? s : std::min(t.first, s);
        t.last = t.last == kNoTime ? e : std::max(t.last, e);
        t.row.apiNs += e - s;
        result.apiNs += e - s;
        if (!(c.apiKind[i] & (ApiSync | ApiWait)))
            return;
        t.row.calls.add(e - s);
        result.calls.add(e - s);
        const ProcessIndex process = p.processOfThread(thread);
        const int pid = process >= 0 ? p.processes[std::size_t(process)].pid : 0;
        apis[{ pid, p.cudaApi.name[i] }].calls.add(e - s);
    });
    for (auto& [thread, t] : threads) {
        if (t.row.calls.count == 0)
            continue;
        const ProcessIndex process = p.processOfThread(thread);
        t.row.pid = process >= 0 ? p.processes[std::size_t(process)].pid : 0;
        t.row.tid = thread >= 0 ? p.threads[std::size_t(thread)].tid : 0;
        t.row.thread = p.threadLabel(thread);
        t.row.threadSpanNs = t.last - t.first;
        result.threads.push_back(t.row);
    }
    for (auto& [key, a] : apis) {
        a.pid = key.first;
        a.name = p.strings.at(key.second);
        result.apis.push_back(a);
    }
    std::stable_sort(result.threads.begin(), result.threads.end(),
        [](const SyncThreadRow& a, const SyncThreadRow& b) { return a.calls.total > b.calls.total; });
    std::stable_sort(result.apis.begin(), result.apis.end(),
        [](const SyncApiRow& a, const SyncApiRow& b) { return a.calls.total > b.calls.total; });
    return result;
}

} // namespace nsw

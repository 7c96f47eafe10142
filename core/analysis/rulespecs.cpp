// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/rulespecs.h"

namespace nsw {

namespace {

RuleColumn integer(const char* header)
{
    return { QString::fromLatin1(header), ColumnKind::Integer };
}
RuleColumn text(const char* header)
{
    return { QString::fromLatin1(header), ColumnKind::Text };
}

std::vector<RuleColumn> memcpyColumns()
{
    return { integer("Duration (ns)"), integer("Start (ns)"), text("Src Kind"), text("Dst Kind"),
        { QStringLiteral("Bytes (MB)"), ColumnKind::Megabytes }, integer("PID"), integer("Device ID"),
        integer("Context ID"), integer("Stream ID"), text("API Name") };
}

std::vector<RuleSpec> makeSpecs()
{
    return {
        { RuleId::CudaMemcpyAsync, QStringLiteral("cuda_memcpy_async"), QStringLiteral("cuda-async-memcpy"),
            QStringLiteral("CUDA Async Memcpy with Pageable Memory"), memcpyColumns(), {} },
        { RuleId::CudaMemcpySync, QStringLiteral("cuda_memcpy_sync"), QStringLiteral("cuda-sync-memcpy"),
            QStringLiteral("CUDA Synchronous Memcpy"), memcpyColumns(), {} },
        { RuleId::CudaMemsetSync, QStringLiteral("cuda_memset_sync"), QStringLiteral("cuda-sync-memset"),
            QStringLiteral("CUDA Synchronous Memset"),
            { integer("Duration (ns)"), integer("Start (ns)"), text("Memory Kind"),
                { QStringLiteral("Bytes (MB)"), ColumnKind::Megabytes }, integer("PID"), integer("Device ID"),
                integer("Context ID"), integer("Stream ID"), text("API Name") },
            {} },
        { RuleId::CudaApiSync, QStringLiteral("cuda_api_sync"), QStringLiteral("cuda-sync-api"),
            QStringLiteral("CUDA Synchronization APIs"),
            { integer("Duration (ns)"), integer("Start (ns)"), integer("PID"), integer("TID"), text("API Name") }, {} },
        { RuleId::GpuGaps, QStringLiteral("gpu_gaps"), QStringLiteral("gpu-starv"), QStringLiteral("GPU Starvation"),
            { integer("Row#"), integer("Duration (ns)"), integer("Start (ns)"), integer("PID"), integer("Device ID"),
                integer("Context ID") },
            { QStringLiteral("gap") } },
        { RuleId::GpuTimeUtil, QStringLiteral("gpu_time_util"), QStringLiteral("gpu-low-util"),
            QStringLiteral("GPU Low Utilization"),
            { integer("Row#"), { QStringLiteral("In-Use (%)"), ColumnKind::Percent }, integer("Duration (ns)"),
                integer("Start (ns)"), integer("PID"), integer("Device ID"), integer("Context ID") },
            { QStringLiteral("threshold"), QStringLiteral("chunks") } },
    };
}

const QString kSyncAdvice = QStringLiteral(
    "The following are synchronization APIs that block the host until all issued CUDA calls are complete.\n\n"
    "Suggestions:\n"
    "   1. Avoid excessive use of synchronization.\n"
    "   2. Use asynchronous CUDA event calls, such as cudaStreamWaitEvent() and cudaEventSynchronize(), to "
    "prevent host synchronization.");

QString invalidInt(const QString& option, const QString& value)
{
    return QStringLiteral("argument --%1: invalid int value: '%2'").arg(option, value);
}

/// Sets one option; returns nsys's (argparse's) message when it is refused.
QString setOption(const RuleSpec& spec, RuleOptions& options, const QString& item)
{
    const qsizetype eq = item.indexOf(QLatin1Char('='));
    const QString key = eq < 0 ? item : item.left(eq);
    const QStringList common { QStringLiteral("rows"), QStringLiteral("start"), QStringLiteral("end"),
        QStringLiteral("nvtx") };
    if (!common.contains(key) && !spec.extraOptions.contains(key))
        return QStringLiteral("unrecognized arguments: %1").arg(item);
    if (eq < 0)
        return QStringLiteral("argument --%1: expected one argument").arg(key);
    const QString value = item.mid(eq + 1);
    if (key == QLatin1String("nvtx")) {
        options.nvtx = value;
        return {};
    }
    const std::optional<qint64> number = parsePythonInt(value);
    if (!number)
        return invalidInt(key, value);
    if (key == QLatin1String("rows"))
        options.rows = *number;
    else if (key == QLatin1String("start"))
        options.start = *number;
    else if (key == QLatin1String("end"))
        options.end = *number;
    else if (key == QLatin1String("gap"))
        options.gap = *number;
    else if (key == QLatin1String("threshold"))
        options.threshold = *number;
    else if (key == QLatin1String("chunks"))
        options.chunks = *number;
    return {};
}

Result<RuleRequest> planRule(const QString& item)
{
    const QStringList parts = item.split(QLatin1Char(':'));
    const RuleSpec* spec = findRule(parts.first().trimmed());
    if (!spec)
        return Result<RuleRequest>::failure(
            ErrorKind::Usage, QStringLiteral("Report '%1' could not be found.").arg(parts.first().trimmed()));
    RuleRequest request { spec, {}, parts.mid(1).join(QLatin1Char(':')) };
    for (const QString& option : parts.mid(1)) {
        if (option.isEmpty())
            continue;
        if (const QString e = setOption(*spec, request.options, option); !e.isEmpty())
            return Result<RuleRequest>::failure(
                ErrorKind::Usage, QStringLiteral("Invalid argument passed to rule '%1': %2").arg(spec->name, e));
    }
    const qint64 chunks = request.options.chunks;
    if (spec->id == RuleId::GpuTimeUtil && chunks != 0 && (chunks < 1 || chunks > 1000))
        return Result<RuleRequest>::failure(ErrorKind::Usage,
            QStringLiteral("Invalid argument passed to rule '%1': argument --chunks: value must be between 1 "
                           "and 1000")
                .arg(spec->name));
    return request;
}

} // namespace

const std::vector<RuleSpec>& ruleSpecs()
{
    static const std::vector<RuleSpec> specs = makeSpecs();
    return specs;
}

const RuleSpec* findRule(const QString& name)
{
    for (const RuleSpec& s : ruleSpecs())
        if (s.name == name || s.oldName == name)
            return &s;
    return nullptr;
}

std::optional<qint64> parsePythonInt(const QString& text)
{
    QString t = text.trimmed();
    if (t.startsWith(QLatin1Char('+')) || t.startsWith(QLatin1Char('-')))
        t = t.mid(1);
    if (t.isEmpty() || t.startsWith(QLatin1Char('_')) || t.endsWith(QLatin1Char('_'))
        || t.contains(QLatin1String("__")))
        return std::nullopt;
    for (const QChar c : t)
        if (!(c.isDigit() && c.unicode() < 128) && c != QLatin1Char('_'))
            return std::nullopt;
    bool ok = false;
    const qint64 v = text.trimmed().remove(QLatin1Char('_')).toLongLong(&ok);
    return ok ? std::optional<qint64>(v) : std::nullopt;
}

Result<std::vector<RuleRequest>> planRules(const QStringList& namesWithOptions)
{
    std::vector<RuleRequest> requests;
    if (namesWithOptions.isEmpty()) {
        for (const RuleSpec& s : ruleSpecs())
            requests.push_back({ &s, {}, {} });
        return requests;
    }
    for (const QString& item : namesWithOptions) {
        Result<RuleRequest> r = planRule(item);
        if (!r)
            return r.failureAs<std::vector<RuleRequest>>();
        requests.push_back(r.value());
    }
    return requests;
}

QString ruleAdvice(const RuleRequest& request)
{
    switch (request.spec->id) {
    case RuleId::CudaMemcpyAsync:
        return QStringLiteral("The following APIs use PAGEABLE memory which causes asynchronous CUDA memcpy "
                              "operations to block and be executed synchronously. This leads to low GPU "
                              "utilization.\n\nSuggestion: If applicable, use PINNED memory instead.");
    case RuleId::CudaMemcpySync:
        return QStringLiteral("The following are synchronous memory transfers that block the host. This does not "
                              "include host to device transfers of a memory block of 64 KB or less.\n\n"
                              "Suggestion: Use cudaMemcpy*Async() APIs instead.");
    case RuleId::CudaMemsetSync:
    case RuleId::CudaApiSync:
        return kSyncAdvice;
    case RuleId::GpuGaps:
        return QStringLiteral(
            "The following are ranges where a GUP is idle for more than %1ms. Addressing these gaps might imporve "
            "application performance\n\n"
            "Suggestions:\n"
            "   1. Use GPU sampling data, OS Runtime blocked state backgraces, and/or OS Runtime APIs related to "
            "thread synchronization to understand if a sluggish or blocked CPU is causing these gaps.\n"
            "   2. Add NVTX annotations to CPU code to understand the reason behind these gaps.")
            .arg(request.options.gap);
    case RuleId::GpuTimeUtil:
        return QStringLiteral(
            "The following are time regions with an average GPU utilization below %1%%. Addressing the gaps might "
            "improve application performance.\n\n"
            "Suggestions:\n"
            "   1. Use CPU sampling data, OS Runtime blocked state backtraces, and/or OS Runtime APIs related to "
            "thread synchronization to understand if a sluggish or blocked CPU is causing the gaps.\n"
            "   2. Add NVTX annotations to CPU code to understand the reason behind the gaps.")
            .arg(request.options.threshold);
    }
    return {};
}

QString ruleNoResult(const RuleRequest& request)
{
    switch (request.spec->id) {
    case RuleId::CudaMemcpyAsync:
        return QStringLiteral("There were no problems detected related to memcpy operations using pageable memory.");
    case RuleId::CudaMemcpySync:
        return QStringLiteral("There were no problems detected related to synchronous memcpy operations.");
    case RuleId::CudaMemsetSync:
    case RuleId::CudaApiSync:
        return QStringLiteral("There were no problems detected related to synchronization APIs.");
    case RuleId::GpuGaps:
        return QStringLiteral("There were no problems detected with GPU utilization. GPU was not found to be idle for "
                              "more than %1ms.")
            .arg(request.options.gap);
    case RuleId::GpuTimeUtil:
        return QStringLiteral("There were no problems detected with GPU utilization. No time regions have an average "
                              "GPU utilization below %1%%.")
            .arg(request.options.threshold);
    }
    return {};
}

QString ruleRowLimitNote(const RuleRequest& request, qsizetype rowCount)
{
    const qint64 limit = request.options.rows;
    if (limit == 0 || rowCount < limit)
        return {};
    if (limit == 1)
        return QStringLiteral("Only the top result is displayed. More data may be available.");
    return QStringLiteral("Only the top %1 results are displayed. More data may be available.").arg(rowCount);
}

} // namespace nsw

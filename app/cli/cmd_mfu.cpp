// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/diagnostics/diagnostics.h"
#include "core/diagnostics/diagnosticsexport.h"
#include "core/diagnostics/mfuexport.h"
#include "widgets/diagnostics/rooflinechart.h"

#include <cmath>

namespace nsw::cli {

namespace {

struct MfuOptions
{
    QCommandLineOption flops = option("flops",
        QStringLiteral("Model FLOPs of one iteration, all the GPUs of the export together (e.g. 3.2e15)."), "flops");
    QCommandLineOption bytes = option("bytes",
        QStringLiteral("Bytes one iteration moves to and from GPU memory, for the roofline (optional)."), "bytes");
    QCommandLineOption params
        = option("params", QStringLiteral("Transformer FLOP calculator: parameters N (with --tokens)."), "n");
    QCommandLineOption tokens
        = option("tokens", QStringLiteral("Tokens one iteration processes on the GPUs of the export."), "n");
    QCommandLineOption layers = option("layers", QStringLiteral("Transformer layers L (attention term)."), "n");
    QCommandLineOption hidden = option("hidden", QStringLiteral("Hidden size H (attention term)."), "n");
    QCommandLineOption seq = option("seq", QStringLiteral("Sequence length S (attention term)."), "n");
    QCommandLineOption inference = option("inference",
        QStringLiteral("Forward pass only (2 N + 4 L H S FLOPs per token instead of training's 6 N + 12 L H S)."));
    QCommandLineOption ranges = option("ranges",
        QStringLiteral("FLOPs per NVTX range instance: a JSON file {\"name\": flops, \"re:regex\": {\"flops\": F, "
                       "\"bytes\": B}}."),
        "file");
    QCommandLineOption precision = option("precision",
        QStringLiteral("The peak to compare with: %1 (default bf16).").arg(precisionNames().join(QStringLiteral(", "))),
        "precision", "bf16");
    QCommandLineOption gpuName = option("gpu-name",
        QStringLiteral("The GPU to look up in the peak table when the export does not name it (\"H100 SXM\")."),
        "name");
    QCommandLineOption peak
        = option("peak-tflops", QStringLiteral("Peak TFLOP/s per GPU, instead of the built-in table."), "tflops");
    QCommandLineOption bandwidth = option("peak-bandwidth",
        QStringLiteral("Memory bandwidth per GPU in TB/s for the roofline, instead of the table."), "tbs");
    QCommandLineOption gpus = option(
        "gpus", QStringLiteral("GPUs the FLOPs run on (default: the GPUs that run kernels in the export)."), "n");
    QCommandLineOption marker
        = option("marker", QStringLiteral("The NVTX range of one iteration (as `iterations --marker`)."), "name");
    QCommandLineOption listGpus
        = option("list-gpus", QStringLiteral("Print the built-in peak table (no TRACE needed)."));
    QCommandLineOption format
        = formatOption(QStringLiteral("text (default), csv (the per-iteration and per-range tables) or json."),
            QStringLiteral("text"));
    QCommandLineOption output = outputOption();
    QCommandLineOption png = option(
        "png", QStringLiteral("Also render the roofline chart to a PNG (headless), as the MFU tab draws it."), "file");
    QCommandLineOption pngSize
        = option("png-size", QStringLiteral("PNG size in pixels (1000x600)."), "WxH", "1000x600");

    void addTo(QCommandLineParser& p) const
    {
        p.addOptions({ flops, bytes, params, tokens, layers, hidden, seq, inference, ranges, precision, gpuName, peak,
            bandwidth, gpus, marker, listGpus, format, output, png, pngSize });
    }
};

/// A number > 0 from an option, or an error naming the option.
bool positiveNumber(const QCommandLineParser& parser, const QCommandLineOption& option, double* value)
{
    if (!parser.isSet(option))
        return true;
    bool ok = false;
    *value = parser.value(option).toDouble(&ok);
    if (ok && *value > 0 && std::isfinite(*value))
        return true;
    printError(QStringLiteral("--%1 must be a number > 0, not '%2'").arg(option.names().last(), parser.value(option)));
    return false;
}

QString gpuTableText()
{
    QString out = QStringLiteral("GPU peaks per GPU, dense (no structured sparsity): TFLOP/s (int8: TOPS), memory "
                                 "TB/s\n%1  pattern  %2  memory  source\n")
                      .arg(QStringLiteral("GPU").leftJustified(15), precisionNames().join(QStringLiteral("  ")));
    for (const GpuPeak& g : gpuPeakTable()) {
        QStringList values;
        for (double v : g.tflops)
            values << (v > 0 ? QString::number(v) : QStringLiteral("-"));
        out += QStringLiteral("%1  %2  %3  %4  %5\n")
                   .arg(g.gpu.leftJustified(15), g.pattern, values.join(QStringLiteral("  ")))
                   .arg(g.memoryTBs)
                   .arg(g.source);
    }
    return out;
}

bool fillRequest(const QCommandLineParser& parser, const MfuOptions& o, MfuRequest& request)
{
    double layers = 0, hidden = 0, seq = 0, gpus = 0;
    if (!positiveNumber(parser, o.flops, &request.flopsPerIteration)
        || !positiveNumber(parser, o.bytes, &request.bytesPerIteration)
        || !positiveNumber(parser, o.peak, &request.peakTflops)
        || !positiveNumber(parser, o.bandwidth, &request.peakBandwidthTBs) || !positiveNumber(parser, o.gpus, &gpus)
        || !positiveNumber(parser, o.layers, &layers) || !positiveNumber(parser, o.hidden, &hidden)
        || !positiveNumber(parser, o.seq, &seq))
        return false;
    request.gpus = int(gpus);
    if (parser.isSet(o.params) || parser.isSet(o.tokens)) {
        TransformerModel m;
        if (!positiveNumber(parser, o.params, &m.parameters) || !positiveNumber(parser, o.tokens, &m.tokens))
            return false;
        m.layers = int(layers);
        m.hidden = int(hidden);
        m.sequence = int(seq);
        m.training = !parser.isSet(o.inference);
        if (parser.isSet(o.flops)) {
            printError(QStringLiteral("give either --flops or the transformer's --params and --tokens, not both"));
            return false;
        }
        request.model = m;
    }
    const std::optional<Precision> precision = precisionFromName(parser.value(o.precision));
    if (!precision) {
        printError(QStringLiteral("--precision must be one of %1, not '%2'")
                       .arg(precisionNames().join(QStringLiteral(", ")), parser.value(o.precision)));
        return false;
    }
    request.precision = *precision;
    request.gpuName = parser.value(o.gpuName);
    request.iterationMarker = parser.value(o.marker);
    return true;
}

} // namespace

int runMfu(const QStringList& args)
{
    QCommandLineParser parser;
    addTraceArgument(parser);
    const MfuOptions o;
    o.addTo(parser);
    int exitCode = ExitOk;
    if (!parseArguments(parser, args, commandHelp("mfu"), &exitCode))
        return exitCode;
    const QString fmt = parser.value(o.format);
    if (!checkFormat(fmt, { QStringLiteral("text"), QStringLiteral("csv"), QStringLiteral("json") }))
        return ExitUsage;
    if (parser.isSet(o.listGpus))
        return writeCommandOutput(gpuTableText(), parser.value(o.output));
    const std::optional<QString> trace = singleTrace(parser, QStringLiteral("mfu"));
    if (!trace)
        return ExitUsage;
    MfuRequest request;
    if (!fillRequest(parser, o, request))
        return ExitUsage;
    const std::optional<QSize> pngSize = parsePngSize(parser.value(o.pngSize));
    if (!pngSize || (parser.isSet(o.png) && !checkPngAvailable()))
        return ExitUsage;
    if (parser.isSet(o.ranges)) {
        Result<std::vector<RangeFlops>> ranges = loadRangeFlops(parser.value(o.ranges));
        if (!ranges) {
            printError(ranges.errorMessage());
            return ExitInput;
        }
        request.ranges = std::move(*ranges);
    }
    request.profile = loadProfile(*trace, diagnosticsLoadOptions(), &exitCode);
    if (!request.profile)
        return exitCode;
    const Result<MfuResult> result = computeMfu(request);
    if (!result) {
        printError(QStringLiteral("%1: %2").arg(*trace, result.errorMessage()));
        return exitCodeOf(result.error());
    }
    QString text;
    if (fmt == QLatin1String("json")) {
        text = QString::fromStdString(mfuJson(*result).dump(2)) + QLatin1Char('\n');
    } else if (fmt == QLatin1String("csv")) {
        for (const DiagnosticsTable& t : mfuTables(*result))
            text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + diagnosticsTableCsv(t);
        for (const QString& a : result->assumptions + result->warnings)
            printWarning(a);
    } else {
        text = mfuText(*result);
    }
    if (const int written = writeCommandOutput(text, parser.value(o.output)); written != ExitOk)
        return written;
    if (!parser.isSet(o.png))
        return ExitOk;
    RooflineChart chart; // the MFU tab's
    chart.resize(*pngSize);
    chart.setResult(*result);
    return writeChartPng(chart, parser.value(o.png), *pngSize);
}

} // namespace nsw::cli

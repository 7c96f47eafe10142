// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/timeline/perfettoexport.h"

#include <QRegularExpression>
#include <cmath>
#include <optional>

namespace nsw::cli {

namespace {

/// "1.5" (seconds), "1500ms", "20us", "20µs", "7ns", "2s"; empty text is an open end (kNoTime).
std::optional<TimeNs> parseTime(const QString& text)
{
    if (text.isEmpty())
        return kNoTime;
    static const QRegularExpression re(QStringLiteral("^\\s*(-?[0-9]*\\.?[0-9]+)\\s*(s|ms|us|µs|ns)?\\s*$"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QString unit = m.captured(2);
    const double scale = unit == QLatin1String("ns")                  ? 1
        : unit == QLatin1String("us") || unit == QStringLiteral("µs") ? 1e3
        : unit == QLatin1String("ms")                                 ? 1e6
                                                                      : 1e9;
    return TimeNs(std::llround(m.captured(1).toDouble() * scale));
}

/// "A:B" on the capture clock; prints the error when malformed.
bool parseRange(const QString& text, PerfettoExportRequest& request)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    const std::optional<TimeNs> from = parseTime(parts.value(0));
    const std::optional<TimeNs> to = parseTime(parts.value(1));
    if (parts.size() != 2 || !from || !to || (*from != kNoTime && *to != kNoTime && *to < *from)) {
        printError(QStringLiteral("--range must be START:END on the capture clock, in seconds or with a unit "
                                  "(ms, us, ns), e.g. 1.5:2 or 1500ms:2s; not '%1'")
                       .arg(text));
        return false;
    }
    request.rangeStart = *from;
    request.rangeEnd = *to;
    return true;
}

} // namespace

int runExport(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(
        QStringLiteral("trace"), QStringLiteral("An nsys SQLite export."), QStringLiteral("TRACE"));
    const QCommandLineOption format(QStringList { QStringLiteral("f"), QStringLiteral("format") },
        QStringLiteral("perfetto: Chrome trace JSON for ui.perfetto.dev and chrome://tracing."),
        QStringLiteral("format"), QStringLiteral("perfetto"));
    const QCommandLineOption range(QStringLiteral("range"),
        QStringLiteral("Only events overlapping START:END on the capture clock (t = 0 at capture start), in "
                       "seconds or with a unit: 1.5:2, 1500ms:2s, :3s."),
        QStringLiteral("range"));
    const QCommandLineOption output(QStringList { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("Write to FILE instead of stdout."), QStringLiteral("file"));
    parser.addOptions({ format, range, output });
    int exitCode = ExitOk;
    if (!parseArguments(parser, args,
            QStringLiteral("The timeline's events as a trace other tools open: one complete event per kernel, memory "
                           "operation, CUDA API call, NVTX range and OS runtime call, ts/dur in µs with ns kept."),
            &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(QStringLiteral("export takes exactly one TRACE (see export --help)"));
        return ExitUsage;
    }
    if (!checkFormat(parser.value(format), { QStringLiteral("perfetto") }))
        return ExitUsage;
    PerfettoExportRequest request;
    if (parser.isSet(range) && !parseRange(parser.value(range), request))
        return ExitUsage;

    request.profile = loadProfile(positional.first(), LoadOptions {}, &exitCode);
    if (!request.profile)
        return exitCode;
    QString error;
    const auto write = [&](QIODevice& out) {
        const Result<PerfettoExportSummary> result = writePerfettoTrace(request, out);
        if (!result)
            error = result.errorMessage();
        return result.ok();
    };
    if (const QString e = writeOutputWith(parser.value(output), write); !e.isEmpty()) {
        printError(error.isEmpty() ? e : error);
        return ExitInput;
    }
    return ExitOk;
}

} // namespace nsw::cli

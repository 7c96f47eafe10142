// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "app/cli/commands.h"
#include "core/iterations/iterationexport.h"
#include "core/iterations/iterationmarkers.h"
#include "core/models/iterationtablemodel.h"
#include "core/models/modelroles.h"
#include "core/util/csv.h"

#include <QBuffer>

namespace nsw::cli {

int runIterations(const QStringList& args)
{
    QCommandLineParser parser;
    addTraceArgument(parser);
    const QCommandLineOption marker = option("marker",
        QStringLiteral("The NVTX range that marks one iteration: its exact name, the same name up to numbers "
                       "(ProfilerStep#1 matches every ProfilerStep#N), or a regular expression the whole name "
                       "matches. Default: the first of %1 found, else a guess from GPU idle gaps.")
            .arg(knownIterationMarkers().join(QStringLiteral(", "))),
        "name");
    const QCommandLineOption format
        = formatOption(QStringLiteral("text (default), csv (raw values in ns) or json."), QStringLiteral("text"));
    const QCommandLineOption output = outputOption();
    parser.addOptions({ marker, format, output });
    int exitCode = ExitOk;
    const std::optional<QString> trace = parseTraceArguments(
        parser, args, commandHelp("iterations") + iterationDefinitions() + QLatin1Char('.'), &exitCode);
    if (!trace)
        return exitCode;
    const QString fmt = parser.value(format);
    if (!checkFormat(fmt, { QStringLiteral("text"), QStringLiteral("csv"), QStringLiteral("json") }))
        return ExitUsage;
    if (parser.isSet(marker) && parser.value(marker).trimmed().isEmpty()) {
        printError(QStringLiteral("--marker needs a name"));
        return ExitUsage;
    }

    LoadOptions load;
    load.parts = LoadNvtx | LoadKernels | LoadMemOps;
    load.kernelColumns = KernelDemangledName | KernelShortName;
    const ProfilePtr profile = loadProfile(*trace, load, &exitCode);
    if (!profile)
        return exitCode;
    Result<IterationTable> table = computeIterations({ profile, parser.value(marker), defaultIterationRules() });
    for (const QString& w : table.warnings())
        printWarning(w);
    if (!table) {
        printError(table.errorMessage());
        return table.error().kind == ErrorKind::NoData ? ExitNoData : ExitUsage;
    }

    QString text;
    if (fmt == QLatin1String("json")) {
        text = iterationsJson(*table, table.warnings());
    } else if (fmt == QLatin1String("text")) {
        text = iterationsText(*table);
    } else {
        IterationTableModel model;
        model.setTable(std::make_shared<const IterationTable>(*table));
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        writeModelCsv(model, buffer, RawValueRole);
        text = QString::fromUtf8(buffer.data());
    }
    if (table->isGuess() && fmt != QLatin1String("text"))
        printWarning(QStringLiteral("%1: %2").arg(profile->meta.filePath, table->detection));
    return writeCommandOutput(text, parser.value(output));
}

} // namespace nsw::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#include "clicommon.h"

#include "app/cli/cli.h"
#include "core/profilecache/profilecache.h"
#include "widgets/common/plotexport.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTemporaryDir>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <qcustomplot.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace nsw::cli {

namespace {

/// A symlink with a representable name to the file named by @p raw, or "" when there is no such file.
QString representableLink(const QByteArray& raw, const QString& lossy)
{
    static std::unique_ptr<QTemporaryDir> links;
    static int count = 0;
    char* target = ::realpath(raw.constData(), nullptr);
    if (!target)
        return {};
    if (!links)
        links = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/nsys-workbench-XXXXXX"));
    QString name = QFileInfo(lossy).fileName();
    name.replace(QChar(QChar::ReplacementCharacter), QLatin1Char('_'));
    const QString link = links->filePath(QStringLiteral("%1-%2").arg(++count).arg(name));
    const bool ok = links->isValid() && ::symlink(target, QFile::encodeName(link).constData()) == 0;
    std::free(target);
    return ok ? link : QString();
}

} // namespace

QStringList decodeArguments(int argc, char** argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i) {
        const QByteArray raw(argv[i]);
        const QString decoded = QString::fromLocal8Bit(raw);
        const QString link = QFile::encodeName(decoded) == raw ? QString() : representableLink(raw, decoded);
        args.append(link.isEmpty() ? decoded : link);
    }
    return args;
}

void printError(const QString& message)
{
    std::fprintf(stderr, "nsys-workbench: %s\n", message.toUtf8().constData());
    std::fflush(stderr);
}

namespace {
QStringList& printedWarnings()
{
    static QStringList warnings;
    return warnings;
}
} // namespace

void printWarning(const QString& message)
{
    printError(QStringLiteral("warning: ") + message);
    printedWarnings().append(message);
}

void addWarningsMember(nlohmann::ordered_json& object)
{
    if (printedWarnings().isEmpty())
        return;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const QString& w : std::as_const(printedWarnings()))
        list.push_back(w.toStdString());
    object["warnings"] = std::move(list);
}

void clearWarnings()
{
    printedWarnings().clear();
}

bool usageError(int* exitCode)
{
    *exitCode = ExitUsage;
    return false;
}

void writeStdout(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    std::fwrite(utf8.constData(), 1, std::size_t(utf8.size()), stdout);
    std::fflush(stdout);
}

QString writeOutput(const QString& text, const QString& file)
{
    return writeOutputWith(file, [&text](QIODevice& out) {
        const QByteArray utf8 = text.toUtf8();
        return out.write(utf8) == utf8.size();
    });
}

int writeCommandOutput(const QString& text, const QString& file)
{
    if (const QString e = writeOutput(text, file); !e.isEmpty()) {
        printError(e);
        return ExitInput;
    }
    return ExitOk;
}

int writeCommandOutputWith(const QString& file, const std::function<bool(QIODevice&)>& write)
{
    if (const QString e = writeOutputWith(file, write); !e.isEmpty()) {
        printError(e);
        return ExitInput;
    }
    return ExitOk;
}

void addTraceArgument(QCommandLineParser& parser, const QString& help)
{
    parser.addPositionalArgument(QStringLiteral("trace"), help, QStringLiteral("TRACE"));
}

std::optional<QString> singleTrace(const QCommandLineParser& parser, const QString& command)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(QStringLiteral("%1 takes exactly one TRACE (see %1 --help)").arg(command));
        return std::nullopt;
    }
    return positional.first();
}

QCommandLineOption formatOption(const QString& help, const QString& defaultFormat)
{
    return QCommandLineOption(
        QStringList { QStringLiteral("f"), QStringLiteral("format") }, help, QStringLiteral("format"), defaultFormat);
}

QCommandLineOption option(const char* name, const QString& help, const char* valueName, const char* defaultValue)
{
    return QCommandLineOption(
        QString::fromUtf8(name), help, QString::fromUtf8(valueName), QString::fromUtf8(defaultValue));
}

QCommandLineOption rankIterationMarkerOption()
{
    return option("iteration-marker",
        QStringLiteral("The NVTX range of one iteration on every rank: its exact name, the name up to numbers "
                       "(ProfilerStep#1 takes every ProfilerStep#N) or a regular expression the whole name matches. "
                       "Default: the known markers, else a guess from each rank's GPU idle gaps."),
        "name");
}

QCommandLineOption outputOption(const QString& help)
{
    return QCommandLineOption(
        QStringList { QStringLiteral("o"), QStringLiteral("output") }, help, QStringLiteral("file"));
}

namespace {

using FileIdentity = std::pair<quint64, quint64>; // device, inode: equal for hard links and symlinks too

std::mutex s_inputsMutex;
std::vector<FileIdentity> s_inputs;

std::optional<FileIdentity> identityOf(const QString& path)
{
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return std::nullopt;
    return FileIdentity { quint64(st.st_dev), quint64(st.st_ino) };
}

bool isOutputOption(const QString& name)
{
    return name == QLatin1String("-o") || name == QLatin1String("--output") || name == QLatin1String("--png")
        || name == QLatin1String("--mapping");
}

/// (option, value) of "--name=value", or of "--name value" at @p i; nothing for a lone argument.
std::optional<std::pair<QString, QString>> optionAt(const QStringList& args, qsizetype i)
{
    const QString& a = args[i];
    if (a.startsWith(QLatin1String("--")) && a.contains(QLatin1Char('='))) {
        const qsizetype eq = a.indexOf(QLatin1Char('='));
        return std::make_pair(a.left(eq), a.mid(eq + 1));
    }
    if (a.startsWith(QLatin1Char('-')) && i + 1 < args.size())
        return std::make_pair(a, args[i + 1]);
    return std::nullopt;
}

} // namespace

void noteInputs(const QStringList& args)
{
    std::lock_guard lock(s_inputsMutex);
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (isOutputOption(args[i - 1]))
            continue;
        QString value = args[i];
        if (value.startsWith(QLatin1String("--")) && value.contains(QLatin1Char('='))) {
            if (isOutputOption(value.left(value.indexOf(QLatin1Char('=')))))
                continue;
            value = value.mid(value.indexOf(QLatin1Char('=')) + 1);
        }
        if (const auto id = identityOf(value))
            s_inputs.push_back(*id);
    }
}

QString checkOutputPath(const QString& file)
{
    if (file.isEmpty() || file == QLatin1String("-"))
        return {};
    const QFileInfo info(file);
    if (!info.exists())
        return {};
    if (!info.isFile())
        return QStringLiteral("%1: not a regular file (a device, FIFO or directory); refusing to write to it")
            .arg(file);
    const auto id = identityOf(file);
    std::lock_guard lock(s_inputsMutex);
    for (const FileIdentity& input : s_inputs)
        if (id && *id == input)
            return QStringLiteral("%1: is one of the inputs; refusing to overwrite it").arg(file);
    return {};
}

QString checkOutputArguments(const QStringList& args)
{
    // After "--" come the arguments of the program `profile` runs, not the workbench's own.
    for (qsizetype i = 1; i < args.size() && args[i] != QLatin1String("--"); ++i) {
        const auto option = optionAt(args, i);
        if (!option || !isOutputOption(option->first))
            continue;
        if (const QString e = checkOutputPath(option->second); !e.isEmpty())
            return e;
    }
    return {};
}

QString writeOutputWith(const QString& file, const std::function<bool(QIODevice&)>& write)
{
    if (const QString e = checkOutputPath(file); !e.isEmpty())
        return e;
    if (file.isEmpty() || file == QLatin1String("-")) {
        std::fflush(stdout);
        QFile out;
        if (!out.open(stdout, QIODevice::WriteOnly) || !write(out) || !out.flush())
            return QStringLiteral("standard output: %1").arg(out.errorString());
        return {};
    }
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(file, out.errorString());
    if (!write(out)) {
        out.cancelWriting();
        return QStringLiteral("%1: %2").arg(file, out.errorString());
    }
    if (!out.commit())
        return QStringLiteral("%1: %2").arg(file, out.errorString());
    return {};
}

bool asksForPng(const QStringList& args)
{
    for (const QString& a : args) {
        if (a == QLatin1String("--"))
            break;
        if (a == QLatin1String("--png") || a.startsWith(QLatin1String("--png=")))
            return true;
    }
    return false;
}

std::optional<QSize> parsePngSize(const QString& text)
{
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)$")).match(text);
    if (!m.hasMatch() || m.captured(1).toInt() < 100 || m.captured(2).toInt() < 100) {
        printError(QStringLiteral("--png-size must be WIDTHxHEIGHT (at least 100x100), not '%1'").arg(text));
        return std::nullopt;
    }
    return QSize(m.captured(1).toInt(), m.captured(2).toInt());
}

bool checkFormat(const QString& value, const QStringList& allowed)
{
    if (allowed.contains(value))
        return true;
    const QString choices = allowed.size() < 2
        ? allowed.join(QString())
        : allowed.mid(0, allowed.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") + allowed.last();
    printError(QStringLiteral("--format must be %1, not '%2'").arg(choices, value));
    return false;
}

bool checkPngAvailable()
{
    if (qobject_cast<QApplication*>(QCoreApplication::instance()))
        return true;
    printError(QStringLiteral("--png needs the widgets (run through nsys-workbench)"));
    return false;
}

int writeChartPng(QCustomPlot& chart, const QString& file, QSize size)
{
    chart.resize(size);
    PngExportOptions options;
    options.width = size.width();
    options.height = size.height();
    if (const QString e = savePlotPng(chart, file, options); !e.isEmpty()) {
        printError(e);
        return ExitInput;
    }
    return ExitOk;
}

QString commandHelp(const char* command)
{
    QFile file(QStringLiteral(":/nsw/cli/%1.txt").arg(QLatin1String(command)));
    const bool opened = file.open(QIODevice::ReadOnly);
    Q_ASSERT_X(opened, "commandHelp", command);
    QString text = QString::fromUtf8(file.readAll());
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1); // the file's own line end
    return text;
}

bool parseArguments(QCommandLineParser& parser, const QStringList& args, const QString& description, int* exitCode)
{
    parser.setApplicationDescription(description);
    const QCommandLineOption help(
        QStringList { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help."));
    parser.addOption(help);
    const QCommandLineOption noCache = option("no-cache",
        QStringLiteral("Neither read nor write the profile cache (load from SQLite; see `nsys-workbench cache`)."));
    parser.addOption(noCache);
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    // Positional arguments then start after the command name.
    QStringList withProgram = args.mid(1);
    withProgram.prepend(QStringLiteral("nsys-workbench ") + args.value(0));
    if (!parser.parse(withProgram)) {
        printError(parser.errorText());
        *exitCode = ExitUsage;
        return false;
    }
    if (parser.isSet(noCache))
        cacheSettings().profiles = false;
    if (parser.isSet(help)) {
        // Qt names the program by its path and without the command: show the command line as it is typed.
        QString text = parser.helpText();
        const qsizetype options = text.indexOf(QStringLiteral(" [options]"));
        if (text.startsWith(QStringLiteral("Usage: ")) && options > 0)
            text.replace(7, options - 7, QStringLiteral("nsys-workbench ") + args.value(0));
        writeStdout(text);
        *exitCode = ExitOk;
        return false;
    }
    return true;
}

std::optional<QString> parseTraceArguments(
    QCommandLineParser& parser, const QStringList& args, const QString& description, int* exitCode)
{
    if (!parseArguments(parser, args, description, exitCode))
        return std::nullopt;
    std::optional<QString> trace = singleTrace(parser, args.value(0));
    if (!trace)
        *exitCode = ExitUsage;
    return trace;
}

CacheSettings& cacheSettings()
{
    static CacheSettings settings;
    return settings;
}

namespace {
std::mutex s_cacheFailuresMutex;
QStringList s_cacheFailures;
} // namespace

std::function<void(const Status&)> cacheWriteFailed()
{
    return [](const Status& failed) {
        const std::lock_guard lock(s_cacheFailuresMutex);
        s_cacheFailures.append(failed.errorMessage());
    };
}

void printCacheNote(const QString& note)
{
    if (!note.isEmpty())
        printError(QStringLiteral("note: %1").arg(note));
}

LoadResult loadThroughCache(const QString& path, const LoadOptions& options)
{
    LoadResult result = profilecache::load(path, options, cacheSettings(), {}, cacheWriteFailed());
    if (result)
        printCacheNote(result->cacheNote);
    return result;
}

void finishCacheWrites()
{
    profilecache::waitForWrites();
    const std::lock_guard lock(s_cacheFailuresMutex);
    for (const QString& failure : std::as_const(s_cacheFailures))
        printError(QStringLiteral("warning: ") + failure);
    s_cacheFailures.clear();
}

ProfilePtr loadProfile(const QString& path, const LoadOptions& options, int* exitCode)
{
    const LoadResult result = loadThroughCache(path, options);
    printLoadWarnings(path, result.warnings());
    if (!result) {
        printError(result.errorMessage());
        *exitCode = exitCodeOf(result.error());
        return nullptr;
    }
    return result->profile;
}

void printLoadWarnings(const QString& path, const QStringList& warnings)
{
    for (const QString& w : warnings)
        printWarning(QStringLiteral("%1: %2").arg(path, w));
}

} // namespace nsw::cli

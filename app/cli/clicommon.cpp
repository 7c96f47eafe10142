// SPDX-License-Identifier: GPL-3.0-or-later
#include "clicommon.h"

#include "app/cli/cli.h"
#include "core/profile/profileloader.h"

#include <QApplication>
#include <QFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <cstdio>

namespace nsw::cli {

void printError(const QString& message)
{
    std::fprintf(stderr, "nsys-workbench: %s\n", message.toUtf8().constData());
    std::fflush(stderr);
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

QString writeOutputWith(const QString& file, const std::function<bool(QIODevice&)>& write)
{
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
    for (const QString& a : args)
        if (a == QLatin1String("--png") || a.startsWith(QLatin1String("--png=")))
            return true;
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

bool parseArguments(QCommandLineParser& parser, const QStringList& args, const QString& description, int* exitCode)
{
    parser.setApplicationDescription(description);
    const QCommandLineOption help(
        QStringList { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    // Positional arguments then start after the command name.
    QStringList withProgram = args.mid(1);
    withProgram.prepend(QStringLiteral("nsys-workbench ") + args.value(0));
    if (!parser.parse(withProgram)) {
        printError(parser.errorText());
        *exitCode = ExitUsage;
        return false;
    }
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

ProfilePtr loadProfile(const QString& path, const LoadOptions& options, int* exitCode)
{
    LoadResult result = ProfileLoader::load(path, options);
    if (!result.profile) {
        printError(result.error);
        *exitCode = ExitInput;
    }
    return result.profile;
}

} // namespace nsw::cli

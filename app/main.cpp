// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "app/cli/clicommon.h"
#include "core/profilecache/profilecache.h"
#include "core/session/loadjob.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstring>

int main(int argc, char** argv)
{
    // A command as first argument means headless: no display connection is ever opened.
    if (argc > 1 && nsw::cli::isCommand(QString::fromLocal8Bit(argv[1]))) {
        const QStringList args = nsw::cli::decodeArguments(argc, argv);
        if (nsw::cli::commandWantsGui(args)) {
            // Charts render with the widgets, still headless: no display is needed.
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            QApplication app(argc, argv);
            QCoreApplication::setApplicationName(QStringLiteral("nsys-workbench"));
            QCoreApplication::setOrganizationName(QStringLiteral("nsys-workbench"));
            QCoreApplication::setApplicationVersion(QStringLiteral(NSW_VERSION));
            return nsw::cli::run(args); // without the options Qt took
        }
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("nsys-workbench"));
        // The window's organisation too: the CLI reads the nsys path set in its Preferences.
        QCoreApplication::setOrganizationName(QStringLiteral("nsys-workbench"));
        QCoreApplication::setApplicationVersion(QStringLiteral(NSW_VERSION));
        return nsw::cli::run(args);
    }
    if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        QCoreApplication app(argc, argv);
        return nsw::cli::printTopLevelHelp();
    }
    if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
        QCoreApplication app(argc, argv);
        return nsw::cli::printVersion();
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("nsys-workbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("nsys-workbench"));
    QApplication::setApplicationVersion(QStringLiteral(NSW_VERSION));
    QApplication::setOrganizationName(QStringLiteral("nsys-workbench"));
    QApplication::setDesktopFileName(QStringLiteral("nsys-workbench"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/nsys-workbench.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Workbench for Nsight Systems SQLite exports"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("traces"),
        QStringLiteral("Exports (.sqlite), reports (.nsys-rep, exported with nsys) or trace folders to open"),
        QStringLiteral("[TRACE...]"));
    QCommandLineOption reset(QStringLiteral("reset-layout"), QStringLiteral("Start with the default pane layout"));
    parser.addOption(reset);
    QCommandLineOption ranks(QStringLiteral("ranks"),
        QStringLiteral("Open the traces in the Ranks pane: the exports of a distributed run (one per rank, or one with "
                       "every rank), rank summaries, or folders of them"));
    parser.addOption(ranks);
    parser.process(app);

    int status = 0;
    {
        nsw::MainWindow window(parser.isSet(reset));
        window.show();
        if (parser.isSet(ranks))
            window.openRanks(parser.positionalArguments());
        else
            window.openFiles(parser.positionalArguments());
        status = app.exec();
    }
    // The window is gone at once; loads it cancelled end at their next check. Let them before the process exits, and
    // let profile cache writes finish (one cut short would only leave a temporary file behind).
    nsw::LoadJob::waitForDetachedLoads(10000);
    nsw::profilecache::waitForWrites();
    return status;
}

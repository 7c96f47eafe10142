// SPDX-License-Identifier: GPL-3.0-or-later
#include "clirules.h"

#include "app/cli/cli.h"
#include "app/cli/clicommon.h"

namespace nsw::cli {

RuleOptions::RuleOptions()
    : rules(QStringLiteral("rules"),
        QStringLiteral("A gputrc2graph rule file {engine: {model: {regex: category}}}; repeat to merge several (a "
                       "later file replaces an engine it also defines)."),
        QStringLiteral("file"))
    , ruleSet(QStringLiteral("rule-set"),
          QStringLiteral("A shipped rule set: %1.").arg(RuleLibrary::shippedSetNames().join(QStringLiteral(", "))),
          QStringLiteral("name"))
    , engine(
          QStringLiteral("engine"), QStringLiteral("Engine in the rules (default: the only one)."), QStringLiteral("E"))
    , model(
          QStringLiteral("model"), QStringLiteral("Model of the engine (default: the only one)."), QStringLiteral("M"))
{ }

void RuleOptions::addTo(QCommandLineParser& parser) const
{
    parser.addOptions({ rules, ruleSet, engine, model });
}

bool RuleOptions::isSet(const QCommandLineParser& parser) const
{
    return parser.isSet(rules) || parser.isSet(ruleSet) || parser.isSet(engine) || parser.isSet(model);
}

int loadRules(const QCommandLineParser& parser, const RuleOptions& options, LoadedRules* out)
{
    if (parser.isSet(options.rules) == parser.isSet(options.ruleSet)) {
        printError(QStringLiteral("give either --rules FILE or --rule-set NAME"));
        return ExitUsage;
    }
    RuleLibrary& library = out->library;
    if (parser.isSet(options.rules)) {
        for (const QString& file : parser.values(options.rules)) {
            RuleError error;
            auto doc = RuleDocument::load(file, &error);
            if (!doc) {
                printError(error.message());
                return ExitInput;
            }
            for (const QString& w : std::as_const(doc->warnings))
                printWarning(w);
            library.add({ RuleSource::External, file, std::move(*doc) });
            out->files.append(file);
        }
    } else {
        for (const QString& name : parser.values(options.ruleSet)) {
            if (!RuleLibrary::shippedSetNames().contains(name)) {
                printError(QStringLiteral("no shipped rule set '%1' (rule sets: %2)")
                               .arg(name, RuleLibrary::shippedSetNames().join(QStringLiteral(", "))));
                return ExitUsage;
            }
            library.add(RuleLibrary::shippedSet(name));
            out->files.append(library.sources().back().path);
        }
    }
    QString engineName = parser.value(options.engine);
    if (engineName.isEmpty() && library.engines().size() == 1)
        engineName = library.engines().first();
    QString modelName = parser.value(options.model);
    if (modelName.isEmpty() && library.models(engineName).size() == 1)
        modelName = library.models(engineName).first();
    QString lookupError;
    const RuleList* list = library.find(engineName, modelName, &lookupError);
    if (!list) {
        const QString files = out->files.join(QStringLiteral(", "));
        if (engineName.isEmpty())
            lookupError = QStringLiteral("%1: several engines, choose one with --engine (engines: %2)")
                              .arg(files, library.engines().join(QStringLiteral(", ")));
        else if (modelName.isEmpty() && library.sourceOf(engineName) >= 0)
            lookupError = QStringLiteral("%1: engine \"%2\" has several models, choose one with --model (models: %3)")
                              .arg(files, engineName, library.models(engineName).join(QStringLiteral(", ")));
        printError(lookupError);
        return ExitInput;
    }
    out->rules = *list;
    out->engine = engineName;
    out->model = modelName;
    return ExitOk;
}

} // namespace nsw::cli

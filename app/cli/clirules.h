// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/rulelibrary.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace nsw::cli {

/// --rules FILE (repeatable), --rule-set NAME, --engine E, --model M: how the commands that categorize kernels
/// choose their rules.
struct RuleOptions
{
    QCommandLineOption rules;
    QCommandLineOption ruleSet;
    QCommandLineOption engine;
    QCommandLineOption model;

    RuleOptions();
    void addTo(QCommandLineParser& parser) const;
    bool isSet(const QCommandLineParser& parser) const;
};

struct LoadedRules
{
    RuleLibrary library;
    RuleList rules;
    QString engine;
    QString model;
    QStringList files; ///< the rule files (or shipped sets) in merge order
};

/// Reads the rule files or shipped sets and picks the engine and model (the only one when not given). On failure
/// prints the error (naming the files) and returns ExitUsage or ExitInput; ExitOk with @p out filled otherwise.
int loadRules(const QCommandLineParser& parser, const RuleOptions& options, LoadedRules* out);

} // namespace nsw::cli

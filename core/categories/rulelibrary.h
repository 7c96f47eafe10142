// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/rulefile.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace nsw {

/// Where a rule file came from.
struct RuleSource
{
    enum Kind
    {
        Shipped, ///< embedded in the application (":/rules/<name>.json"), never modified
        User, ///< in userRulesDir(), saved by the editor
        External ///< given on the command line or imported for one session
    };
    Kind kind = External;
    QString path;
    RuleDocument document;
};

/// Several rule files merged as gputrc2graph merges the JSON files next to it (`dict.update` per file): a later
/// file replaces every engine it also defines, whole; an engine keeps the position where it was first defined.
class RuleLibrary
{
public:
    void add(RuleSource source);
    const std::vector<RuleSource>& sources() const { return m_sources; }
    /// Engines in merge order.
    QStringList engines() const;
    QStringList models(const QString& engine) const;
    /// The effective rules of engine/model, or nullptr.
    const RuleList* find(const QString& engine, const QString& model) const;
    /// The same, with an error naming the files and what exists when not found.
    const RuleList* find(const QString& engine, const QString& model, QString* error) const;
    /// Index in sources() of the file whose definition of @p engine is in effect, or -1.
    int sourceOf(const QString& engine) const;
    bool isEmpty() const { return engines().isEmpty(); }

    /// Names of the shipped sets ("vllm", "sglang", "trtllm", "pytorch", and "tensorcores": tensor-core kernels by
    /// name, for the diagnostics' tensor-core share), in load order.
    static QStringList shippedSetNames();
    /// A shipped set, parsed. The files are ours and tested, so failure means a broken build.
    static RuleSource shippedSet(const QString& name);
    /// Shipped sets then the user's files (sorted by name), so a user file overrides a shipped engine.
    /// Unreadable user files are skipped and reported in @p errors.
    static RuleLibrary loadDefault(QStringList* errors = nullptr);
    /// QStandardPaths::AppConfigLocation + "/rules".
    static QString userRulesDir();

private:
    std::vector<RuleSource> m_sources;
};

/// A representative set of kernel names from vLLM, SGLang, TensorRT-LLM and PyTorch workloads (shipped with the
/// rules): a rule that never wins on the open profile nor on this set is reported as shadowed.
const QStringList& representativeKernelNames();

} // namespace nsw

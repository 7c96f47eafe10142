// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace nsw {

/// Which kernel name a rule is matched against. gputrc2graph only knows the demangled name.
enum class RuleNameKind : std::uint8_t
{
    Demangled,
    Short
};

/// One regex → category rule. In gputrc2graph's format a rule is the JSON member `"pattern": "category"`; a
/// case-insensitive rule is written with Python's inline flag, `"(?i)pattern"`, so the script honours it too.
/// The name kind and the note live in the file's `_nsw` extension object (see RuleDocument).
struct CategoryRule
{
    QString pattern; ///< without the "(?i)" prefix
    QString category;
    bool caseInsensitive = false;
    RuleNameKind name = RuleNameKind::Demangled;
    QString note;

    /// The JSON member name: "(?i)" + pattern when case-insensitive.
    QString key() const;
    static CategoryRule fromKey(const QString& key, const QString& category);
    bool operator==(const CategoryRule&) const = default;
};

/// The ordered rules of one engine/model; the first rule whose regex is found in a name wins.
struct RuleList
{
    QString engine;
    QString model;
    std::vector<CategoryRule> rules;
    bool operator==(const RuleList&) const = default;
    /// Index of the rule whose key() is @p key, or -1.
    int find(const QString& key) const;
};

struct RuleEngine
{
    QString name;
    std::vector<RuleList> models;
    const RuleList* model(const QString& name) const;
    RuleList* model(const QString& name);
    QStringList modelNames() const;
    bool operator==(const RuleEngine&) const = default;
};

/// Why a rule file (or one rule) cannot be used: "<file>: <where>: <reason>".
struct RuleError
{
    QString file;
    QString where; ///< e.g. `vllm/llama rule 3 "gemm(": ` or empty
    QString reason;
    QString message() const;
};

/// Checks a rule's regex (QRegularExpression/PCRE2, close to Python's `regex` for the patterns rule files use).
/// Returns an empty string, or the error with its offset.
QString validateRulePattern(const CategoryRule& rule);

/// A gputrc2graph rule file, `{engine: {model: {regex: category}}}`, key order being rule order, plus our optional
/// top-level `"_nsw"` object (gputrc2graph sees it as an unused engine):
/// `"_nsw": {"format": 1, "rules": {engine: {model: {key: {"match": "short", "note": "..."}}}}}`, written only
/// when a rule has a non-default name kind or a note. A file that was not edited is saved back byte for byte;
/// an edited one keeps its indentation and final newline.
class RuleDocument
{
public:
    static constexpr const char* kExtensionKey = "_nsw";

    /// Parses and validates (shape, regexes). @p fileName is used in errors only.
    static std::optional<RuleDocument> parse(const QByteArray& bytes, const QString& fileName, RuleError* error);
    static std::optional<RuleDocument> load(const QString& path, RuleError* error);

    std::vector<RuleEngine> engines;
    QString fileName;
    QStringList warnings; ///< e.g. duplicate keys (the later value wins, as in Python)

    const RuleEngine* engine(const QString& name) const;
    RuleEngine* engine(const QString& name);
    bool isModified() const { return m_original.isEmpty() || engines != m_loaded; }
    QByteArray serialize() const;
    /// Atomic write (QSaveFile); returns an empty string or the error naming the file.
    QString save(const QString& path) const;

private:
    QByteArray m_original;
    std::vector<RuleEngine> m_loaded;
    int m_indent = 2;
    char m_indentChar = ' ';
    bool m_trailingNewline = true;
};

} // namespace nsw

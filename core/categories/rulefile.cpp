// SPDX-License-Identifier: GPL-3.0-or-later
#include "rulefile.h"

#include "core/util/boundedregex.h"
#include "core/util/findby.h"
#include "core/util/stringlists.h"
#include "core/util/userfile.h"

#include <QFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

namespace nsw {

namespace {
using Json = nlohmann::ordered_json;
const QString kCaseInsensitivePrefix = QStringLiteral("(?i)");
constexpr int kExtensionFormat = 1;

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

QString typeName(const Json& j)
{
    return QString::fromLatin1(j.type_name());
}

QString ruleWhere(const QString& engine, const QString& model, int index, const QString& key)
{
    return QStringLiteral("%1/%2 rule %3 \"%4\"").arg(engine, model).arg(index + 1).arg(key);
}

bool fail(RuleError* error, const QString& file, const QString& where, const QString& reason)
{
    if (error)
        *error = RuleError { file, where, reason };
    return false;
}

bool parseExtension(const Json& ext, RuleDocument& doc, RuleError* error)
{
    const QString file = doc.fileName;
    const QString where = QString::fromLatin1(RuleDocument::kExtensionKey);
    if (!ext.is_object())
        return fail(error, file, where, QStringLiteral("expected an object, found %1").arg(typeName(ext)));
    if (const auto f = ext.find("format"); f != ext.end()) {
        if (!f->is_number_integer())
            return fail(error, file, where + QStringLiteral(".format"), QStringLiteral("expected an integer"));
        if (f->get<int>() > kExtensionFormat)
            doc.warnings.append(QStringLiteral("%1: %2 format %3 is newer than this version reads (%4); unknown "
                                               "fields are ignored")
                                    .arg(file, where)
                                    .arg(f->get<int>())
                                    .arg(kExtensionFormat));
    }
    const auto rules = ext.find("rules");
    if (rules == ext.end())
        return true;
    if (!rules->is_object())
        return fail(error, file, where + QStringLiteral(".rules"),
            QStringLiteral("expected an object, found %1").arg(typeName(*rules)));
    for (const auto& [engineKey, models] : rules->items()) {
        const QString engineName = fromStd(engineKey);
        RuleEngine* engine = doc.engine(engineName);
        if (!models.is_object())
            return fail(error, file, where + QStringLiteral(".rules.") + engineName,
                QStringLiteral("expected an object, found %1").arg(typeName(models)));
        for (const auto& [modelKey, entries] : models.items()) {
            const QString modelName = fromStd(modelKey);
            RuleList* list = engine ? engine->model(modelName) : nullptr;
            const QString at = where + QStringLiteral(".rules.%1.%2").arg(engineName, modelName);
            if (!entries.is_object())
                return fail(error, file, at, QStringLiteral("expected an object, found %1").arg(typeName(entries)));
            for (const auto& [ruleKey, value] : entries.items()) {
                const QString key = fromStd(ruleKey);
                if (!value.is_object())
                    return fail(error, file, at + QStringLiteral(" \"%1\"").arg(key),
                        QStringLiteral("expected an object, found %1").arg(typeName(value)));
                const int index = list ? list->find(key) : -1;
                if (index < 0) {
                    doc.warnings.append(QStringLiteral("%1: %2 \"%3\": no such rule; ignored").arg(file, at, key));
                    continue;
                }
                CategoryRule& rule = list->rules[std::size_t(index)];
                if (const auto m = value.find("match"); m != value.end()) {
                    const QString match = m->is_string() ? fromStd(m->get<std::string>()) : QString();
                    if (match == QLatin1String("short"))
                        rule.name = RuleNameKind::Short;
                    else if (match == QLatin1String("demangled"))
                        rule.name = RuleNameKind::Demangled;
                    else
                        return fail(error, file, at + QStringLiteral(" \"%1\"").arg(key),
                            QStringLiteral("\"match\" must be \"demangled\" or \"short\""));
                }
                if (const auto n = value.find("note"); n != value.end()) {
                    if (!n->is_string())
                        return fail(error, file, at + QStringLiteral(" \"%1\"").arg(key),
                            QStringLiteral("\"note\" must be a string"));
                    rule.note = fromStd(n->get<std::string>());
                }
            }
        }
    }
    return true;
}

/// Duplicate member names are legal JSON; Python keeps the first position and the last value, and so does
/// ordered_json. They are reported, since a duplicated pattern is almost always a mistake.
/// More rules than any categorisation could use (kMaxRuleSearches is 10 million regex searches, a few thousand names).
constexpr std::size_t kMaxRulesPerObject = 20'000;

/// The key count of the largest object, in one linear pass over the text. ordered_json keeps an object's keys in a
/// vector and looks every new key up in it, so a 100,000-rule file would take minutes to parse: such a file is refused
/// before that parse.
class LargestObject : public nlohmann::json_sax<Json>
{
public:
    std::size_t largest = 0;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override
    {
        m_counts.push_back(0);
        return true;
    }
    bool key(string_t&) override
    {
        if (!m_counts.empty())
            largest = std::max(largest, ++m_counts.back());
        return true;
    }
    bool end_object() override { return pop(); }
    bool start_array(std::size_t) override
    {
        m_counts.push_back(0); // an array holds no keys; its entry keeps the stack in step
        return true;
    }
    bool end_array() override { return pop(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    bool pop()
    {
        if (!m_counts.empty())
            m_counts.pop_back();
        return true;
    }
    std::vector<std::size_t> m_counts;
};

class DuplicateKeys
{
public:
    Json::parser_callback_t callback()
    {
        return [this](int, Json::parse_event_t event, Json& parsed) {
            using E = Json::parse_event_t;
            if (event == E::object_start || event == E::array_start)
                m_stack.emplace_back();
            else if ((event == E::object_end || event == E::array_end) && !m_stack.empty())
                m_stack.pop_back();
            else if (event == E::key && !m_stack.empty() && !m_stack.back().insert(parsed.get<std::string>()).second)
                duplicates.append(fromStd(parsed.get<std::string>()));
            return true;
        };
    }
    QStringList duplicates;

private:
    std::vector<std::set<std::string>> m_stack;
};
} // namespace

QString CategoryRule::key() const
{
    return caseInsensitive ? kCaseInsensitivePrefix + pattern : pattern;
}

CategoryRule CategoryRule::fromKey(const QString& key, const QString& category)
{
    CategoryRule rule;
    rule.caseInsensitive = key.startsWith(kCaseInsensitivePrefix);
    rule.pattern = rule.caseInsensitive ? key.mid(kCaseInsensitivePrefix.size()) : key;
    rule.category = category;
    return rule;
}

int RuleList::find(const QString& key) const
{
    for (std::size_t i = 0; i < rules.size(); ++i)
        if (rules[i].key() == key)
            return int(i);
    return -1;
}

const RuleList* RuleEngine::model(const QString& modelName) const
{
    return findBy(models, &RuleList::model, modelName);
}

RuleList* RuleEngine::model(const QString& modelName)
{
    return findBy(models, &RuleList::model, modelName);
}

QStringList RuleEngine::modelNames() const
{
    return textsOf(models, &RuleList::model);
}

QString RuleError::message() const
{
    QString text = file;
    if (!where.isEmpty())
        text += QStringLiteral(": ") + where;
    return text + QStringLiteral(": ") + reason;
}

QString validateRulePattern(const CategoryRule& rule)
{
    QRegularExpression re(rule.key());
    if (!re.isValid())
        return QStringLiteral("invalid regular expression at offset %1: %2")
            .arg(re.patternErrorOffset())
            .arg(re.errorString());
    if (const qsizetype at = pcreRecursionAt(rule.key()); at >= 0)
        return QStringLiteral("recursion at offset %1 is not in Python's re, which gputrc2graph reads rule files with")
            .arg(at);
    return {};
}

std::optional<RuleDocument> RuleDocument::parse(const QByteArray& bytes, const QString& fileName, RuleError* error)
{
    RuleDocument doc;
    doc.fileName = fileName;
    Json root;
    // A syntax error is left to the parse below, which says where it is.
    LargestObject sizes;
    if (Json::sax_parse(bytes.constData(), bytes.constData() + bytes.size(), &sizes)
        && sizes.largest > kMaxRulesPerObject) {
        fail(error, fileName, {},
            QStringLiteral(
                "an object of %1 keys: more than the %2 rules a rule file may hold (each rule is a regex search "
                "over every kernel name)")
                .arg(sizes.largest)
                .arg(kMaxRulesPerObject));
        return std::nullopt;
    }
    DuplicateKeys duplicates;
    try {
        root = Json::parse(bytes.constData(), bytes.constData() + bytes.size(), duplicates.callback());
    } catch (const Json::parse_error& e) {
        QString what = QString::fromUtf8(e.what());
        what.remove(QRegularExpression(QStringLiteral("^\\[json\\.exception\\.[a-z_]+\\.\\d+\\] ")));
        fail(error, fileName, {}, QStringLiteral("not valid JSON: ") + what);
        return std::nullopt;
    }
    if (!root.is_object()) {
        fail(error, fileName, {},
            QStringLiteral("expected a JSON object {engine: {model: {regex: category}}}, found %1")
                .arg(typeName(root)));
        return std::nullopt;
    }
    const Json* extension = nullptr;
    for (const auto& [engineKey, models] : root.items()) {
        if (engineKey == kExtensionKey) {
            extension = &models;
            continue;
        }
        RuleEngine engine;
        engine.name = fromStd(engineKey);
        if (!models.is_object()) {
            fail(error, fileName, QStringLiteral("engine \"%1\"").arg(engine.name),
                QStringLiteral("expected an object of models, found %1").arg(typeName(models)));
            return std::nullopt;
        }
        for (const auto& [modelKey, rules] : models.items()) {
            RuleList list;
            list.engine = engine.name;
            list.model = fromStd(modelKey);
            if (!rules.is_object()) {
                fail(error, fileName, QStringLiteral("%1/%2").arg(engine.name, list.model),
                    QStringLiteral("expected an object of {regex: category}, found %1").arg(typeName(rules)));
                return std::nullopt;
            }
            for (const auto& [ruleKey, category] : rules.items()) {
                const QString key = fromStd(ruleKey);
                const QString where = ruleWhere(engine.name, list.model, int(list.rules.size()), key);
                if (!category.is_string()) {
                    fail(error, fileName, where,
                        QStringLiteral("the category must be a string, found %1").arg(typeName(category)));
                    return std::nullopt;
                }
                CategoryRule rule = CategoryRule::fromKey(key, fromStd(category.get<std::string>()));
                if (const QString invalid = validateRulePattern(rule); !invalid.isEmpty()) {
                    fail(error, fileName, where, invalid);
                    return std::nullopt;
                }
                list.rules.push_back(std::move(rule));
            }
            engine.models.push_back(std::move(list));
        }
        doc.engines.push_back(std::move(engine));
    }
    if (extension && !parseExtension(*extension, doc, error))
        return std::nullopt;
    for (const QString& d : std::as_const(duplicates.duplicates))
        doc.warnings.append(
            QStringLiteral("%1: \"%2\" appears twice in one object; the later value is used").arg(fileName, d));

    doc.m_original = bytes;
    doc.m_loaded = doc.engines;
    doc.m_trailingNewline = bytes.endsWith('\n');
    const qsizetype newline = bytes.indexOf('\n');
    if (newline < 0) {
        doc.m_indent = -1;
    } else {
        int n = 0;
        qsizetype i = newline + 1;
        const char c = i < bytes.size() ? bytes[i] : ' ';
        doc.m_indentChar = c == '\t' ? '\t' : ' ';
        while (i < bytes.size() && bytes[i] == doc.m_indentChar) {
            ++n;
            ++i;
        }
        doc.m_indent = n > 0 ? n : 2;
    }
    return doc;
}

std::optional<RuleDocument> RuleDocument::load(const QString& path, RuleError* error)
{
    QString reason;
    const std::optional<QByteArray> bytes = readUserFile(path, &reason);
    if (!bytes) {
        fail(error, path, {}, reason);
        return std::nullopt;
    }
    return parse(*bytes, path, error);
}

const RuleEngine* RuleDocument::engine(const QString& name) const
{
    return findBy(engines, &RuleEngine::name, name);
}

RuleEngine* RuleDocument::engine(const QString& name)
{
    return findBy(engines, &RuleEngine::name, name);
}

QByteArray RuleDocument::serialize() const
{
    if (!isModified())
        return m_original;
    Json root = Json::object();
    Json extRules = Json::object();
    for (const RuleEngine& engine : engines) {
        Json models = Json::object();
        for (const RuleList& list : engine.models) {
            Json rules = Json::object();
            for (const CategoryRule& rule : list.rules) {
                rules[rule.key().toStdString()] = rule.category.toStdString();
                if (rule.name == RuleNameKind::Demangled && rule.note.isEmpty())
                    continue;
                Json ext = Json::object();
                if (rule.name == RuleNameKind::Short)
                    ext["match"] = "short";
                if (!rule.note.isEmpty())
                    ext["note"] = rule.note.toStdString();
                extRules[engine.name.toStdString()][list.model.toStdString()][rule.key().toStdString()] = ext;
            }
            models[list.model.toStdString()] = std::move(rules);
        }
        root[engine.name.toStdString()] = std::move(models);
    }
    if (!extRules.empty()) {
        Json ext = Json::object();
        ext["format"] = kExtensionFormat;
        ext["rules"] = std::move(extRules);
        root[kExtensionKey] = std::move(ext);
    }
    QByteArray bytes = QByteArray::fromStdString(root.dump(m_indent, m_indentChar, false));
    if (m_trailingNewline)
        bytes += '\n';
    return bytes;
}

QString RuleDocument::save(const QString& path) const
{
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(path, out.errorString());
    out.write(serialize());
    if (!out.commit())
        return QStringLiteral("%1: %2").arg(path, out.errorString());
    return {};
}

} // namespace nsw

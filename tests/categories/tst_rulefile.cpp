// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/categories/rulefile.h"
#include "core/categories/rulelibrary.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace nsw;

namespace {
// A file in gputrc2graph's format and layout (json.dump(indent=2), no final newline), written for this test.
const QByteArray kCompatible = "{\n"
                               "  \"eng\": {\n"
                               "    \"dense\": {\n"
                               "      \"gemm|nvjet\": \"gemm\",\n"
                               "      \"(?i)flash\": \"attn\",\n"
                               "      \"CUDA mem\": \"memops\",\n"
                               "      \".*\": \"misc\"\n"
                               "    },\n"
                               "    \"moe\": {\n"
                               "      \"fused_moe\": \"moe_gemm\",\n"
                               "      \".*\": \"misc\"\n"
                               "    }\n"
                               "  }\n"
                               "}";

QStringList keys(const RuleList& list)
{
    QStringList k;
    for (const CategoryRule& r : list.rules)
        k.append(r.key() + QStringLiteral("=") + r.category);
    return k;
}
} // namespace

namespace {
/// {"e": {"m": {"r0": "c", "r1": "c", ...}}} with @p count rules.
QByteArray manyRules(int count)
{
    QByteArray json = "{\"e\": {\"m\": {";
    for (int i = 0; i < count; ++i)
        json += (i ? ", \"r" : "\"r") + QByteArray::number(i) + "\": \"c\"";
    return json + "}}}";
}
} // namespace

class TestRuleFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesInFileOrder()
    {
        RuleError error;
        const auto doc = RuleDocument::parse(kCompatible, QStringLiteral("eng.json"), &error);
        QVERIFY2(doc, qPrintable(error.message()));
        QCOMPARE(doc->engines.size(), std::size_t(1));
        const RuleEngine& e = doc->engines[0];
        QCOMPARE(e.name, QStringLiteral("eng"));
        QCOMPARE(e.modelNames(), QStringList({ QStringLiteral("dense"), QStringLiteral("moe") }));
        QCOMPARE(keys(*e.model(QStringLiteral("dense"))),
            QStringList({ QStringLiteral("gemm|nvjet=gemm"), QStringLiteral("(?i)flash=attn"),
                QStringLiteral("CUDA mem=memops"), QStringLiteral(".*=misc") }));
        const CategoryRule& flash = e.model(QStringLiteral("dense"))->rules[1];
        QVERIFY(flash.caseInsensitive);
        QCOMPARE(flash.pattern, QStringLiteral("flash"));
        QVERIFY(!e.model(QStringLiteral("dense"))->rules[0].caseInsensitive);
        QVERIFY(doc->warnings.isEmpty());
    }

    void roundTripIsByteForByte_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("gputrc2graph layout, no final newline") << kCompatible;
        QTest::newRow("final newline") << kCompatible + '\n';
        QByteArray fourSpaces = kCompatible;
        fourSpaces.replace("\n  ", "\n    ");
        QTest::newRow("other indentation") << fourSpaces;
        QTest::newRow("one line, odd spacing") << QByteArray("{\"e\":{\"m\":{\"a\" :\"x\",\".*\":\"misc\"}}}");
        QTest::newRow("non-ASCII and escapes")
            << QByteArray("{\n  \"e\": {\n    \"m\": {\n      \"caf\xc3\xa9\\\\d+\": "
                          "\"\\u00e9t\\u00e9\"\n    }\n  }\n}\n");
        for (const QString& name : RuleLibrary::shippedSetNames()) {
            QFile f(QStringLiteral(":/rules/%1.json").arg(name));
            RuleLibrary::shippedSet(name); // makes sure the resources are registered
            QVERIFY(f.open(QIODevice::ReadOnly));
            QTest::newRow(qPrintable(QStringLiteral("shipped %1").arg(name))) << f.readAll();
        }
    }

    void roundTripIsByteForByte()
    {
        QFETCH(QByteArray, bytes);
        RuleError error;
        const auto doc = RuleDocument::parse(bytes, QStringLiteral("t.json"), &error);
        QVERIFY2(doc, qPrintable(error.message()));
        QVERIFY(!doc->isModified());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.json"));
        QCOMPARE(doc->save(path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), bytes);
    }

    void editKeepsLayout()
    {
        auto doc = RuleDocument::parse(kCompatible, QStringLiteral("eng.json"), nullptr);
        QVERIFY(doc);
        RuleList* dense = doc->engine(QStringLiteral("eng"))->model(QStringLiteral("dense"));
        dense->rules[0].pattern = QStringLiteral("gemm|nvjet|cutlass");
        QVERIFY(doc->isModified());
        QByteArray expected = kCompatible;
        expected.replace("\"gemm|nvjet\"", "\"gemm|nvjet|cutlass\"");
        QCOMPARE(doc->serialize(), expected);
        // Undoing the edit gives back the original bytes.
        dense->rules[0].pattern = QStringLiteral("gemm|nvjet");
        QCOMPARE(doc->serialize(), kCompatible);
    }

    void extensionIsWrittenOnlyWhenUsed()
    {
        auto doc = RuleDocument::parse(kCompatible, QStringLiteral("eng.json"), nullptr);
        QVERIFY(doc);
        RuleList* dense = doc->engine(QStringLiteral("eng"))->model(QStringLiteral("dense"));
        dense->rules[1].name = RuleNameKind::Short;
        dense->rules[1].note = QStringLiteral("FA2 and FA3");
        const QByteArray bytes = doc->serialize();
        // The compatible part is unchanged; the extension comes last, keyed like the rules.
        QVERIFY(bytes.startsWith(kCompatible.left(kCompatible.size() - 2)));
        QVERIFY(
            bytes.contains("\"_nsw\": {\n    \"format\": 1,\n    \"rules\": {\n      \"eng\": {\n        \"dense\": "
                           "{\n          \"(?i)flash\": {\n            \"match\": \"short\",\n            "
                           "\"note\": \"FA2 and FA3\""));
        const auto again = RuleDocument::parse(bytes, QStringLiteral("eng.json"), nullptr);
        QVERIFY(again);
        QCOMPARE(again->engines, doc->engines);
        QVERIFY(!again->engine(QStringLiteral("_nsw")));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("not JSON") << QByteArray("{\"e\": {") << QStringLiteral("f.json: not valid JSON: parse error");
        QTest::newRow("top level array") << QByteArray("[]")
                                         << QStringLiteral("f.json: expected a JSON object {engine: {model: {regex: "
                                                           "category}}}, found array");
        QTest::newRow("engine not an object") << QByteArray(
            "{\"e\": 3}") << QStringLiteral("f.json: engine \"e\": expected an object of models, found number");
        QTest::newRow("model not an object")
            << QByteArray("{\"e\": {\"m\": [\"a\"]}}")
            << QStringLiteral("f.json: e/m: expected an object of {regex: category}, found array");
        QTest::newRow("category not a string")
            << QByteArray("{\"e\": {\"m\": {\"a\": \"x\", \"b\": 1}}}")
            << QStringLiteral("f.json: e/m rule 2 \"b\": the category must be a string, found number");
        QTest::newRow("bad regex") << QByteArray("{\"e\": {\"m\": {\"ok\": \"x\", \"gemm(\": \"y\"}}}")
                                   << QStringLiteral("f.json: e/m rule 2 \"gemm(\": invalid regular expression at "
                                                     "offset 5: missing closing parenthesis");
        QTest::newRow("recursion (?R), which Python's re rejects")
            << QByteArray(R"j({"e": {"m": {"^(a|b(?R))$": "x"}}})j")
            << QStringLiteral("f.json: e/m rule 1 \"^(a|b(?R))$\": recursion at offset 5 is not in Python's re");
        QTest::newRow("numbered subroutine call (?1)") << QByteArray(R"j({"e": {"m": {"(ab)(?1)": "x"}}})j")
                                                       << QStringLiteral("f.json: e/m rule 1 \"(ab)(?1)\": recursion");
        QTest::newRow("relative call (?-1)") << QByteArray(R"j({"e": {"m": {"(ab)(?-1)": "x"}}})j")
                                             << QStringLiteral("f.json: e/m rule 1 \"(ab)(?-1)\": recursion");
        QTest::newRow("named call (?&n)") << QByteArray(R"j({"e": {"m": {"(?<n>ab)(?&n)": "x"}}})j")
                                          << QStringLiteral("f.json: e/m rule 1 \"(?<n>ab)(?&n)\": recursion");
        QTest::newRow("bad extension")
            << QByteArray("{\"e\": {\"m\": {\"a\": \"x\"}}, \"_nsw\": {\"rules\": {\"e\": {\"m\": {\"a\": {\"match\": "
                          "\"mangled\"}}}}}}")
            << QStringLiteral("f.json: _nsw.rules.e.m \"a\": \"match\" must be \"demangled\" or \"short\"");
        QTest::newRow("20,001 rules in one model") << manyRules(20'001)
                                                   << QStringLiteral("f.json: an object of 20001 keys: more than the "
                                                                     "20000 rules a rule file may hold");
    }

    void errors()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        RuleError error;
        QVERIFY(!RuleDocument::parse(bytes, QStringLiteral("f.json"), &error));
        QVERIFY2(error.message().startsWith(message), qPrintable(error.message()));
    }

    void unreadableFile()
    {
        RuleError error;
        QVERIFY(!RuleDocument::load(QStringLiteral("/nonexistent/rules.json"), &error));
        QVERIFY(error.message().startsWith(QStringLiteral("/nonexistent/rules.json: ")));
    }

    void pythonCompatibleLookalikesAccepted_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::newRow("escaped parenthesis") << QStringLiteral(R"(\(?R\))");
        QTest::newRow("inside a character class") << QStringLiteral("[(?R)]+");
        QTest::newRow("class starting with ]") << QStringLiteral("[](?R)]x");
        QTest::newRow("optional group then R") << QStringLiteral("(a)?R");
        QTest::newRow("case-insensitive flag") << QStringLiteral("(?i)gemm");
        QTest::newRow("named group") << QStringLiteral("(?P<n>ab)(?P=n)");
    }

    void pythonCompatibleLookalikesAccepted()
    {
        QFETCH(QString, pattern);
        CategoryRule rule;
        rule.pattern = pattern;
        QCOMPARE(validateRulePattern(rule), QString());
    }

    /// A FIFO would block the read until a writer comes and a device never ends: refused before opening.
    void specialFilesRefused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        QTest::newRow("character device") << QStringLiteral("/dev/zero") << QStringLiteral("not a regular file");
        QTest::newRow("FIFO") << QStringLiteral("fifo") << QStringLiteral("not a regular file");
        QTest::newRow("directory") << QStringLiteral(".") << QStringLiteral("not a regular file");
        QTest::newRow("over 16 MB") << QStringLiteral("big.json") << QStringLiteral("larger than 16 MB");
    }

    void specialFilesRefused()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        if (path == QLatin1String("fifo")) {
            path = dir.filePath(path);
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        } else if (path == QLatin1String("big.json")) {
            path = dir.filePath(path);
            QFile big(path);
            QVERIFY(big.open(QIODevice::WriteOnly));
            QVERIFY(big.resize((qint64(16) << 20) + 1));
        } else if (path == QLatin1String(".")) {
            path = dir.path();
        }
        RuleError error;
        QVERIFY(!RuleDocument::load(path, &error));
        QCOMPARE(error.file, path);
        QVERIFY2(error.reason.startsWith(reason), qPrintable(error.message()));
    }

    void duplicateKeysWarn()
    {
        const auto doc = RuleDocument::parse(
            "{\"e\": {\"m\": {\"a\": \"x\", \"b\": \"y\", \"a\": \"z\"}}}", QStringLiteral("f.json"), nullptr);
        QVERIFY(doc);
        // As Python's dict: first position, last value.
        QCOMPARE(keys(*doc->engines[0].model(QStringLiteral("m"))),
            QStringList({ QStringLiteral("a=z"), QStringLiteral("b=y") }));
        QCOMPARE(doc->warnings.size(), 1);
        QVERIFY(doc->warnings[0].contains(QStringLiteral("\"a\" appears twice")));
    }

    void laterFileReplacesEngine()
    {
        RuleLibrary library;
        library.add({ RuleSource::External, QStringLiteral("a.json"),
            *RuleDocument::parse(
                "{\"x\": {\"m1\": {\"a\": \"A\"}, \"m2\": {\"b\": \"B\"}}, \"y\": {\"m\": {\"c\": \"C\"}}}",
                QStringLiteral("a.json"), nullptr) });
        library.add({ RuleSource::External, QStringLiteral("b.json"),
            *RuleDocument::parse("{\"z\": {\"m\": {\"d\": \"D\"}}, \"x\": {\"m3\": {\"e\": \"E\"}}}",
                QStringLiteral("b.json"), nullptr) });
        // dict.update: x keeps its first position but is b.json's x, whole (m1 and m2 are gone).
        QCOMPARE(library.engines(), QStringList({ QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z") }));
        QCOMPARE(library.models(QStringLiteral("x")), QStringList({ QStringLiteral("m3") }));
        QVERIFY(!library.find(QStringLiteral("x"), QStringLiteral("m1")));
        QCOMPARE(library.find(QStringLiteral("y"), QStringLiteral("m"))->rules[0].category, QStringLiteral("C"));
        QCOMPARE(library.sourceOf(QStringLiteral("x")), 1);
        QString error;
        QVERIFY(!library.find(QStringLiteral("w"), QStringLiteral("m"), &error));
        QCOMPARE(error, QStringLiteral("a.json, b.json: no engine \"w\" (engines: x, y, z)"));
        QVERIFY(!library.find(QStringLiteral("x"), QStringLiteral("m1"), &error));
        QCOMPARE(error, QStringLiteral("b.json: engine \"x\" has no model \"m1\" (models: m3)"));
    }

    void shippedSetsEndInCatchAll()
    {
        for (const QString& name : RuleLibrary::shippedSetNames()) {
            const RuleSource s = RuleLibrary::shippedSet(name);
            QVERIFY2(!s.document.engines.empty(), qPrintable(name));
            QVERIFY(s.document.warnings.isEmpty());
            for (const RuleEngine& e : s.document.engines)
                for (const RuleList& m : e.models) {
                    QVERIFY(m.rules.size() > 5);
                    QCOMPARE(m.rules.back().pattern, QStringLiteral(".*"));
                }
        }
    }
};

QTEST_GUILESS_MAIN(TestRuleFile)
#include "tst_rulefile.moc"

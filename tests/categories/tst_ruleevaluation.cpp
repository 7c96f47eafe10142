// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/categories/ruleevaluation.h"
#include "core/categories/rulelibrary.h"
#include "core/util/boundedregex.h"

#include <QTest>

using namespace nsw;

namespace {
CategoryRule rule(
    const QString& pattern, const QString& category, bool ci = false, RuleNameKind kind = RuleNameKind::Demangled)
{
    CategoryRule r;
    r.pattern = pattern;
    r.category = category;
    r.caseInsensitive = ci;
    r.name = kind;
    return r;
}

RuleList list(std::vector<CategoryRule> rules)
{
    RuleList l;
    l.engine = QStringLiteral("e");
    l.model = QStringLiteral("m");
    l.rules = std::move(rules);
    return l;
}

NameSet names(const QStringList& demangled, const QStringList& shortNames = {})
{
    NameSet s;
    s.demangled = demangled;
    s.shortNames = shortNames.isEmpty() ? demangled : shortNames;
    return s;
}
} // namespace

class TestRuleEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void firstMatchWinsInOrder_data()
    {
        QTest::addColumn<QStringList>("patterns");
        QTest::addColumn<QList<int>>("winners");
        const QStringList n = { QStringLiteral("void fused_moe_gemm_kernel<int>(int)"), QStringLiteral("sgemm_128"),
            QStringLiteral("[CUDA memcpy Host-to-Device]") };
        // Search anywhere in the name (re.search), not at the start (re.match).
        QTest::newRow("moe first") << QStringList { QStringLiteral("moe"), QStringLiteral("gemm"),
            QStringLiteral(".*") } << QList<int> { 0, 1, 2 };
        QTest::newRow("gemm first takes the MoE GEMM") << QStringList { QStringLiteral("gemm"), QStringLiteral("moe"),
            QStringLiteral(".*") } << QList<int> { 0, 0, 2 };
        QTest::newRow("anchored pattern")
            << QStringList { QStringLiteral("^gemm"), QStringLiteral("^sgemm") } << QList<int> { -1, 1, -1 };
        QTest::newRow("no catch-all leaves names unmatched")
            << QStringList { QStringLiteral("CUDA mem") } << QList<int> { -1, -1, 0 };
    }

    void firstMatchWinsInOrder()
    {
        QFETCH(QStringList, patterns);
        QFETCH(QList<int>, winners);
        std::vector<CategoryRule> rules;
        for (const QString& p : patterns)
            rules.push_back(rule(p, p));
        RuleMatchCache cache(names({ QStringLiteral("void fused_moe_gemm_kernel<int>(int)"),
            QStringLiteral("sgemm_128"), QStringLiteral("[CUDA memcpy Host-to-Device]") }));
        const RuleEvaluation e = evaluateRules(list(rules), cache, nullptr);
        QCOMPARE(QList<int>(e.ruleOfName.begin(), e.ruleOfName.end()), winners);
    }

    /// A catastrophic pattern is stopped at its budget and said to be, never read as "no match" in silence; the
    /// names it could not decide go to the next rule, as names it does not match do.
    void catastrophicPatternIsFlagged_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QList<int>>("winners");
        QTest::addColumn<int>("overBudget");
        QTest::addColumn<int>("notTried");
        // Names: 0 and 1 are 40 a's then "!1" / "!2" (exponential for ^(a+)+$), 2 is "gemm", 3 to 6 more long runs.
        // Searched in order: over budget on names 0, 1 and 3 (the third), so names 4 to 6 are not tried.
        QTest::newRow("nested quantifier") << QStringLiteral("^(a+)+$") << QList<int> { 1, 1, 2, 1, 1, 1, 1 } << 3 << 3;
        QTest::newRow("alternation hiding a cheap branch")
            << QStringLiteral("^(a+)+$|!1$") << QList<int> { 1, 1, 2, 1, 1, 1, 1 } << 3 << 3;
        QTest::newRow("ordinary pattern stays within budget")
            << QStringLiteral("a!1$") << QList<int> { 0, 1, 2, 1, 1, 1, 1 } << 0 << 0;
    }

    void catastrophicPatternIsFlagged()
    {
        QFETCH(QString, pattern);
        QFETCH(QList<int>, winners);
        QFETCH(int, overBudget);
        QFETCH(int, notTried);
        const QString run(40, QLatin1Char('a'));
        RuleMatchCache cache(names({ run + QStringLiteral("!1"), run + QStringLiteral("!2"), QStringLiteral("gemm"),
            run + QStringLiteral("!3"), run + QStringLiteral("!4"), run + QStringLiteral("!5"),
            run + QStringLiteral("!6") }));
        const RuleEvaluation e = evaluateRules(
            list({ rule(pattern, QStringLiteral("slow")), rule(QStringLiteral("!"), QStringLiteral("bang")),
                rule(QStringLiteral("gemm"), QStringLiteral("gemm")) }),
            cache, nullptr);
        QCOMPARE(QList<int>(e.ruleOfName.begin(), e.ruleOfName.end()), winners);
        const RuleDiagnostic& d = e.rules[0];
        QCOMPARE(d.namesOverBudget, overBudget);
        QCOMPARE(d.namesNotTried, notTried);
        if (overBudget == 0) {
            QCOMPARE(ruleBudgetText(d), QString());
            return;
        }
        QCOMPARE(d.firstOverBudget, run + QStringLiteral("!1"));
        QVERIFY2(ruleStatusText(d).contains(QStringLiteral("too expensive on '%1!1' and 2 other names, not tried on 3 "
                                                           "more names")
                                                .arg(run)),
            qPrintable(ruleStatusText(d)));
    }

    /// A file of many catastrophic rules: the first kMaxOverBudgetTotal over-budget searches (3 names each, so
    /// 10 rules) have the full budget, the rest the spent one; an ordinary rule after them still finds its names.
    void manyCatastrophicRulesShareOneBudget_data()
    {
        QTest::addColumn<int>("rule");
        QTest::addColumn<unsigned>("limit");
        QTest::newRow("first rule: full budget") << 0 << BoundedRegex::kMatchLimit;
        QTest::newRow("tenth rule: full budget (27 searches over before it)") << 9 << BoundedRegex::kMatchLimit;
        QTest::newRow("eleventh rule: spent budget (30 over before it)") << 10 << BoundedRegex::kSpentMatchLimit;
        QTest::newRow("last catastrophic rule") << 39 << BoundedRegex::kSpentMatchLimit;
    }

    void manyCatastrophicRulesShareOneBudget()
    {
        QFETCH(int, rule);
        QFETCH(unsigned, limit);
        const QString run(40, QLatin1Char('a'));
        std::vector<CategoryRule> rules;
        for (int r = 0; r < 40; ++r)
            rules.push_back(::rule(QStringLiteral("^(a+)+$|zz%1").arg(r), QStringLiteral("slow %1").arg(r)));
        rules.push_back(::rule(QStringLiteral("^gemm"), QStringLiteral("gemm")));
        RuleMatchCache cache(names({ run + QStringLiteral("!1"), run + QStringLiteral("!2"), run + QStringLiteral("!3"),
            run + QStringLiteral("!4"), QStringLiteral("gemm_kernel") }));
        const RuleEvaluation e = evaluateRules(list(rules), cache, nullptr);
        const RuleDiagnostic& d = e.rules[std::size_t(rule)];
        QCOMPARE(d.matchLimit, limit);
        QCOMPARE(d.namesOverBudget, 3);
        QCOMPARE(d.namesNotTried, 2); // the fourth catastrophic name and gemm_kernel
        QVERIFY2(
            ruleStatusText(d).contains(QStringLiteral("budget of %1 steps").arg(limit)), qPrintable(ruleStatusText(d)));
        QCOMPARE(e.ruleOfName.back(), 40); // the ordinary rule at the end
        QCOMPARE(e.rules.back().namesOverBudget, 0);
    }

    /// The budget must not change what an ordinary pattern finds in a long name (a demangled template name).
    void longNamesWithinBudget()
    {
        QString name = QStringLiteral("void cutlass::Kernel<");
        for (int i = 0; i < 400; ++i)
            name += QStringLiteral("cutlass::gemm::GemmShape<128, 256, 64>, ");
        name += QStringLiteral("flash_fwd>(Params)");
        RuleMatchCache cache(names({ name }));
        const RuleEvaluation e = evaluateRules(list({ rule(QStringLiteral(".*flash.*"), QStringLiteral("flash")),
                                                   rule(QStringLiteral("(\\w+::)+Kernel"), QStringLiteral("k")) }),
            cache, nullptr);
        QCOMPARE(e.ruleOfName.front(), 0);
        QCOMPARE(e.rules[0].namesOverBudget, 0);
        QCOMPARE(e.rules[1].namesOverBudget, 0);
    }

    void caseFlag()
    {
        RuleMatchCache cache(
            names({ QStringLiteral("vllm::rotary_embedding_kernel"), QStringLiteral("RotaryKernel") }));
        // Case-sensitive by default, as Python's re.search: "Rotary" misses the lower-case kernel.
        RuleEvaluation e
            = evaluateRules(list({ rule(QStringLiteral("Rotary"), QStringLiteral("rope")) }), cache, nullptr);
        QCOMPARE(e.ruleOfName, (std::vector<int> { -1, 0 }));
        e = evaluateRules(list({ rule(QStringLiteral("Rotary"), QStringLiteral("rope"), true) }), cache, nullptr);
        QCOMPARE(e.ruleOfName, (std::vector<int> { 0, 0 }));
        // The flag is the "(?i)" prefix gputrc2graph understands too.
        QCOMPARE(CategoryRule::fromKey(QStringLiteral("(?i)Rotary"), QStringLiteral("rope")),
            rule(QStringLiteral("Rotary"), QStringLiteral("rope"), true));
    }

    void shortNameMatch()
    {
        RuleMatchCache cache(names({ QStringLiteral("void ns::gemv_kernel<float>(float)"), QStringLiteral("other") },
            { QStringLiteral("gemv_kernel"), QStringLiteral("void") }));
        // "^gemv" only finds the short name; "void" only the demangled one.
        RuleEvaluation e
            = evaluateRules(list({ rule(QStringLiteral("^gemv"), QStringLiteral("gemm"), false, RuleNameKind::Short) }),
                cache, nullptr);
        QCOMPARE(e.ruleOfName, (std::vector<int> { 0, -1 }));
        e = evaluateRules(list({ rule(QStringLiteral("^gemv"), QStringLiteral("gemm")) }), cache, nullptr);
        QCOMPARE(e.ruleOfName, (std::vector<int> { -1, -1 }));
    }

    void shadowing()
    {
        RuleMatchCache profile(names({ QStringLiteral("flash_fwd_kernel"), QStringLiteral("nvjet_tst_1"),
            QStringLiteral("fused_moe_kernel"), QStringLiteral("weird_kernel") }));
        RuleMatchCache representative(names({ QStringLiteral("flash_fwd_kernel"), QStringLiteral("gemv2T_val") }));
        const RuleList rules = list({
            rule(QStringLiteral("flash|kernel"), QStringLiteral("attn")), // 1: takes every "kernel"
            rule(QStringLiteral("nvjet"), QStringLiteral("gemm")), // 2: wins nvjet
            rule(QStringLiteral("fused_moe"), QStringLiteral("moe")), // 3: shadowed by 1
            rule(QStringLiteral("gemv"), QStringLiteral("gemm")), // 4: wins only on the representative set
            rule(QStringLiteral("does_not_exist"), QStringLiteral("x")), // 5: matches nothing
            rule(QStringLiteral("gemm("), QStringLiteral("x")), // 6: invalid
            rule(QStringLiteral(".*"), QStringLiteral("misc")), // 7: catch-all, wins nothing here
        });
        const RuleEvaluation e = evaluateRules(rules, profile, &representative);
        QCOMPARE(e.ruleOfName, (std::vector<int> { 0, 1, 0, 0 }));
        QCOMPARE(e.rules[0].status, RuleDiagnostic::Wins);
        QCOMPARE(e.rules[0].namesWon, 3);
        QCOMPARE(e.rules[1].status, RuleDiagnostic::Wins);
        QCOMPARE(e.rules[2].status, RuleDiagnostic::Shadowed);
        QCOMPARE(e.rules[2].shadowedBy, 0);
        QCOMPARE(e.rules[2].namesMatched, 1);
        QCOMPARE(ruleStatusText(e.rules[2]), QStringLiteral("shadowed by rule 1"));
        QCOMPARE(e.rules[3].status, RuleDiagnostic::Wins);
        QCOMPARE(e.rules[3].namesWon, 0);
        QCOMPARE(e.rules[3].representativeWon, 1);
        QCOMPARE(e.rules[4].status, RuleDiagnostic::Unused);
        QCOMPARE(e.rules[5].status, RuleDiagnostic::Invalid);
        QVERIFY(e.rules[5].error.contains(QStringLiteral("missing closing parenthesis")));
        QCOMPARE(e.rules[6].status, RuleDiagnostic::CatchAll);

        // Without the representative set, rule 4 matches nothing on the profile.
        const RuleEvaluation alone = evaluateRules(rules, profile, nullptr);
        QCOMPARE(alone.rules[3].status, RuleDiagnostic::Unused);
    }

    void cacheFollowsEdits()
    {
        RuleMatchCache cache(names({ QStringLiteral("abc"), QStringLiteral("xyz") }));
        RuleList rules = list({ rule(QStringLiteral("a"), QStringLiteral("A")) });
        QCOMPARE(evaluateRules(rules, cache, nullptr).ruleOfName, (std::vector<int> { 0, -1 }));
        rules.rules[0].pattern = QStringLiteral("y");
        QCOMPARE(evaluateRules(rules, cache, nullptr).ruleOfName, (std::vector<int> { -1, 0 }));
        rules.rules[0].caseInsensitive = true;
        rules.rules[0].pattern = QStringLiteral("XY");
        QCOMPARE(evaluateRules(rules, cache, nullptr).ruleOfName, (std::vector<int> { -1, 0 }));
    }

    void shippedRulesAllWinOnTheRepresentativeSet()
    {
        QVERIFY(representativeKernelNames().size() > 100);
        for (const QString& set : RuleLibrary::shippedSetNames()) {
            const RuleSource s = RuleLibrary::shippedSet(set);
            for (const RuleEngine& engine : s.document.engines)
                for (const RuleList& model : engine.models) {
                    RuleMatchCache none(NameSet {});
                    const RuleEvaluation e = evaluateRules(model, none, &representativeMatchCache());
                    for (std::size_t r = 0; r < model.rules.size(); ++r)
                        QVERIFY2(
                            e.rules[r].status == RuleDiagnostic::Wins || e.rules[r].status == RuleDiagnostic::CatchAll,
                            qPrintable(QStringLiteral("%1/%2 rule %3 %4: %5")
                                           .arg(engine.name, model.model)
                                           .arg(r + 1)
                                           .arg(model.rules[r].pattern, ruleStatusText(e.rules[r]))));
                }
        }
    }

    void suggestions_data()
    {
        QTest::addColumn<QString>("demangled");
        QTest::addColumn<QString>("shortName");
        QTest::addColumn<QString>("pattern");
        QTest::newRow("templated") << QStringLiteral("void at::native::reduce_kernel<(int)512>(T1)")
                                   << QStringLiteral("reduce_kernel") << QStringLiteral("reduce_kernel");
        QTest::newRow("no short name") << QStringLiteral("void ns::inner::foo_bar<int, (bool)1>(int *, float)")
                                       << QString() << QStringLiteral("foo_bar");
        QTest::newRow("memory operation")
            << QStringLiteral("[CUDA memcpy Host-to-Device]") << QStringLiteral("[CUDA memcpy Host-to-Device]")
            << QStringLiteral("\\[CUDA memcpy Host-to-Device\\]");
        QTest::newRow("regex characters") << QStringLiteral("a.b+c") << QString() << QStringLiteral("a\\.b\\+c");
    }

    void suggestions()
    {
        QFETCH(QString, demangled);
        QFETCH(QString, shortName);
        QFETCH(QString, pattern);
        const CategoryRule r = suggestRule(demangled, shortName, QStringLiteral("c"));
        QCOMPARE(r.pattern, pattern);
        QVERIFY(validateRulePattern(r).isEmpty());
        RuleMatchCache cache(names({ demangled }));
        QCOMPARE(evaluateRules(list({ r }), cache, nullptr).ruleOfName, (std::vector<int> { 0 }));
    }
};

QTEST_GUILESS_MAIN(TestRuleEvaluation)
#include "tst_ruleevaluation.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernelnames.h"

#include "core/nvtx/nvtxnames.h"
#include "core/util/findby.h"

#include <optional>

namespace nsw {

namespace {

bool isIdentifierChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

bool isHexDigit(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'f') || (u >= u'A' && u <= u'F');
}

/// True when the '<' at @p i belongs to an operator name ("operator<", "operator<<", "operator<=").
bool isOperatorBracket(QStringView s, qsizetype i)
{
    qsizetype j = i;
    while (j > 0 && s[j - 1] == u'<')
        --j;
    return s.first(j).endsWith(u"operator");
}

/// A run of a name that a rule replaces: where it ends and what stands in its place.
struct Run
{
    qsizetype end = 0;
    QStringView replacement;
};

/// @p name with each run that @p runAt (a position → the run starting there, if any) finds replaced.
template <typename RunAt> QString replaceRuns(QStringView name, RunAt runAt)
{
    QString out;
    out.reserve(name.size());
    for (qsizetype i = 0; i < name.size();) {
        if (const std::optional<Run> run = runAt(i)) {
            out += run->replacement;
            i = run->end;
        } else {
            out += name[i++];
        }
    }
    return out;
}

} // namespace

QString stripTemplateArguments(QStringView name)
{
    const qsizetype n = name.size();
    return replaceRuns(name, [name, n](qsizetype i) -> std::optional<Run> {
        if (name[i] != u'<' || i == 0 || !isIdentifierChar(name[i - 1]) || isOperatorBracket(name, i))
            return std::nullopt;
        // Find the matching '>'; an unbalanced list is kept as it is.
        int depth = 0;
        qsizetype j = i;
        for (; j < n; ++j) {
            if (name[j] == u'<') {
                ++depth;
            } else if (name[j] == u'>' && name[j - 1] != u'-') {
                if (--depth == 0)
                    break;
            }
        }
        if (j >= n)
            return Run { n, name.sliced(i) };
        return Run { j + 1, u"<...>" };
    });
}

QString replaceHexHashes(QStringView name)
{
    const qsizetype n = name.size();
    return replaceRuns(name, [name, n](qsizetype i) -> std::optional<Run> {
        if (!isHexDigit(name[i]) || (i > 0 && name[i - 1].isLetterOrNumber()))
            return std::nullopt;
        qsizetype j = i;
        bool digit = false;
        bool hashLetter = false;
        while (j < n && isHexDigit(name[j])) {
            const char16_t u = QChar::toLower(name[j].unicode());
            digit |= u >= u'0' && u <= u'9';
            hashLetter |= u == u'a' || u == u'c' || u == u'd' || u == u'e';
            ++j;
        }
        const bool standalone = j >= n || !name[j].isLetterOrNumber();
        if (standalone && j - i >= 8 && digit && hashLetter)
            return Run { j, u"#" };
        // The whole word is kept, so that its tail is not examined again as the start of a run.
        while (j < n && name[j].isLetterOrNumber())
            ++j;
        return Run { j, name.sliced(i, j - i) };
    });
}

QString replaceNumbers(QStringView name)
{
    return normalizeNvtxName(name);
}

const std::vector<KernelNameRule>& kernelNameRules()
{
    static const std::vector<KernelNameRule> rules = {
        { QStringLiteral("templates"),
            QStringLiteral("template argument lists become <...> (foo<4, float> -> foo<...>)"),
            &stripTemplateArguments },
        { QStringLiteral("hashes"),
            QStringLiteral("standalone runs of 8+ hex digits become # (kernel_5f3a9c2e17 -> kernel_#)"),
            &replaceHexHashes },
        { QStringLiteral("numbers"),
            QStringLiteral("standalone numbers become # (fused_add_12 -> fused_add_#; bf16, sm90, 128x64 kept)"),
            &replaceNumbers },
    };
    return rules;
}

const KernelNameRule* kernelNameRule(QStringView id)
{
    return findBy(kernelNameRules(), &KernelNameRule::id, id);
}

QString normalizeKernelName(QStringView name)
{
    QString out = name.toString();
    for (const KernelNameRule& r : kernelNameRules())
        out = r.apply(out);
    return out;
}

} // namespace nsw

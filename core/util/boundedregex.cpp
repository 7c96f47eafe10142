// SPDX-License-Identifier: GPL-3.0-or-later
#include "boundedregex.h"

#include <QRegularExpression>
#include <mutex>

#define PCRE2_CODE_UNIT_WIDTH 16
#include <pcre2.h>

namespace nsw {

struct BoundedRegex::Pcre
{
    pcre2_code* code = nullptr;
    pcre2_match_data* data = nullptr;
    pcre2_match_context* context = nullptr;
    pcre2_jit_stack* jitStack = nullptr;
    unsigned matchLimit = 0; ///< the construction's
    std::mutex searching; ///< the match data, the match context and the JIT stack are one search's at a time

    ~Pcre()
    {
        pcre2_jit_stack_free(jitStack);
        pcre2_match_context_free(context);
        pcre2_match_data_free(data);
        pcre2_code_free(code);
    }
};

BoundedRegex::BoundedRegex(const QString& pattern, bool caseInsensitive, unsigned matchLimit)
    : m_pcre(std::make_unique<Pcre>())
{
    int error = 0;
    PCRE2_SIZE offset = 0;
    const uint32_t options = PCRE2_UTF | PCRE2_UCP | (caseInsensitive ? PCRE2_CASELESS : 0);
    Pcre& p = *m_pcre;
    p.code = pcre2_compile(
        reinterpret_cast<PCRE2_SPTR>(pattern.utf16()), PCRE2_SIZE(pattern.size()), options, &error, &offset, nullptr);
    if (!p.code)
        return;
    pcre2_jit_compile(p.code, PCRE2_JIT_COMPLETE); // without JIT (not built in), the interpreter runs it
    p.data = pcre2_match_data_create_from_pattern(p.code, nullptr);
    p.context = pcre2_match_context_create(nullptr);
    p.matchLimit = matchLimit;
    // As QRegularExpression does: JIT stack up to 512 KiB, so a deep but legitimate match is not cut short.
    p.jitStack = pcre2_jit_stack_create(32 * 1024, 512 * 1024, nullptr);
    if (p.jitStack)
        pcre2_jit_stack_assign(p.context, nullptr, p.jitStack);
    m_code = p.code;
}

BoundedRegex::~BoundedRegex() = default;

BoundedRegex::Outcome BoundedRegex::search(QStringView subject, unsigned matchLimit) const
{
    if (!m_code)
        return Outcome::NoMatch;
    Pcre& p = *m_pcre;
    const std::lock_guard lock(p.searching);
    const unsigned limit = matchLimit ? matchLimit : p.matchLimit;
    pcre2_set_match_limit(p.context, limit);
    pcre2_set_depth_limit(p.context, limit);
    // Names come from QString::fromUtf8, which leaves no invalid UTF-16.
    const int rc = pcre2_match(p.code, reinterpret_cast<PCRE2_SPTR>(subject.utf16()), PCRE2_SIZE(subject.size()), 0,
        PCRE2_NO_UTF_CHECK, p.data, p.context);
    if (rc >= 0)
        return Outcome::Match;
    return rc == PCRE2_ERROR_NOMATCH ? Outcome::NoMatch : Outcome::OverBudget;
}

qsizetype pcreRecursionAt(const QString& pattern)
{
    static const QRegularExpression call(QStringLiteral(R"(\(\?(?:R|[+-]?\d+|&\w+|P>\w+)\))"));
    bool inClass = false;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern[i];
        if (c == QLatin1Char('\\')) {
            ++i;
        } else if (inClass) {
            inClass = c != QLatin1Char(']');
        } else if (c == QLatin1Char('[')) {
            inClass = true;
            if (i + 1 < pattern.size() && pattern[i + 1] == QLatin1Char('^'))
                ++i;
            if (i + 1 < pattern.size() && pattern[i + 1] == QLatin1Char(']'))
                ++i; // a ']' first in a class is a member
        } else if (c == QLatin1Char('(')
            && call.match(pattern, i, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption)
                   .hasMatch()) {
            return i;
        }
    }
    return -1;
}

} // namespace nsw

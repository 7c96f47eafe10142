// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxnames.h"

namespace nsw {

namespace {

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber();
}

bool isHexDigit(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'f') || (u >= u'A' && u <= u'F');
}

bool isDigit(QChar c)
{
    return c.unicode() >= u'0' && c.unicode() <= u'9';
}

/// End of the number starting at @p i (a digit), or @p i when the text there is not a standalone number.
qsizetype numberEnd(QStringView s, qsizetype i)
{
    const qsizetype n = s.size();
    if (i > 0 && isWordChar(s[i - 1]))
        return i;
    qsizetype j = i;
    if (s[i] == u'0' && i + 2 < n && (s[i + 1] == u'x' || s[i + 1] == u'X') && isHexDigit(s[i + 2])) {
        j = i + 2;
        while (j < n && isHexDigit(s[j]))
            ++j;
    } else {
        while (j < n && isDigit(s[j]))
            ++j;
        if (j + 1 < n && s[j] == u'.' && isDigit(s[j + 1])) {
            j += 1;
            while (j < n && isDigit(s[j]))
                ++j;
        }
    }
    if (j < n && s[j].isLetter())
        return i;
    return j;
}

} // namespace

QString normalizeNvtxName(QStringView name)
{
    QString out;
    out.reserve(name.size());
    qsizetype i = 0;
    while (i < name.size()) {
        if (isDigit(name[i])) {
            const qsizetype end = numberEnd(name, i);
            if (end > i) {
                out += QLatin1Char('#');
                i = end;
                continue;
            }
            // A digit run inside a word: copy it whole so that its tail is not taken for a number.
            while (i < name.size() && isWordChar(name[i]))
                out += name[i++];
            continue;
        }
        out += name[i++];
    }
    return out;
}

QString nvtxDomainLabel(const Profile& profile, std::int32_t domain)
{
    if (domain < 0 || std::size_t(domain) >= profile.nvtxDomains.size())
        return {};
    const NvtxDomain& d = profile.nvtxDomains[std::size_t(domain)];
    if (!d.name.isEmpty())
        return d.name;
    return QStringLiteral("domain %1").arg(d.domainId);
}

QString nvtxRangeLabel(QStringView domainLabel, QStringView name)
{
    if (domainLabel.isEmpty())
        return name.toString();
    return domainLabel.toString() + QLatin1Char(':') + name;
}

QString nvtxPathKey(const QStringList& labels)
{
    return labels.join(kNvtxPathSeparator);
}

} // namespace nsw

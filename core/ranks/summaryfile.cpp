// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ranks/summaryfile.h"

#include <QFile>
#include <QFileInfo>
#include <cstring>
#include <limits>
#include <type_traits>

namespace nsw {

namespace {

constexpr char kMagic[8] = { 'N', 'S', 'W', 'R', 'A', 'N', 'K', 'S' };
constexpr qsizetype kHeaderBytes = 8 + 4 + 8;
constexpr qsizetype kChecksumBytes = 8;

std::uint64_t fnv1a(const char* data, qsizetype size)
{
    std::uint64_t h = 14695981039346656037ULL;
    for (qsizetype i = 0; i < size; ++i) {
        h ^= std::uint8_t(data[i]);
        h *= 1099511628211ULL;
    }
    return h;
}

void putFixed(QByteArray& out, std::uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out.append(char((value >> (8 * i)) & 0xFF));
}

std::uint64_t getFixed(const char* data, int bytes)
{
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v |= std::uint64_t(std::uint8_t(data[i])) << (8 * i);
    return v;
}

class Writer
{
public:
    void u(std::uint64_t v)
    {
        while (v >= 0x80) {
            m_out.append(char((v & 0x7F) | 0x80));
            v >>= 7;
        }
        m_out.append(char(v));
    }
    void s(std::int64_t v) { u((std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63)); }
    void text(const QString& t)
    {
        const QByteArray utf8 = t.toUtf8();
        u(std::uint64_t(utf8.size()));
        m_out.append(utf8);
    }
    void texts(const QStringList& list)
    {
        u(std::uint64_t(list.size()));
        for (const QString& t : list)
            text(t);
    }
    QByteArray& bytes() { return m_out; }

    // The writing side of the format, written once for both directions by visitRankFile (Reader has the same).
    /// Signed integers zig-zag, unsigned ones and flags as they are, texts with their length.
    template <typename... T> void fields(const T&... values) { (field(values), ...); }
    /// The count, then @p each(item) for every item.
    template <class List, class Each> void list(const List& items, std::size_t /*minBytes*/, Each&& each)
    {
        u(items.size());
        for (const auto& item : items)
            each(item);
    }
    /// @p value as its distance from @p base (times: from the previous one, or an end from its start).
    void offset(TimeNs value, TimeNs base) { s(value - base); }
    /// A name index.
    void name(std::uint32_t index, qsizetype /*names*/) { u(index); }

private:
    template <typename T> void field(const T& v)
    {
        if constexpr (std::is_same_v<T, bool>)
            u(v ? 1 : 0);
        else if constexpr (std::is_signed_v<T>)
            s(v);
        else
            u(v);
    }
    void field(const QString& t) { text(t); }
    void field(const QStringList& list) { texts(list); }

    QByteArray m_out;
};

/// Reads the payload; the first problem is kept and every later read returns 0 or empty.
class Reader
{
public:
    Reader(const char* data, qsizetype size)
        : m_p(data)
        , m_end(data + size)
    { }
    std::uint64_t u()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_p == m_end)
                return fail(QStringLiteral("ends inside a number"));
            const std::uint8_t b = std::uint8_t(*m_p++);
            v |= std::uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80))
                return v;
        }
        return fail(QStringLiteral("a number longer than 64 bits"));
    }
    std::int64_t s()
    {
        const std::uint64_t v = u();
        return std::int64_t(v >> 1) ^ -std::int64_t(v & 1);
    }
    /// A count of items that take at least @p minBytes each: never more than the bytes left could hold.
    std::size_t count(std::size_t minBytes = 1)
    {
        const std::uint64_t n = u();
        if (n > std::uint64_t(m_end - m_p) / std::max<std::size_t>(minBytes, 1)) {
            fail(QStringLiteral("a count of %1 that the file cannot hold").arg(n));
            return 0;
        }
        return std::size_t(n);
    }
    QString text()
    {
        const std::size_t n = count();
        const QString t = QString::fromUtf8(m_p, qsizetype(n));
        m_p += n;
        return t;
    }
    QStringList texts()
    {
        QStringList list;
        const std::size_t n = count();
        for (std::size_t i = 0; i < n && ok(); ++i)
            list << text();
        return list;
    }
    /// A name index, checked against the name table's size.
    std::uint32_t name(qsizetype names)
    {
        const std::uint64_t v = u();
        if (v >= std::uint64_t(names)) {
            fail(QStringLiteral("a kernel name index %1 out of range (%2 names)").arg(v).arg(names));
            return 0;
        }
        return std::uint32_t(v);
    }
    std::uint64_t fail(const QString& problem)
    {
        if (m_problem.isEmpty())
            m_problem = problem;
        m_p = m_end;
        return 0;
    }
    template <typename... T> void fields(T&... values) { (field(values), ...); }
    /// Reads a count of items of at least @p minBytes each, then fills each appended item with @p each(item).
    template <class List, class Each> void list(List& items, std::size_t minBytes, Each&& each)
    {
        const std::size_t n = count(minBytes);
        for (std::size_t i = 0; i < n && ok(); ++i) {
            typename List::value_type item {};
            each(item);
            items.push_back(std::move(item));
        }
    }
    void offset(TimeNs& value, TimeNs base) { value = base + s(); }
    void name(std::uint32_t& index, qsizetype names) { index = name(names); }
    bool ok() const { return m_problem.isEmpty(); }
    bool atEnd() const { return m_p == m_end; }
    const QString& problem() const { return m_problem; }

private:
    template <typename T> void field(T& v)
    {
        if constexpr (std::is_same_v<T, bool>)
            v = u() != 0;
        else if constexpr (std::is_signed_v<T>)
            v = T(s());
        else
            v = T(u());
    }
    void field(QString& t) { t = text(); }
    void field(QStringList& list) { list = texts(); }

    const char* m_p;
    const char* m_end;
    QString m_problem;
};

/// The payload in file order, written once for both directions: @p io is a Writer (and @p file const) or a Reader.
/// Times are stored as distances (an iteration's start from the previous end, a collective's from the previous
/// start, an end from its start), so that they stay short.
template <class Io, class File> void visitRankFile(Io& io, File& file)
{
    io.fields(file.exportPath, file.exportSize, file.nsysVersion, file.sessionStartUtcNs, file.host,
        file.iterationMarker, file.warnings, file.names);
    const qsizetype names = file.names.size();
    io.list(file.ranks, 8, [&](auto& rank) {
        io.fields(rank.rankFromName, rank.pid, rank.processName, rank.gpu, rank.gpuLabel, rank.iterationsGuessed,
            rank.iterationDetection);
        TimeNs previous = 0;
        io.list(rank.iterations, 5, [&](auto& it) {
            io.offset(it.start, previous);
            io.offset(it.end, it.start);
            io.fields(it.computeNs, it.communicationNs, it.memoryNs);
            previous = it.end;
        });
        previous = 0;
        io.list(rank.collectives, 4, [&](auto& c) {
            io.name(c.name, names);
            io.fields(c.stream);
            io.offset(c.start, previous);
            io.offset(c.end, c.start);
            previous = c.start;
        });
        io.list(rank.kernelSums, 3, [&](auto& k) {
            io.name(k.name, names);
            io.fields(k.count, k.totalNs);
        });
    });
}

Result<RankFile> damaged(const QString& path, const QString& problem)
{
    return Result<RankFile>::failure(ErrorKind::Input, QStringLiteral("%1: %2").arg(path, problem));
}

} // namespace

QByteArray encodeRankSummary(const RankFile& file)
{
    Writer w;
    visitRankFile(w, file);
    const QByteArray& payload = w.bytes();
    QByteArray out;
    out.reserve(kHeaderBytes + payload.size() + kChecksumBytes);
    out.append(kMagic, sizeof kMagic);
    putFixed(out, kRankSummaryVersion, 4);
    putFixed(out, std::uint64_t(payload.size()), 8);
    out.append(payload);
    putFixed(out, fnv1a(payload.constData(), payload.size()), 8);
    return out;
}

Result<RankFile> decodeRankSummary(const QByteArray& bytes, const QString& path)
{
    if (bytes.size() < qsizetype(sizeof kMagic) || std::memcmp(bytes.constData(), kMagic, sizeof kMagic) != 0)
        return damaged(path, QStringLiteral("not an nsys-workbench rank summary (no NSWRANKS header)"));
    if (bytes.size() < kHeaderBytes)
        return damaged(path,
            QStringLiteral("a truncated rank summary (%1 bytes, the header alone takes %2)")
                .arg(bytes.size())
                .arg(kHeaderBytes));
    const std::uint64_t version = getFixed(bytes.constData() + 8, 4);
    if (version != kRankSummaryVersion)
        return damaged(path,
            QStringLiteral("a rank summary of format version %1; this nsys-workbench reads version %2 (summarize the "
                           "export again with this version)")
                .arg(version)
                .arg(kRankSummaryVersion));
    const std::uint64_t length = getFixed(bytes.constData() + 12, 8);
    const std::uint64_t available = std::uint64_t(bytes.size() - kHeaderBytes);
    if (length > available || available - length < std::uint64_t(kChecksumBytes))
        return damaged(path,
            QStringLiteral("a truncated rank summary (%1 bytes, its header announces %2)")
                .arg(bytes.size())
                .arg(length > std::uint64_t(std::numeric_limits<qint64>::max() - kHeaderBytes - kChecksumBytes)
                        ? QStringLiteral("more than the file system holds")
                        : QString::number(qint64(length) + kHeaderBytes + kChecksumBytes)));
    const char* payload = bytes.constData() + kHeaderBytes;
    if (getFixed(payload + length, 8) != fnv1a(payload, qsizetype(length)))
        return damaged(path, QStringLiteral("a damaged rank summary (its checksum does not match its contents)"));
    if (available - length != std::uint64_t(kChecksumBytes))
        return damaged(path, QStringLiteral("a damaged rank summary (bytes after its end)"));

    Reader r(payload, qsizetype(length));
    RankFile file;
    file.summaryPath = path;
    visitRankFile(r, file);
    if (r.ok() && !r.atEnd())
        r.fail(QStringLiteral("data after the last rank"));
    if (!r.ok())
        return damaged(path, QStringLiteral("a damaged rank summary (%1)").arg(r.problem()));
    if (file.ranks.empty())
        return damaged(path, QStringLiteral("a rank summary without ranks"));
    return file;
}

Result<RankFile> readRankSummary(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return damaged(path, QStringLiteral("cannot be read (%1)").arg(f.errorString()));
    return decodeRankSummary(f.readAll(), path);
}

bool isRankSummaryFile(const QString& path)
{
    QFile f(path);
    if (!QFileInfo(path).isFile() || !f.open(QIODevice::ReadOnly))
        return false;
    char head[sizeof kMagic];
    return f.read(head, sizeof head) == qint64(sizeof head) && std::memcmp(head, kMagic, sizeof kMagic) == 0;
}

} // namespace nsw

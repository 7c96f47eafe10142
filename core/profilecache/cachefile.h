// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/cancel.h"
#include "core/jobs/result.h"

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace nsw {

/// The container of a profile cache file (issue 37): named sections of fixed-size elements, each with its own
/// checksum, listed in a directory at the end of the file and found from a header at its start:
///
///   [header, 128 bytes][section][section]...[directory: one 96-byte entry per section]
///
/// Sections start at 64-byte boundaries, so that a mapped section is an aligned array of its elements. The file is
/// written under a temporary name and renamed into place once complete: a file of a crashed writer never has the
/// final name, and one cut short or changed afterwards fails its size or checksums.
namespace cachefile {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kMaxNameBytes = 63;
constexpr std::size_t kMaxSections = 4096;

struct Section
{
    QByteArray name;
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
    std::uint64_t checksum = 0;
    std::uint32_t elementSize = 1;
    std::uint64_t count() const { return bytes / elementSize; }
};

/// What every value of a section must be, checked while its checksum is: an index into a table must point into it.
struct ValueCheck
{
    enum class Type : std::uint8_t
    {
        Int16,
        Int32,
        UInt32,
        /// an IndexColumn's narrow values: value + 1 in 16 bits
        UInt16PlusOne,
        /// an IndexColumn's 1-byte values: value + 1 in 8 bits
        UInt8PlusOne,
    };
    Type type = Type::Int32;
    std::int64_t min = 0;
    std::int64_t max = 0; ///< inclusive
    /// When set, replaces min and max (type still gives the element size): called with each chunk of the section's
    /// values as read, @p first being the position of its first value; false refuses the file. For values whose
    /// bounds depend on where they are (an index per lane into the table that lane reads). Called from several
    /// threads at once (one per section).
    std::function<bool(std::uint64_t first, const void* values, std::size_t count)> custom;
};

/// Writes a cache file section by section. Nothing is visible under the final name until commit().
class Writer
{
public:
    ~Writer();
    /// Creates a new file beside @p finalPath under a unique temporary name.
    static Result<std::unique_ptr<Writer>> create(const QString& finalPath);

    /// Appends a section; false (and error()) when the file system refuses the bytes (full, gone).
    bool add(const QByteArray& name, const void* data, std::size_t bytes, std::uint32_t elementSize);
    /// Writes bytes [offset, offset + n) of a section to out.
    using Fill = std::function<void(std::uint64_t offset, char* out, std::size_t n)>;
    /// Appends a section of @p bytes that @p fill makes a part at a time (values not kept in memory as the file stores
    /// them: PackedRows), so that no copy of the whole section is ever made.
    bool add(const QByteArray& name, std::uint64_t bytes, std::uint32_t elementSize, const Fill& fill);
    /// Writes the directory and header, then renames the file to its final path (replacing an older one atomically).
    Status commit();
    std::uint64_t bytesWritten() const { return m_offset; }
    const QString& error() const { return m_error; }

private:
    Writer() = default;
    bool writeAt(const void* data, std::size_t bytes, std::uint64_t offset);
    /// Aligns the next section and checks its name and sizes.
    bool startSection(const QByteArray& name, std::uint64_t bytes, std::uint32_t elementSize);
    bool fail(const QString& what);

    int m_fd = -1;
    QString m_tempPath;
    QString m_finalPath;
    std::uint64_t m_offset = 0;
    std::vector<Section> m_sections;
    QString m_error;
    bool m_committed = false;
};

/// A cache file's bytes, mapped read-only; sections are views into it while it lives.
class Mapping
{
public:
    Mapping(const void* base, std::size_t bytes)
        : m_base(base)
        , m_bytes(bytes)
    { }
    ~Mapping();
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    const char* at(std::uint64_t offset) const { return static_cast<const char*>(m_base) + offset; }

private:
    const void* m_base;
    std::size_t m_bytes;
};

/// Reads a cache file. open() checks the structure (a regular file, not a symlink; its size, header and directory,
/// every section inside the file) by reading, never by mapping; verify() then reads every section once (checksums,
/// and the value checks asked for); only then may map() be called.
class Reader
{
public:
    ~Reader();
    static Result<std::unique_ptr<Reader>> open(const QString& path);

    const QString& path() const { return m_path; }
    std::uint64_t fileBytes() const { return m_fileBytes; }
    const Section* find(const QByteArray& name) const;
    const std::map<QByteArray, Section>& sections() const { return m_sections; }
    /// A section read into memory and checked against its checksum (for small sections, read before verify()).
    Result<QByteArray> read(const QByteArray& name) const;
    /// Every section's checksum, and @p checks on the sections they name. Runs on @p threads threads.
    Status verify(const std::map<QByteArray, ValueCheck>& checks, const CancelToken& cancel, int threads = 2) const;
    /// The file mapped read-only; call after verify().
    Result<std::shared_ptr<const Mapping>> map() const;

private:
    Reader() = default;
    Status verifySection(
        const Section& section, const ValueCheck* check, std::vector<char>& buffer, const CancelToken& cancel) const;
    Result<std::unique_ptr<Reader>> failure(const QString& what) const;

    QString m_path;
    int m_fd = -1;
    std::uint64_t m_fileBytes = 0;
    std::map<QByteArray, Section> m_sections;
};

} // namespace cachefile
} // namespace nsw

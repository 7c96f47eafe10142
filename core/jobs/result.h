// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <utility>

namespace nsw {

/// Why a request failed; the CLI turns it into its exit code, the window into a message.
enum class ErrorKind : std::uint8_t
{
    Usage, ///< the request itself is wrong (bad option, unknown name)
    Input, ///< a file cannot be read or is not what it should be
    NoData, ///< the input has none of the data the request needs
    Cancelled, ///< the caller cancelled (or superseded) the request
    OutOfMemory, ///< an allocation failed (std::bad_alloc, a thread that could not start, SQLite out of memory)
    Busy, ///< the file is in use: another process writes it (try again once it is done)
    Tool, ///< an external tool the request needs (nsys, to export a report) is missing or failed
    Internal, ///< an unexpected exception: a bug, reported instead of ending the program
};

struct Error
{
    ErrorKind kind = ErrorKind::Input;
    QString message; ///< one line that names the file (when there is one) and the problem
};

/// Stops the program: a caller read the value of a failed result (whose error is @p error) without checking it.
[[noreturn]] void resultValueMissing(const QString& error);

/// Damage that was tolerated (rows skipped, ids out of range, a default used): it travels with the result and is
/// shown to the user (stderr, a `warnings` array in JSON, the window's status).
using Warnings = QStringList;

/// The one result type: a value or an error, plus warnings either way. [[nodiscard]]: an ignored result is a
/// dropped error.
template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value, Warnings warnings = {})
        : m_value(std::move(value))
        , m_warnings(std::move(warnings))
    { }
    Result(Error error, Warnings warnings = {})
        : m_error(std::move(error))
        , m_warnings(std::move(warnings))
    { }
    static Result failure(ErrorKind kind, const QString& message) { return Result(Error { kind, message }); }
    static Result cancelled(const QString& message = QStringLiteral("cancelled"))
    {
        return Result(Error { ErrorKind::Cancelled, message });
    }

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    bool isCancelled() const { return !ok() && m_error.kind == ErrorKind::Cancelled; }

    /// The value; reading it from a failed result is a bug in the caller, which stops the program with the error it
    /// did not check (an assertion in debug builds), never undefined behaviour.
    const T& value() const&
    {
        checkValue();
        return *m_value;
    }
    T& value() &
    {
        checkValue();
        return *m_value;
    }
    T&& value() &&
    {
        checkValue();
        return std::move(*m_value);
    }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }

    const Error& error() const { return m_error; }
    const QString& errorMessage() const { return m_error.message; }
    const Warnings& warnings() const { return m_warnings; }
    void addWarning(const QString& warning)
    {
        if (!m_warnings.contains(warning))
            m_warnings.append(warning);
    }
    void addWarnings(const Warnings& warnings)
    {
        for (const QString& w : warnings)
            addWarning(w);
    }

    /// This result's error and warnings as another result type (to pass a failure up).
    template <typename U> Result<U> failureAs() const { return Result<U>(m_error, m_warnings); }

private:
    void checkValue() const
    {
        if (!m_value) [[unlikely]]
            resultValueMissing(m_error.message);
    }

    std::optional<T> m_value;
    Error m_error;
    Warnings m_warnings;
};

struct Done
{ };

/// A result without a value: success or an error, plus warnings.
using Status = Result<Done>;

inline Status success(Warnings warnings = {})
{
    return Status(Done {}, std::move(warnings));
}

/// @p value, or a Cancelled result when it is null: the result of a function that returns null once its cancel
/// token fired.
template <typename P> Result<P> orCancelled(P value)
{
    if (!value)
        return Result<P>::cancelled();
    return Result<P>(std::move(value));
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"

#include <exception>
#include <utility>

namespace nsw {

/// The error an exception that escaped @p task ("loading x.sqlite", "this computation") becomes: OutOfMemory for
/// std::bad_alloc (e.g. from the huge-page allocator) and for a thread that could not start, Internal for anything
/// else. Every thread entry (the load thread, the scan workers, the jobs' pool) ends in one, so that a failure
/// becomes the job's error instead of ending the program.
Error errorOfException(const std::exception_ptr& exception, const QString& task);

/// @p work's result, or its exception as the result's error (errorOfException()).
template <typename T, typename F> Result<T> catchingExceptions(F&& work, const QString& task)
{
    try {
        return std::forward<F>(work)();
    } catch (...) {
        return Result<T>(errorOfException(std::current_exception(), task));
    }
}

} // namespace nsw

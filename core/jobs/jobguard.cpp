// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobguard.h"

#include "core/jobs/logging.h"

#include <new>
#include <system_error>

namespace nsw {

Error errorOfException(const std::exception_ptr& exception, const QString& task)
{
    Error error { ErrorKind::Internal, {} };
    try {
        std::rethrow_exception(exception);
    } catch (const std::bad_alloc&) {
        error = { ErrorKind::OutOfMemory, QStringLiteral("not enough memory for %1").arg(task) };
    } catch (const std::system_error& e) {
        // std::thread reports a thread that cannot get its stack (address space or process limits) as EAGAIN.
        if (e.code() == std::errc::resource_unavailable_try_again || e.code() == std::errc::not_enough_memory)
            error = { ErrorKind::OutOfMemory,
                QStringLiteral("not enough memory for %1: a thread could not start (%2)")
                    .arg(task, QString::fromLocal8Bit(e.what())) };
        else
            error.message = QStringLiteral("%1 failed: internal error: %2").arg(task, QString::fromLocal8Bit(e.what()));
    } catch (const std::exception& e) {
        error.message = QStringLiteral("%1 failed: internal error: %2").arg(task, QString::fromLocal8Bit(e.what()));
    } catch (...) {
        error.message = QStringLiteral("%1 failed: internal error (an unknown exception)").arg(task);
    }
    qCDebug(lcJobs).noquote() << error.message;
    return error;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
// Linked into the executables of the tsan preset only (see the top-level CMakeLists.txt).
//
// Qt 6.4's QProcess starts a child with vforkfd(): on Linux 5.4+ that is clone(CLONE_VFORK | CLONE_PIDFD), which
// ThreadSanitizer's clone interceptor cannot follow (its child aborts with "CHECK failed: tsan_rtl.cpp ...
// !thr->slot"). forkfd decides once per process whether the kernel has pidfds, by asking waitid(P_PIDFD) through
// syscall(2); when that fails with EINVAL it starts every child with plain fork(), which ThreadSanitizer supports.
// This definition of syscall() takes the place of libc's for the whole process and answers exactly that question
// "no"; every other call goes on to libc unchanged.
#include <cerrno>
#include <cstdarg>
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {
constexpr long kPidFdIdType = 3; // P_PIDFD, <linux/wait.h>
using SyscallFunction = long (*)(long, ...);
} // namespace

extern "C" long syscall(long number, ...) noexcept
{
    va_list args;
    va_start(args, number);
    long arg[6];
    for (long& value : arg)
        value = va_arg(args, long);
    va_end(args);
    if (number == SYS_waitid && arg[0] == kPidFdIdType) {
        errno = EINVAL;
        return -1;
    }
    static const auto libcSyscall = reinterpret_cast<SyscallFunction>(dlsym(RTLD_NEXT, "syscall"));
    return libcSyscall(number, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
}

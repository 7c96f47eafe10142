/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What tst_nsysendtoend profiles: three pushed "step" ranges of 20 ms, one started "whole" range of 10 ms around a
 * file write. Its counts and durations are what the test expects to find in the report. */
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    for (int i = 0; i < 3; ++i) {
        nvtxRangePushA("step");
        usleep(20000);
        nvtxRangePop();
    }
    nvtxRangeId_t whole = nvtxRangeStartA("whole");
    FILE* f = fopen("/dev/null", "w");
    if (f) {
        fputs("x", f);
        fclose(f);
    }
    usleep(10000);
    nvtxRangeEnd(whole);
    return 0;
}

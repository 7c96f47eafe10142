// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace nsw {

/// Columns of millions of rows come from mmap and go back to the system as soon as they are freed. glibc otherwise
/// raises its mmap threshold after the first large free and serves later columns from the heap, where freed chunk
/// outputs stay resident: a staged load of a 2.4 GB export peaked at 1.9 GB instead of 1.2 GB. Sets the threshold
/// to 1 MiB once (glibc only).
void returnLargeBlocksToTheSystem();

/// Hands the heap's free pages back to the system (glibc's malloc_trim), e.g. after a load freed its chunk outputs
/// and lookup tables, before analyses allocate more.
void trimHeap();

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nsw {

/// An nsys report's name and the title nsys prints above it: defined once, here.
struct ReportName
{
    const char* id;
    const char* title;
    QString idString() const { return QString::fromLatin1(id); }
    QString titleString() const { return QString::fromLatin1(title); }
};

namespace reportnames {
inline constexpr ReportName cudaGpuKernSum { "cuda_gpu_kern_sum", "CUDA GPU Kernel Summary" };
inline constexpr ReportName cudaApiSum { "cuda_api_sum", "CUDA API Summary" };
inline constexpr ReportName cudaGpuMemTimeSum { "cuda_gpu_mem_time_sum", "CUDA GPU MemOps Summary (by Time)" };
inline constexpr ReportName cudaGpuMemSizeSum { "cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)" };
inline constexpr ReportName osrtSum { "osrt_sum", "OS Runtime Summary" };
inline constexpr ReportName nvtxSum { "nvtx_sum", "NVTX Range Summary" };
inline constexpr ReportName nvtxGpuProjSum { "nvtx_gpu_proj_sum", "NVTX GPU Projection Summary" };
inline constexpr ReportName cudaKernExecSum { "cuda_kern_exec_sum", "CUDA Kernel Launch & Exec Time Summary" };
inline constexpr ReportName cudaKernExecTrace { "cuda_kern_exec_trace", "CUDA Kernel Launch & Exec Time Trace" };
inline constexpr ReportName cudaGpuSum { "cuda_gpu_sum", "CUDA GPU Summary (Kernels/MemOps)" };
inline constexpr ReportName cudaGpuTrace { "cuda_gpu_trace", "CUDA GPU Trace" };
inline constexpr ReportName cudaApiTrace { "cuda_api_trace", "CUDA API Trace" };
inline constexpr ReportName nvtxKernSum { "nvtx_kern_sum", "NVTX Range Kernel Summary" };
inline constexpr ReportName nvtxPushPopSum { "nvtx_pushpop_sum", "NVTX Push/Pop Range Summary" };
inline constexpr ReportName nvtxPushPopTrace { "nvtx_pushpop_trace", "NVTX Push/Pop Range Trace" };
inline constexpr ReportName nvtxStartEndSum { "nvtx_startend_sum", "NVTX Start/End Range Summary" };
inline constexpr ReportName cudaApiGpuSum { "cuda_api_gpu_sum", "CUDA Summary (API/Kernels/MemOps)" };
inline constexpr ReportName umSum { "um_sum", "Unified Memory Analysis Summary" };
inline constexpr ReportName umTotalSum { "um_total_sum", "Unified Memory Totals Summary" };
inline constexpr ReportName umCpuPageFaultsSum { "um_cpu_page_faults_sum", "Unified Memory CPU Page Faults Summary" };
inline constexpr ReportName openAccSum { "openacc_sum", "OpenACC Summary" };
inline constexpr ReportName openMpSum { "openmp_sum", "OpenMP Event Summary" };
} // namespace reportnames

} // namespace nsw

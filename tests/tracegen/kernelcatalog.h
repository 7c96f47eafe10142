// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace nsw::tracegen {

enum class LaunchApi : std::uint8_t
{
    CudaLaunchKernel, // runtime cudaLaunchKernel_v7000 (PyTorch, vLLM, flash-attn)
    CuLaunchKernelEx, // driver, cuBLASLt nvjet kernels and NCCL
    CuLaunchKernel, // driver, Triton
};

enum class KernelCategory : std::uint8_t
{
    Gemm,
    Attention,
    Norm,
    Elementwise,
    Moe,
    Reduce,
    Nccl
};

/// A kernel as CUPTI reports it: names (demangled with templates, short base name, raw mangled symbol) and launch
/// configuration. Durations belong to the workload step that launches it.
struct KernelKind
{
    const char* shortName;
    const char* demangledName;
    const char* mangledName; // same as shortName for extern "C" kernels (nvjet, Triton)
    LaunchApi api;
    KernelCategory category;
    int registers;
    int grid[3];
    int block[3];
    int staticShared;
    int dynamicShared;
    int cluster[3]; // {0,0,0}: no cluster launch
    const char* ncclOp = nullptr; // NVTX NCCL-domain range name for NCCL kernels
};

enum class K : std::uint8_t
{
    Embedding,
    RmsNorm,
    FusedAddRmsNorm,
    GemmQkv,
    GemmOut,
    GemmLmHead,
    GemmGateUp,
    GemmDown,
    GemmDgrad,
    GemmWgrad,
    Rotary,
    FlashFwd,
    FlashSplitKv,
    FlashSplitKvCombine,
    FlashBwdDotDoO,
    FlashBwdDqDkDv,
    FlashBwdConvertDq,
    TopkGating,
    MoeAlign,
    FusedMoe,
    MoeSum,
    ActAndMul,
    SiluBackward,
    Add,
    Copy,
    Softmax,
    SoftmaxBackward,
    NllLoss,
    ArgMax,
    TritonSampler,
    TritonRmsNormBackward,
    FusedAdam,
    NcclAllReduceBf16,
    NcclAllReduceBf16LL128,
    NcclAllReduceF32,
    NcclAllGather,
    NcclReduceScatter,
    NcclSendRecv,
    Count
};

const KernelKind& kernelKind(K k);

} // namespace nsw::tracegen

// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernelcatalog.h"

#include <array>

namespace nsw::tracegen {

namespace {

using A = LaunchApi;
using C = KernelCategory;

#define NCCL_KERNEL(name, len, op)                                                                                     \
    KernelKind                                                                                                         \
    {                                                                                                                  \
        name, name "(ncclDevKernelArgsStorage<(unsigned long)4096>)",                                                  \
            "_Z" #len name "24ncclDevKernelArgsStorageILm4096EE", A::CuLaunchKernelEx, C::Nccl, 96, { 2, 1, 1 },       \
            { 640, 1, 1 }, 0, 0, { 0, 0, 0 }, op                                                                       \
    }
#define NVJET(name, regs, gx, gy, smem, cx, cy)                                                                        \
    KernelKind                                                                                                         \
    {                                                                                                                  \
        name, name, name, A::CuLaunchKernelEx, C::Gemm, regs, { gx, gy, 1 }, { 384, 1, 1 }, 0, smem,                   \
        {                                                                                                              \
            cx, cy, (cx) ? 1 : 0                                                                                       \
        }                                                                                                              \
    }

// Order must follow enum K.
const std::array<KernelKind, std::size_t(K::Count)> kKinds = { {
    { "indexSelectLargeIndex",
        "void at::native::<unnamed>::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, (int)2, (int)2, (int)-2, "
        "(bool)1>(at::cuda::detail::TensorInfo<T1, T3>, at::cuda::detail::TensorInfo<const T1, T3>, "
        "at::cuda::detail::TensorInfo<const T2, T3>, int, int, T3, T3, long)",
        "_ZN2at6native12_GLOBAL__N_121indexSelectLargeIndexIN3c108BFloat16ElLi2ELi2ELin2ELb1EEEvNS_4cuda6detail10Tensor"
        "InfoIT_T1_EENS7_IKS9_SA_EENS7_IKT0_SA_EEiiSA_SA_l",
        A::CudaLaunchKernel, C::Elementwise, 32, { 1024, 1, 1 }, { 128, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "rms_norm_kernel",
        "void vllm::rms_norm_kernel<c10::BFloat16, (int)8, (int)4>(T1 *, const T1 *, const T1 *, float, int, int)",
        "_ZN4vllm15rms_norm_kernelIN3c108BFloat16ELi8ELi4EEEvPT_PKS3_S6_fii", A::CudaLaunchKernel, C::Norm, 28,
        { 256, 1, 1 }, { 1024, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "fused_add_rms_norm_kernel",
        "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, (int)8>(T1 *, T1 *, const T1 *, float, int, int)",
        "_ZN4vllm25fused_add_rms_norm_kernelIN3c108BFloat16ELi8EEEvPT_S4_PKS3_fii", A::CudaLaunchKernel, C::Norm, 32,
        { 256, 1, 1 }, { 1024, 1, 1 }, 0, 0, { 0, 0, 0 } },
    NVJET("nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", 168, 2, 66, 213196, 2, 1),
    NVJET("nvjet_tst_96x64_64x10_1x2_h_bz_bias_TNN", 168, 16, 8, 205824, 1, 2),
    { "Kernel2",
        "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8>(T1::Params)",
        "_ZN7cutlass7Kernel2I66cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8EEvNT_6ParamsE",
        A::CudaLaunchKernel, C::Gemm, 126, { 501, 1, 1 }, { 128, 1, 1 }, 0, 81920, { 0, 0, 0 } },
    NVJET("nvjet_tst_192x208_64x4_1x1_h_bz_coopB_bias_TNT", 168, 132, 1, 221184, 0, 0),
    NVJET("nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NTN", 168, 2, 66, 200704, 2, 1),
    NVJET("nvjet_tst_128x256_64x4_1x2_h_bz_coopB_NTN", 168, 66, 2, 200704, 1, 2),
    NVJET("nvjet_tst_256x128_64x4_2x1_v_bz_coopA_NNT", 168, 2, 66, 200704, 2, 1),
    { "rotary_embedding_kernel",
        "void vllm::rotary_embedding_kernel<c10::BFloat16, (bool)1>(const long *, T1 *, T1 *, const T1 *, int, long, "
        "long, "
        "long, int, int, int)",
        "_ZN4vllm23rotary_embedding_kernelIN3c108BFloat16ELb1EEEvPKlPT_S6_PKS5_illliii", A::CudaLaunchKernel,
        C::Elementwise, 30, { 256, 1, 1 }, { 512, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "flash_fwd_kernel",
        "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<(int)128, (int)128, (int)64, (int)4, (bool)0, (bool)0, "
        "cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)128, (int)64, (int)4, cutlass::bfloat16_t>>, (bool)0, "
        "(bool)1, (bool)0, (bool)0, (bool)1, (bool)1, (bool)0, (bool)0>(flash::Flash_fwd_params)",
        "_ZN5flash16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128ELi128ELi64ELi4ELb0ELb0EN7cutlass10bfloat16_"
        "tE19Flash_"
        "kernel_traitsILi128ELi128ELi64ELi4ES3_EELb0ELb1ELb0ELb0ELb1ELb1ELb0ELb0EEEvNS_16Flash_fwd_paramsE",
        A::CudaLaunchKernel, C::Attention, 255, { 16, 32, 4 }, { 128, 1, 1 }, 0, 49152, { 0, 0, 0 } },
    { "flash_fwd_splitkv_kernel",
        "void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<(int)128, (int)64, (int)128, (int)4, (bool)0, "
        "(bool)0, "
        "cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)64, (int)128, (int)4, cutlass::bfloat16_t>>, (bool)1, "
        "(bool)0, (bool)0, (bool)0, (bool)1, (bool)0, (bool)1, (bool)0>(flash::Flash_fwd_params)",
        "_ZN5flash24flash_fwd_splitkv_kernelI23Flash_fwd_kernel_"
        "traitsILi128ELi64ELi128ELi4ELb0ELb0EN7cutlass10bfloat16_tE1"
        "9Flash_kernel_traitsILi128ELi64ELi128ELi4ES3_EELb1ELb0ELb0ELb0ELb1ELb0ELb1ELb0EEEvNS_16Flash_fwd_paramsE",
        A::CudaLaunchKernel, C::Attention, 255, { 1, 64, 8 }, { 128, 1, 1 }, 0, 49152, { 0, 0, 0 } },
    { "flash_fwd_splitkv_combine_kernel",
        "void flash::flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<(int)128, (int)64, (int)128, (int)4, "
        "(bool)0, "
        "(bool)0, cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)64, (int)128, (int)4, cutlass::bfloat16_t>>, "
        "(int)4, (int)3, (bool)1>(flash::Flash_fwd_params)",
        "_ZN5flash32flash_fwd_splitkv_combine_kernelI23Flash_fwd_kernel_"
        "traitsILi128ELi64ELi128ELi4ELb0ELb0EN7cutlass10bfl"
        "oat16_tE19Flash_kernel_traitsILi128ELi64ELi128ELi4ES3_EELi4ELi3ELb1EEEvNS_16Flash_fwd_paramsE",
        A::CudaLaunchKernel, C::Attention, 64, { 128, 1, 1 }, { 128, 1, 1 }, 0, 8192, { 0, 0, 0 } },
    { "flash_bwd_dot_do_o_kernel",
        "void flash::flash_bwd_dot_do_o_kernel<(bool)1, Flash_bwd_kernel_traits<(int)128, (int)64, (int)128, (int)8, "
        "(int)2, "
        "(int)4, (int)2, (bool)0, (bool)0, cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)64, (int)128, "
        "(int)8, "
        "cutlass::bfloat16_t>>>(flash::Flash_bwd_params)",
        "_ZN5flash25flash_bwd_dot_do_o_kernelILb1E23Flash_bwd_kernel_"
        "traitsILi128ELi64ELi128ELi8ELi2ELi4ELi2ELb0ELb0EN7cutl"
        "ass10bfloat16_tE19Flash_kernel_traitsILi128ELi64ELi128ELi8ES3_EEEEvNS_16Flash_bwd_paramsE",
        A::CudaLaunchKernel, C::Attention, 40, { 64, 4, 16 }, { 256, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel",
        "void flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<(int)128, (int)64, (int)128, "
        "(int)8, (int)2, (int)4, (int)2, (bool)0, (bool)0, cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)64, "
        "(int)128, (int)8, cutlass::bfloat16_t>>, (bool)1, (bool)0, (bool)0, (bool)0, (bool)0, "
        "(bool)0>(flash::Flash_bwd_params)",
        "_ZN5flash44flash_bwd_dq_dk_dv_loop_seqk_parallel_kernelI23Flash_bwd_kernel_"
        "traitsILi128ELi64ELi128ELi8ELi2ELi4ELi2"
        "ELb0ELb0EN7cutlass10bfloat16_tE19Flash_kernel_traitsILi128ELi64ELi128ELi8ES3_EELb1ELb0ELb0ELb0ELb0ELb0EEEvNS_"
        "16Fl"
        "ash_bwd_paramsE",
        A::CudaLaunchKernel, C::Attention, 255, { 64, 4, 16 }, { 256, 1, 1 }, 0, 147456, { 0, 0, 0 } },
    { "flash_bwd_convert_dq_kernel",
        "void flash::flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits<(int)128, (int)64, (int)128, (int)8, (int)2, "
        "(int)4, (int)2, (bool)0, (bool)0, cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)64, (int)128, "
        "(int)8, "
        "cutlass::bfloat16_t>>>(flash::Flash_bwd_params, int)",
        "_ZN5flash27flash_bwd_convert_dq_kernelI23Flash_bwd_kernel_"
        "traitsILi128ELi64ELi128ELi8ELi2ELi4ELi2ELb0ELb0EN7cutla"
        "ss10bfloat16_tE19Flash_kernel_traitsILi128ELi64ELi128ELi8ES3_EEEEvNS_16Flash_bwd_paramsEi",
        A::CudaLaunchKernel, C::Attention, 48, { 64, 4, 16 }, { 256, 1, 1 }, 0, 32768, { 0, 0, 0 } },
    { "topkGatingSoftmax",
        "void vllm::moe::topkGatingSoftmax<(int)8, (int)128, (int)4, (int)16, int>(const float *, const bool *, float "
        "*, int, "
        "T5 *, int *, int, int, int)",
        "_ZN4vllm3moe17topkGatingSoftmaxILi8ELi128ELi4ELi16EiEEvPKfPKbPfiPT3_Piiii", A::CudaLaunchKernel, C::Moe, 40,
        { 64, 1, 1 }, { 32, 4, 1 }, 0, 0, { 0, 0, 0 } },
    { "moe_align_block_size_kernel",
        "void vllm::moe::moe_align_block_size_kernel<int>(const T1 *, int *, int *, int *, int, int, int, int, "
        "unsigned long, "
        "int *)",
        "_ZN4vllm3moe27moe_align_block_size_kernelIiEEvPKT_PiS5_S5_iiiimS5_", A::CudaLaunchKernel, C::Moe, 38,
        { 1, 1, 1 }, { 1024, 1, 1 }, 0, 2056, { 0, 0, 0 } },
    { "fused_moe_kernel", "fused_moe_kernel", "fused_moe_kernel", A::CuLaunchKernel, C::Moe, 255, { 1056, 1, 1 },
        { 256, 1, 1 }, 0, 98304, { 0, 0, 0 } },
    { "moe_sum_kernel", "void vllm::moe::moe_sum_kernel<c10::BFloat16, (int)2>(T1 *, const T1 *, int)",
        "_ZN4vllm3moe14moe_sum_kernelIN3c108BFloat16ELi2EEEvPT_PKS4_i", A::CudaLaunchKernel, C::Moe, 24, { 256, 1, 1 },
        { 1024, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "act_and_mul_kernel",
        "void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, (bool)1>(T1 *, const T1 *, "
        "int)",
        "_ZN4vllm18act_and_mul_kernelIN3c108BFloat16EXadL_ZNS_11silu_kernelIS2_EET_RKS4_EELb1EEEvPS4_PS5_i",
        A::CudaLaunchKernel, C::Elementwise, 26, { 256, 1, 1 }, { 1024, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "vectorized_elementwise_kernel",
        "void at::native::vectorized_elementwise_kernel<(int)8, "
        "at::native::<unnamed>::silu_backward_kernel(at::TensorIterator"
        "Base &)::[lambda() (instance 1)]::operator ()() const::[lambda() (instance 4)]::operator ()() "
        "const::[lambda(c10::BFl"
        "oat16, c10::BFloat16) (instance 1)], std::array<char *, (unsigned long)3>>(int, T2, T3)",
        "_ZN2at6native29vectorized_elementwise_kernelILi8EZZZNS0_12_GLOBAL__N_120silu_backward_kernelERNS_"
        "18TensorIteratorB"
        "aseEENKUlvE_clEvENKUlvE2_clEvEUlN3c108BFloat16ES8_E_St5arrayIPcLm3EEEEviT0_T1_",
        A::CudaLaunchKernel, C::Elementwise, 32, { 8192, 1, 1 }, { 128, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "vectorized_elementwise_kernel",
        "void at::native::vectorized_elementwise_kernel<(int)8, at::native::CUDAFunctor_add<c10::BFloat16>, "
        "std::array<char *, "
        "(unsigned long)3>>(int, T2, T3)",
        "_ZN2at6native29vectorized_elementwise_kernelILi8ENS0_15CUDAFunctor_"
        "addIN3c108BFloat16EEESt5arrayIPcLm3EEEEviT0_T1_",
        A::CudaLaunchKernel, C::Elementwise, 28, { 8192, 1, 1 }, { 128, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "elementwise_kernel",
        "void at::native::elementwise_kernel<(int)128, (int)4, void "
        "at::native::gpu_kernel_impl_nocast<at::native::direct_copy"
        "_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance "
        "12)]::opera"
        "tor ()() const::[lambda(c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) "
        "(instance "
        "1)]>(int, T3)",
        "_ZN2at6native18elementwise_kernelILi128ELi4EZNS0_22gpu_kernel_impl_nocastIZZZNS0_23direct_copy_kernel_"
        "cudaERNS_18T"
        "ensorIteratorBaseEENKUlvE1_clEvENKUlvE10_clEvEUlN3c108BFloat16EE_EEvS4_RKT_EUliE_EEviT1_",
        A::CudaLaunchKernel, C::Elementwise, 26, { 4096, 1, 1 }, { 128, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "cunn_SoftMaxForward",
        "void at::native::<unnamed>::cunn_SoftMaxForward<(int)4, float, float, float, "
        "at::native::<unnamed>::SoftMaxForwardEpilogue>(T4 *, const T2 *, int)",
        "_ZN2at6native12_GLOBAL__N_119cunn_SoftMaxForwardILi4EfffNS1_22SoftMaxForwardEpilogueEEEvPT2_PKT0_i",
        A::CudaLaunchKernel, C::Reduce, 40, { 64, 1, 1 }, { 1024, 1, 1 }, 0, 4096, { 0, 0, 0 } },
    { "cunn_SoftMaxBackward",
        "void at::native::<unnamed>::cunn_SoftMaxBackward<(int)4, float, float, float, "
        "at::native::<unnamed>::LogSoftMaxBackwardEpilogue>(T2 *, const T4 *, const T4 *, long)",
        "_ZN2at6native12_GLOBAL__N_120cunn_SoftMaxBackwardILi4EfffNS1_26LogSoftMaxBackwardEpilogueEEEvPT0_PKT2_S8_l",
        A::CudaLaunchKernel, C::Reduce, 40, { 4096, 1, 1 }, { 1024, 1, 1 }, 0, 4096, { 0, 0, 0 } },
    { "nll_loss_forward_reduce_cuda_kernel_2d",
        "void at::native::<unnamed>::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(T1 *, T1 *, const T1 "
        "*, const "
        "T3 *, const T1 *, bool, long, long, long, long)",
        "_ZN2at6native12_GLOBAL__N_138nll_loss_forward_reduce_cuda_kernel_2dIfflEEvPT_S4_PKS3_PKT1_S6_blllll",
        A::CudaLaunchKernel, C::Reduce, 32, { 1, 1, 1 }, { 1024, 1, 1 }, 0, 8192, { 0, 0, 0 } },
    { "reduce_kernel",
        "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, "
        "unsigned "
        "int, long, (int)4, (int)4>>(T3)",
        "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_9ArgMaxOpsIfEEjlLi4ELi4EEEEEvT1_",
        A::CudaLaunchKernel, C::Reduce, 40, { 64, 1, 1 }, { 32, 16, 1 }, 0, 16, { 0, 0, 0 } },
    { "triton_poi_fused_div_exponential_argmax_0", "triton_poi_fused_div_exponential_argmax_0",
        "triton_poi_fused_div_exponential_argmax_0", A::CuLaunchKernel, C::Reduce, 32, { 64, 1, 1 }, { 256, 1, 1 }, 0,
        0, { 0, 0, 0 } },
    { "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_sum_1",
        "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_sum_1",
        "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_sum_1", A::CuLaunchKernel, C::Norm, 48, { 4096, 1, 1 },
        { 256, 1, 1 }, 0, 0, { 0, 0, 0 } },
    { "multi_tensor_apply_kernel",
        "void multi_tensor_apply_kernel<at::native::<unnamed>::TensorListMetadata<(int)4>, "
        "at::native::<unnamed>::FusedAdamMathFunctor<float, (int)4, (at::native::ADAM_MODE)1, (bool)0>, double *, "
        "double, "
        "double, double, double, double, bool, double *, double *>(T1, T2, T3...)",
        "_Z25multi_tensor_apply_kernelIN2at6native12_GLOBAL__N_118TensorListMetadataILi4EEENS2_"
        "20FusedAdamMathFunctorIfLi4"
        "ELNS1_9ADAM_MODEE1ELb0EEEJPddddddbS9_S9_EEvT_T0_DpT1_",
        A::CudaLaunchKernel, C::Elementwise, 72, { 320, 1, 1 }, { 512, 1, 1 }, 0, 0, { 0, 0, 0 } },
    NCCL_KERNEL("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 40, "ncclAllReduce"),
    NCCL_KERNEL("ncclDevKernel_AllReduce_Sum_bf16_RING_LL128", 43, "ncclAllReduce"),
    NCCL_KERNEL("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 39, "ncclAllReduce"),
    NCCL_KERNEL("ncclDevKernel_AllGather_RING_LL", 31, "ncclAllGather"),
    NCCL_KERNEL("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", 44, "ncclReduceScatter"),
    NCCL_KERNEL("ncclDevKernel_SendRecv", 22, "ncclSend"),
} };

#undef NCCL_KERNEL
#undef NVJET

} // namespace

const KernelKind& kernelKind(K k)
{
    return kKinds[std::size_t(k)];
}

} // namespace nsw::tracegen

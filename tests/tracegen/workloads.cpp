// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloads.h"

#include "simulator.h"

namespace nsw::tracegen {

namespace {

constexpr qint64 us = 1000;
constexpr qint64 ms = 1000 * us;

constexpr Ops kLinear = { "aten::linear", "aten::matmul", "aten::mm" };
constexpr qint64 kGreen = 0xFF76B900, kBlue = 0xFF1F77B4, kOrange = 0xFFFF7F0E, kPurple = 0xFF9467BD;

RangeName registered(const char* text)
{
    return { RangeName::Registered, text, 0 };
}

RangeName layer(int l)
{
    return { RangeName::Indexed, "model.layers.", l };
}

/// Per-layer kernel durations of an inference step.
struct LayerTimes
{
    qint64 norm, qkv, rotary, attn, combine, out, allReduce, topk, align, moe, act, sum;
};

constexpr LayerTimes kDecode { 4 * us, 26 * us, 3 * us, 21 * us, 4 * us, 15 * us, 12 * us, 3 * us, 5 * us, 48 * us,
    4 * us, 3 * us };
constexpr LayerTimes kPrefill { 22 * us, 240 * us, 14 * us, 180 * us, 0, 120 * us, 110 * us, 9 * us, 12 * us, 420 * us,
    30 * us, 18 * us };

} // namespace

void initPhase(Simulator& sim, const GeneratorConfig& cfg)
{
    if (cfg.gpus > 1)
        sim.domainCreate(1, "NCCL", -850 * ms);
    sim.api(Api::GetDeviceCount, 1200);
    sim.api(Api::SetDevice, 2400);
    sim.api(Api::GetDeviceProperties, 310 * us);
    sim.api(Api::ModuleGetLoadingMode, 900);
    for (int i = 0; i < 2; ++i)
        sim.api(Api::StreamCreateWithPriority, 14 * us);
    for (int i = 0; i < 4; ++i)
        sim.api(Api::EventCreateWithFlags, 1800);
    sim.push({ RangeName::Literal, "load_weights" }, kPurple);
    for (int i = 0; i < 4; ++i) {
        sim.api(Api::Malloc, 180 * us);
        sim.memcpy(1, 256LL << 20, Copy, "aten::copy_");
    }
    sim.streamSync(Copy);
    sim.pop();
    if (cfg.gpus > 1) {
        sim.push(registered("ncclCommInitRank"), -1, 1);
        sim.api(Api::Malloc, 150 * us);
        sim.cpuGap(12 * ms);
        sim.barrier(); // ncclCommInitRank returns once every rank joined
        sim.pop();
    }
    sim.cpuGap(5 * ms);
}

void inferenceStep(Simulator& sim, const GeneratorConfig& cfg, qint64 step, Rng& structure)
{
    const bool tp = cfg.gpus > 1;
    const bool prefill = step % cfg.prefillEvery == 0;
    const LayerTimes& t = prefill ? kPrefill : kDecode;
    if (step % 4 == 0) {
        if (step >= 12)
            sim.finishRequest();
        sim.startRequest("request ", step / 4);
        sim.mark("request_arrived");
    }
    if (prefill)
        sim.startLocalRange("prefill batch ", step / cfg.prefillEvery);
    sim.push(registered("execute_model"), kGreen);
    sim.push(registered(prefill ? "prefill" : "decode"), prefill ? kOrange : kBlue);
    sim.memset(4096, Compute);
    sim.memcpy(1, 64 * 8, Compute, "aten::copy_");
    sim.kernel(K::Embedding, prefill ? 40 * us : 5 * us, { "aten::embedding", "aten::index_select" });
    if (cfg.cudaGraphs && !prefill) {
        GraphBody body;
        for (int l = 0; l < cfg.layers; ++l) {
            body.insert(body.end(),
                { { K::FusedAddRmsNorm, t.norm }, { K::GemmQkv, t.qkv }, { K::Rotary, t.rotary },
                    { K::FlashSplitKv, t.attn }, { K::FlashSplitKvCombine, t.combine }, { K::GemmOut, t.out } });
            if (tp)
                body.push_back({ K::NcclAllReduceBf16, t.allReduce });
            body.insert(body.end(),
                { { K::FusedAddRmsNorm, t.norm }, { K::TopkGating, t.topk }, { K::MoeAlign, t.align },
                    { K::FusedMoe, t.moe }, { K::ActAndMul, t.act }, { K::FusedMoe, t.moe }, { K::MoeSum, t.sum } });
            if (tp)
                body.push_back({ K::NcclAllReduceBf16, t.allReduce });
        }
        sim.graphLaunch(body, 1 + step % 3);
    } else {
        const K allReduce = prefill ? K::NcclAllReduceBf16LL128 : K::NcclAllReduceBf16;
        for (int l = 0; l < cfg.layers; ++l) {
            sim.push(layer(l));
            sim.kernel(K::FusedAddRmsNorm, t.norm, { "_C::fused_add_rms_norm" });
            sim.kernel(K::GemmQkv, t.qkv, kLinear);
            sim.kernel(K::Rotary, t.rotary, { "_C::rotary_embedding" });
            if (prefill) {
                sim.kernel(K::FlashFwd, t.attn, { "vllm::unified_attention", "_vllm_fa2_C::varlen_fwd" });
            } else {
                sim.kernel(K::FlashSplitKv, t.attn, { "vllm::unified_attention", "_vllm_fa2_C::varlen_fwd" });
                sim.kernel(K::FlashSplitKvCombine, t.combine, { "_vllm_fa2_C::varlen_fwd" });
            }
            sim.kernel(K::GemmOut, t.out, kLinear);
            if (tp)
                sim.nccl(allReduce, t.allReduce, "vllm::all_reduce", true);
            sim.kernel(K::FusedAddRmsNorm, t.norm, { "_C::fused_add_rms_norm" });
            sim.kernel(K::TopkGating, t.topk, { "_moe_C::topk_softmax" });
            sim.kernel(K::MoeAlign, t.align, { "_moe_C::moe_align_block_size" });
            sim.kernel(K::FusedMoe, t.moe, { "vllm::outplace_fused_experts" });
            sim.kernel(K::ActAndMul, t.act, { "_C::silu_and_mul" });
            sim.kernel(K::FusedMoe, t.moe, { "vllm::outplace_fused_experts" });
            sim.kernel(K::MoeSum, t.sum, { "_moe_C::moe_sum" });
            if (tp)
                sim.nccl(allReduce, t.allReduce, "vllm::all_reduce", true);
            sim.pop();
        }
    }
    sim.kernel(K::RmsNorm, prefill ? 10 * us : 4 * us, { "_C::rms_norm" });
    sim.kernel(K::GemmLmHead, prefill ? 90 * us : 38 * us, kLinear);
    if (tp)
        sim.nccl(K::NcclAllGather, prefill ? 12 * us : 9 * us, "vllm::all_gather", true);
    sim.kernel(K::Softmax, prefill ? 9 * us : 7 * us, { "aten::softmax", "aten::_softmax" });
    sim.kernel(K::ArgMax, 5 * us, { "aten::argmax" });
    sim.kernel(K::TritonSampler, 6 * us, { "Torch-Compiled Region: 0/0" });
    sim.memcpy(2, 64 * 8, Compute, "aten::copy_");
    sim.streamSync(Compute);
    sim.pop();
    sim.pop();
    if (prefill)
        sim.endLocalRange();
    sim.workerRanges("detokenize", "decode_tokens", 60 * us);
    sim.cpuGap(150 * us);
    if (structure.chance(40)) {
        sim.mark("no_pending_requests");
        sim.idle(structure.range(2 * ms, 12 * ms));
    }
}

void trainingStep(Simulator& sim, const GeneratorConfig& cfg, qint64 step, Rng& structure)
{
    const bool dp = cfg.gpus > 1;
    const Ops mmBackward = { "autograd::engine::evaluate_function: MmBackward0", "MmBackward0", "aten::mm" };
    if (step > 0)
        sim.finishRequest(); // the batch the data-loader thread prepared
    sim.push(registered("train_step"), kGreen);
    sim.memcpy(1, 8LL << 20, Copy, "aten::copy_");
    sim.waitStream(Compute, Copy);

    sim.push(registered("forward"), kBlue);
    sim.kernel(K::Embedding, 35 * us, { "aten::embedding", "aten::index_select" });
    if (dp)
        sim.nccl(K::NcclAllGather, 220 * us, "c10d::_allgather_base_", false);
    for (int l = 0; l < cfg.layers; ++l) {
        sim.push(layer(l));
        if (dp) {
            sim.waitStream(Compute, Comm); // parameters of this layer gathered
            if (l + 1 < cfg.layers)
                sim.nccl(K::NcclAllGather, 220 * us, "c10d::_allgather_base_", false); // prefetch the next layer
        }
        sim.kernel(K::RmsNorm, 40 * us, { "aten::rms_norm" });
        sim.kernel(K::GemmQkv, 380 * us, kLinear);
        sim.kernel(K::Rotary, 30 * us, { "aten::mul" });
        sim.kernel(K::FlashFwd, 620 * us, { "flash_attn::_flash_attn_forward" });
        sim.kernel(K::GemmOut, 130 * us, kLinear);
        sim.kernel(K::Add, 28 * us, { "aten::add" });
        sim.kernel(K::RmsNorm, 40 * us, { "aten::rms_norm" });
        sim.kernel(K::GemmGateUp, 720 * us, kLinear);
        sim.kernel(K::ActAndMul, 65 * us, { "aten::silu" });
        sim.kernel(K::GemmDown, 360 * us, kLinear);
        sim.kernel(K::Add, 28 * us, { "aten::add" });
        sim.pop();
    }
    sim.kernel(K::RmsNorm, 40 * us, { "aten::rms_norm" });
    sim.kernel(K::GemmLmHead, 900 * us, kLinear);
    sim.kernel(K::Softmax, 210 * us, { "aten::cross_entropy_loss", "aten::log_softmax" });
    sim.kernel(K::NllLoss, 12 * us, { "aten::cross_entropy_loss", "aten::nll_loss_nd" });
    sim.pop();

    sim.switchThread(Thread::Autograd);
    sim.push(registered("backward"), kOrange);
    sim.kernel(K::SoftmaxBackward, 230 * us,
        { "autograd::engine::evaluate_function: LogSoftmaxBackward0", "LogSoftmaxBackward0",
            "aten::_log_softmax_backward_data" });
    sim.kernel(K::GemmDgrad, 400 * us, mmBackward);
    sim.kernel(K::GemmWgrad, 420 * us, mmBackward);
    for (int l = cfg.layers - 1; l >= 0; --l) {
        sim.kernel(K::GemmDgrad, 400 * us, mmBackward);
        sim.kernel(K::GemmWgrad, 420 * us, mmBackward);
        sim.kernel(K::SiluBackward, 70 * us,
            { "autograd::engine::evaluate_function: SiluBackward0", "SiluBackward0", "aten::silu_backward" });
        sim.kernel(K::GemmDgrad, 400 * us, mmBackward);
        sim.kernel(K::GemmWgrad, 420 * us, mmBackward);
        sim.kernel(K::TritonRmsNormBackward, 55 * us,
            { "autograd::engine::evaluate_function: CompiledFunctionBackward", "CompiledFunctionBackward" });
        sim.kernel(K::GemmDgrad, 400 * us, mmBackward);
        sim.kernel(K::GemmWgrad, 420 * us, mmBackward);
        const Ops flashBackward = { "autograd::engine::evaluate_function: FlashAttnFuncBackward",
            "FlashAttnFuncBackward", "flash_attn::_flash_attn_backward" };
        sim.kernel(K::FlashBwdDotDoO, 35 * us, flashBackward);
        sim.kernel(K::FlashBwdDqDkDv, 1500 * us, flashBackward);
        sim.kernel(K::FlashBwdConvertDq, 30 * us, flashBackward);
        sim.kernel(
            K::Copy, 25 * us, { "autograd::engine::evaluate_function: MulBackward0", "MulBackward0", "aten::mul" });
        sim.kernel(K::GemmDgrad, 400 * us, mmBackward);
        sim.kernel(K::GemmWgrad, 420 * us, mmBackward);
        sim.kernel(K::TritonRmsNormBackward, 55 * us,
            { "autograd::engine::evaluate_function: CompiledFunctionBackward", "CompiledFunctionBackward" });
        if (dp)
            sim.nccl(K::NcclReduceScatter, 900 * us, "c10d::_reduce_scatter_base_", false); // overlaps backward
    }
    sim.pop();
    sim.switchThread(Thread::Main);

    sim.push(registered("optimizer_step"), kPurple);
    if (dp) {
        sim.waitStream(Compute, Comm);
        sim.nccl(K::NcclAllReduceF32, 18 * us, "c10d::allreduce_", true);
        sim.push(registered("ncclGroupStart"), -1, 1);
        sim.pop();
        sim.nccl(K::NcclSendRecv, 140 * us, "c10d::send", true);
        sim.push(registered("ncclGroupEnd"), -1, 1);
        sim.pop();
    }
    for (int i = 0; i < 2; ++i)
        sim.kernel(K::FusedAdam, 450 * us, { "Optimizer.step#AdamW.step", "aten::_fused_adamw_" });
    sim.memset(64LL << 20, Compute);
    sim.memcpy(2, 4, Compute, "aten::item");
    sim.streamSync(Compute);
    sim.pop();
    sim.pop();

    sim.startRequest("batch ", step + 1);
    sim.workerRanges("DataLoader.__next__", "pin_memory", 300 * us);
    sim.cpuGap(400 * us);
    if (step % 25 == 24 || structure.chance(10)) {
        sim.mark("checkpoint");
        sim.idle(structure.range(8 * ms, 25 * ms));
    }
}

} // namespace nsw::tracegen

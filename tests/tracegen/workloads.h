// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "generator.h"
#include "random.h"

namespace nsw::tracegen {

class Simulator;

/// Process start-up: device queries, stream creation, weight upload, NCCL communicator set-up.
void initPhase(Simulator& sim, const GeneratorConfig& cfg);

/// One engine step of LLM inference (tensor parallel over all GPUs): a prefill every cfg.prefillEvery steps,
/// otherwise a decode step (replayed as a CUDA graph with cfg.cudaGraphs).
void inferenceStep(Simulator& sim, const GeneratorConfig& cfg, qint64 step, Rng& structure);

/// One training step (FSDP over all GPUs): forward, backward on the autograd thread with reduce-scatter overlapping
/// it, optimizer.
void trainingStep(Simulator& sim, const GeneratorConfig& cfg, qint64 step, Rng& structure);

} // namespace nsw::tracegen

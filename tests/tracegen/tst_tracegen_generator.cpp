// SPDX-License-Identifier: GPL-3.0-or-later
// What nsys-tracegen writes, checked with plain SQL on the generated files against hand-worked expectations.
#include "cpusampler.h"
#include "generator.h"
#include "schemacatalog.h"
#include "sqltestutil.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw::tracegen;
using nsw::tracegen::test::Db;

namespace {

constexpr qint64 us = 1000;

struct Expected
{
    const char* shortName;
    qint64 count;
    qint64 totalNs;
};

// Inference, 2 GPUs (tensor parallel), 2 layers, jitter 0, 588 kernels = 8 engine steps per GPU: one prefill and seven
// decode steps. Per GPU and step: embedding; per layer norm, QKV GEMM, rotary, attention (prefill: flash_fwd; decode:
// split-KV + combine), O GEMM, all-reduce, norm, top-k gating, align, fused MoE x2, act-and-mul, MoE sum, all-reduce;
// then final norm, LM head, all-gather, softmax, argmax, sampler. Durations (µs, prefill/decode) from workloads.cpp.
const QList<Expected> kInference = {
    { "indexSelectLargeIndex", 16, 2 * (40 + 7 * 5) * us },
    { "fused_add_rms_norm_kernel", 64, 2 * 2 * 2 * (22 + 7 * 4) * us },
    { "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", 32, 2 * 2 * (240 + 7 * 26) * us },
    { "rotary_embedding_kernel", 32, 2 * 2 * (14 + 7 * 3) * us },
    { "flash_fwd_kernel", 4, 2 * 2 * 180 * us },
    { "flash_fwd_splitkv_kernel", 28, 2 * 2 * 7 * 21 * us },
    { "flash_fwd_splitkv_combine_kernel", 28, 2 * 2 * 7 * 4 * us },
    { "nvjet_tst_96x64_64x10_1x2_h_bz_bias_TNN", 32, 2 * 2 * (120 + 7 * 15) * us },
    { "ncclDevKernel_AllReduce_Sum_bf16_RING_LL128", 8, 2 * 2 * 2 * 110 * us },
    { "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 56, 2 * 2 * 2 * 7 * 12 * us },
    { "topkGatingSoftmax", 32, 2 * 2 * (9 + 7 * 3) * us },
    { "moe_align_block_size_kernel", 32, 2 * 2 * (12 + 7 * 5) * us },
    { "fused_moe_kernel", 64, 2 * 2 * 2 * (420 + 7 * 48) * us },
    { "act_and_mul_kernel", 32, 2 * 2 * (30 + 7 * 4) * us },
    { "moe_sum_kernel", 32, 2 * 2 * (18 + 7 * 3) * us },
    { "rms_norm_kernel", 16, 2 * (10 + 7 * 4) * us },
    { "Kernel2", 16, 2 * (90 + 7 * 38) * us },
    { "ncclDevKernel_AllGather_RING_LL", 16, 2 * (12 + 7 * 9) * us },
    { "cunn_SoftMaxForward", 16, 2 * (9 + 7 * 7) * us },
    { "reduce_kernel", 16, 2 * 8 * 5 * us },
    { "triton_poi_fused_div_exponential_argmax_0", 16, 2 * 8 * 6 * us },
};

// Training, 2 GPUs (FSDP), 2 layers, jitter 0, 272 kernels = 2 steps of 68 kernels per GPU. A selection: GEMM
// dgrad/wgrad run once for the LM head and 4x per layer in backward; reduce-scatter once per layer in backward;
// all-gather once before the first layer plus one prefetch per further layer; the two elementwise kernels sharing a
// short name are the residual add (2 per layer, forward) and SiLU backward (1 per layer).
const QList<Expected> kTraining = {
    { "nvjet_tst_128x256_64x4_1x2_h_bz_coopB_NTN", 2 * 2 * 9, 2 * 2 * 9 * 400 * us },
    { "nvjet_tst_256x128_64x4_2x1_v_bz_coopA_NNT", 2 * 2 * 9, 2 * 2 * 9 * 420 * us },
    { "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", 2 * 2 * 2, 2 * 2 * 2 * 900 * us },
    { "ncclDevKernel_AllGather_RING_LL", 2 * 2 * 2, 2 * 2 * 2 * 220 * us },
    { "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 2 * 2, 2 * 2 * 18 * us },
    { "ncclDevKernel_SendRecv", 2 * 2, 2 * 2 * 140 * us },
    { "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel", 2 * 2 * 2, 2 * 2 * 2 * 1500 * us },
    { "vectorized_elementwise_kernel", 2 * 2 * 2 * 3, 2 * 2 * 2 * (2 * 28 + 70) * us },
    { "multi_tensor_apply_kernel", 2 * 2 * 2, 2 * 2 * 2 * 450 * us },
    { "rms_norm_kernel", 2 * 2 * 5, 2 * 2 * 5 * 40 * us },
};

GeneratorConfig config(const QString& path, Workload workload, int gpus, qint64 kernels, int layers, int jitter)
{
    GeneratorConfig c;
    c.outPath = path;
    c.workload = workload;
    c.gpus = gpus;
    c.kernels = kernels;
    c.layers = layers;
    c.jitterPct = jitter;
    c.seed = 9;
    return c;
}

QByteArray sha(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

/// Depth of the deepest push/pop range (0 = top level), nesting counted per thread and domain.
const char* kMaxDepth = "SELECT max(d) FROM (SELECT a.rowid, count(b.rowid) AS d FROM NVTX_EVENTS a JOIN NVTX_EVENTS b "
                        "ON b.globalTid = a.globalTid AND b.domainId = a.domainId AND b.eventType = 59 "
                        "AND b.rowid <> a.rowid AND b.start <= a.start AND b.end >= a.end "
                        "WHERE a.eventType = 59 GROUP BY a.rowid)";

} // namespace

class TestTracegenGenerator : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString generate(const QString& name, const GeneratorConfig& base)
    {
        GeneratorConfig c = base;
        c.outPath = m_dir.filePath(name);
        generateExport(c);
        return c.outPath;
    }

private slots:
    void kernelCountAndSplit_data()
    {
        QTest::addColumn<int>("workload");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<qint64>("kernels");
        QTest::newRow("inference 2 GPUs") << int(Workload::LlmInference) << 2 << qint64(1001);
        QTest::newRow("inference 1 GPU") << int(Workload::LlmInference) << 1 << qint64(123);
        QTest::newRow("training 3 GPUs") << int(Workload::Training) << 3 << qint64(500);
        QTest::newRow("training 4 GPUs") << int(Workload::Training) << 4 << qint64(2000);
    }

    void kernelCountAndSplit()
    {
        QFETCH(int, workload);
        QFETCH(int, gpus);
        QFETCH(qint64, kernels);
        const QString path
            = generate(QStringLiteral("count.sqlite"), config({}, Workload(workload), gpus, kernels, 3, 10));
        Db db(path);
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")), kernels);
        const auto perDevice = db.rows(QStringLiteral("SELECT deviceId, count(*), count(DISTINCT globalPid) FROM "
                                                      "CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1 ORDER BY 1"));
        QCOMPARE(perDevice.size(), gpus);
        for (int g = 0; g < gpus; ++g) {
            QCOMPARE(perDevice[g][0].toLongLong(), qint64(g));
            QCOMPARE(perDevice[g][1].toLongLong(), kernels / gpus + (g < kernels % gpus ? 1 : 0));
            QCOMPARE(perDevice[g][2].toLongLong(), qint64(1)); // one process per GPU
        }
        // Kernels on one stream never overlap.
        QCOMPARE(
            db.integer(QStringLiteral(
                "SELECT count(*) FROM (SELECT start, lag(end) OVER (PARTITION BY globalPid, streamId ORDER BY start) "
                "AS prev FROM CUPTI_ACTIVITY_KIND_KERNEL) WHERE prev > start")),
            0);
        QCOMPARE(db.integer(
                     QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end <= start OR start < 0")),
            0);
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM PROCESSES WHERE name = 'python3'")), qint64(gpus));
    }

    void handCheckedTotals_data()
    {
        QTest::addColumn<int>("workload");
        QTest::addColumn<qint64>("kernels");
        QTest::newRow("inference") << int(Workload::LlmInference) << qint64(588);
        QTest::newRow("training") << int(Workload::Training) << qint64(272);
    }

    void handCheckedTotals()
    {
        QFETCH(int, workload);
        QFETCH(qint64, kernels);
        const bool inference = Workload(workload) == Workload::LlmInference;
        const QString path = generate(QStringLiteral("hand.sqlite"), config({}, Workload(workload), 2, kernels, 2, 0));
        Db db(path);
        const QList<Expected>& expected = inference ? kInference : kTraining;
        qint64 count = 0;
        for (const Expected& e : expected) {
            const auto r
                = db.rows(QStringLiteral("SELECT count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                         "JOIN StringIds s ON s.id = k.shortName WHERE s.value = '%1'")
                              .arg(QLatin1String(e.shortName)));
            QCOMPARE(r[0][0].toLongLong(), e.count);
            QCOMPARE(r[0][1].toLongLong(), e.totalNs);
            count += e.count;
        }
        if (inference) {
            // The table above covers every kernel; NCCL share of summed kernel time = 851 of 7112 µs per GPU.
            QCOMPARE(count, kernels);
            const auto share
                = db.rows(QStringLiteral("SELECT sum(CASE WHEN s.value LIKE 'ncclDevKernel%' THEN k.end - k.start "
                                         "END), sum(k.end - k.start) FROM "
                                         "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName"));
            QCOMPARE(share[0][0].toLongLong(), 2 * 851 * us);
            QCOMPARE(share[0][1].toLongLong(), 2 * 7112 * us);
            QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId "
                                               "WHERE s.value = 'execute_model'")),
                2 * 8);
            QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId "
                                               "WHERE s.value = 'prefill'")),
                2);
            // Per GPU: 4 weight uploads, then per step one input upload and one token download; one memset per step.
            QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY")), 2 * (4 + 2 * 8));
            QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 2 AND "
                                               "bytes = 512")),
                2 * 8);
            QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET")), 2 * 8);
        } else {
            // Different demangled names behind one short name.
            QCOMPARE(
                db.integer(QStringLiteral("SELECT count(DISTINCT k.demangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                          "JOIN StringIds s ON s.id = k.shortName WHERE s.value = "
                                          "'vectorized_elementwise_kernel'")),
                2);
            QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId "
                                               "WHERE s.value = 'train_step'")),
                2 * 2);
        }
    }

    void correlation()
    {
        const QString path
            = generate(QStringLiteral("corr.sqlite"), config({}, Workload::LlmInference, 3, 3000, 2, 10));
        Db db(path);
        const QString proc = QStringLiteral("(r.globalTid & ~16777215)");
        // Unique within a process ...
        QCOMPARE(
            db.integer(QStringLiteral("SELECT count(*) FROM (SELECT globalTid & ~16777215 AS p, correlationId FROM "
                                      "CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY 1, 2 HAVING count(*) > 1)")),
            0);
        // ... reused across processes.
        QVERIFY(db.integer(QStringLiteral("SELECT count(*) FROM (SELECT correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME "
                                          "GROUP BY 1 HAVING count(DISTINCT globalTid & ~16777215) = 3)"))
            > 100);
        // Every GPU record has its API call in its own process, which started before the GPU work.
        for (const char* table :
            { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET" }) {
            const auto r
                = db.rows(QStringLiteral("SELECT count(*), count(r.correlationId), sum(r.start < g.start) FROM %1 g "
                                         "LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId "
                                         "AND %2 = g.globalPid")
                              .arg(QLatin1String(table), proc));
            QVERIFY2(r[0][0].toLongLong() > 0, table);
            QCOMPARE(r[0][1], r[0][0]);
            QCOMPARE(r[0][2], r[0][0]);
        }
        // Joining on correlationId alone over-matches, as in real multi-process traces.
        QVERIFY(db.integer(QStringLiteral(
                    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                    "ON r.correlationId = k.correlationId"))
            > 3000);
        // Runtime and driver launch APIs, by event class.
        const auto apis
            = db.rows(QStringLiteral("SELECT s.value, r.eventClass FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds "
                                     "s ON s.id = r.nameId GROUP BY 1, 2"));
        QVERIFY(apis.contains(QVariantList({ QStringLiteral("cudaLaunchKernel_v7000"), qint64(0) })));
        QVERIFY(apis.contains(QVariantList({ QStringLiteral("cuLaunchKernelEx"), qint64(1) })));
        QVERIFY(apis.contains(QVariantList({ QStringLiteral("cuLaunchKernel"), qint64(1) })));
        QVERIFY(apis.contains(QVariantList({ QStringLiteral("cudaMemcpyAsync_v3020"), qint64(0) })));
        QVERIFY(apis.contains(QVariantList({ QStringLiteral("cudaStreamSynchronize_v3020"), qint64(0) })));
        QCOMPARE(db.value(QStringLiteral(
                              "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                              "ON r.correlationId = k.correlationId AND %1 = k.globalPid JOIN StringIds s ON "
                              "s.id = r.nameId JOIN StringIds n ON n.id = k.shortName WHERE n.value = "
                              "'fused_moe_kernel' LIMIT 1")
                              .arg(proc))
                     .toString(),
            QStringLiteral("cuLaunchKernel"));
        // Kernel names: demangled with templates, short, and a mangled symbol for C++ kernels.
        const auto names = db.rows(QStringLiteral(
            "SELECT d.value, s.value, m.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = "
            "k.demangledName "
            "JOIN StringIds s ON s.id = k.shortName JOIN StringIds m ON m.id = k.mangledName WHERE s.value = "
            "'ncclDevKernel_AllReduce_Sum_bf16_RING_LL' LIMIT 1"));
        QCOMPARE(names.value(0),
            QVariantList({ QStringLiteral("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<(unsigned "
                                          "long)4096>)"),
                QStringLiteral("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"),
                QStringLiteral("_Z40ncclDevKernel_AllReduce_Sum_bf16_RING_LL24ncclDevKernelArgsStorageILm4096EE") }));
    }

    void streamsAndOverlap()
    {
        const QString path = generate(QStringLiteral("overlap.sqlite"), config({}, Workload::Training, 2, 2000, 3, 10));
        Db db(path);
        QCOMPARE(db.column(QStringLiteral("SELECT DISTINCT streamId FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY 1")),
            QStringList({ QStringLiteral("7"), QStringLiteral("13") }));
        // NCCL (stream 13) overlaps compute (stream 7) on the same GPU.
        QVERIFY(
            db.integer(QStringLiteral(
                "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL n JOIN CUPTI_ACTIVITY_KIND_KERNEL c ON c.globalPid = "
                "n.globalPid AND c.streamId = 7 AND c.start < n.end AND c.end > n.start WHERE n.streamId = 13"))
            > 50);
        // Backward is launched from the autograd thread, forward from the main thread.
        QCOMPARE(
            db.integer(QStringLiteral("SELECT count(DISTINCT r.globalTid) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
                                      "ThreadNames t ON t.globalTid = r.globalTid JOIN StringIds s ON s.id = t.nameId "
                                      "WHERE s.value = 'pt_autograd_0'")),
            2);
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM TARGET_INFO_CUDA_STREAM")), 2 * 3);
    }

    void nvtx_data()
    {
        QTest::addColumn<int>("workload");
        QTest::addColumn<qint64>("maxDepth");
        // inference: execute_model > decode > model.layers.N > aten::linear > aten::matmul > aten::mm
        QTest::newRow("inference") << int(Workload::LlmInference) << qint64(5);
        // training: train_step > forward > model.layers.N > aten::linear > aten::matmul > aten::mm
        QTest::newRow("training") << int(Workload::Training) << qint64(5);
    }

    void nvtx()
    {
        QFETCH(int, workload);
        QFETCH(qint64, maxDepth);
        const QString path = generate(QStringLiteral("nvtx.sqlite"), config({}, Workload(workload), 2, 700, 2, 10));
        Db db(path);
        QCOMPARE(db.integer(QString::fromLatin1(kMaxDepth)), maxDepth);
        // Push/pop ranges nest properly: no two ranges of one thread and domain partially overlap.
        QCOMPARE(
            db.integer(QStringLiteral(
                "SELECT count(*) FROM NVTX_EVENTS a JOIN NVTX_EVENTS b ON b.globalTid = a.globalTid AND b.domainId = "
                "a.domainId AND b.eventType = 59 AND a.start < b.start AND b.start < a.end AND a.end < b.end WHERE "
                "a.eventType = 59")),
            0);
        // Nesting on several threads.
        QVERIFY(
            db.integer(QStringLiteral("SELECT count(DISTINCT globalTid) FROM NVTX_EVENTS WHERE eventType = 59")) >= 4);
        // PyTorch-style names; op ids unique per process.
        QVERIFY(
            db.integer(QStringLiteral("SELECT count(*) FROM NVTX_EVENTS WHERE text GLOB 'aten::mm, op_id = [0-9]*'"))
            > 10);
        QCOMPARE(
            db.integer(QStringLiteral("SELECT count(*) FROM (SELECT globalTid & ~16777215, text FROM NVTX_EVENTS WHERE "
                                      "text LIKE '%, op_id = %' GROUP BY 1, 2 HAVING count(*) > 1)")),
            0);
        // Registered strings (textId) and NCCL domain: one domain-create row per process, NCCL ranges in domain 1.
        QCOMPARE(
            db.rows(QStringLiteral("SELECT count(*), min(text), max(text), count(DISTINCT globalTid) FROM NVTX_EVENTS "
                                   "WHERE eventType = 75 AND domainId = 1 AND end IS NULL")),
            QList<QVariantList>({ { qint64(2), QStringLiteral("NCCL"), QStringLiteral("NCCL"), qint64(2) } }));
        const QStringList ncclRanges = db.column(QStringLiteral(
            "SELECT DISTINCT s.value FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId WHERE n.domainId = 1 AND "
            "n.eventType = 59 AND n.text IS NULL ORDER BY 1"));
        QVERIFY(ncclRanges.contains(
            QString::fromLatin1(Workload(workload) == Workload::Training ? "ncclReduceScatter" : "ncclAllReduce")));
        QVERIFY(
            db.integer(QStringLiteral("SELECT count(*) FROM NVTX_EVENTS WHERE domainId = 0 AND textId IS NOT NULL AND "
                                      "color IS NOT NULL"))
            > 0);
        // Start/end ranges, some begun on the worker thread and ended on the main thread (inference also has some that
        // end on the thread that started them); range ids unique per process.
        const auto se
            = db.rows(QStringLiteral("SELECT count(*), sum(endGlobalTid <> globalTid), count(endGlobalTid), "
                                     "count(DISTINCT rangeId || '/' || (globalTid & ~16777215)) FROM NVTX_EVENTS "
                                     "WHERE eventType = 60"));
        const qint64 startEnd = se[0][0].toLongLong();
        QVERIFY(startEnd > 0);
        QVERIFY(se[0][1].toLongLong() > 0);
        if (Workload(workload) == Workload::LlmInference)
            QVERIFY(se[0][1].toLongLong() < startEnd);
        QCOMPARE(se[0][2].toLongLong(), startEnd);
        QCOMPARE(se[0][3].toLongLong(), startEnd);
        // Marks are instantaneous.
        if (Workload(workload) == Workload::LlmInference)
            QVERIFY(db.integer(QStringLiteral("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 34 AND end IS NULL"))
                > 0);
        QCOMPARE(
            db.integer(QStringLiteral("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND end < start")),
            0);
    }

    void iterationsAndIdleGaps()
    {
        const QString path
            = generate(QStringLiteral("gaps.sqlite"), config({}, Workload::LlmInference, 2, 6000, 2, 10));
        Db db(path);
        // Idle gaps between steps show up as > 1 ms without kernels on a GPU; steps are many short kernels.
        const auto r = db.rows(QStringLiteral("SELECT sum(gap > 1000000), count(*) FROM (SELECT start - lag(end) OVER "
                                              "(PARTITION BY deviceId ORDER BY start) "
                                              "AS gap FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE streamId = 7)"));
        QVERIFY(r[0][0].toLongLong() >= 3);
        QVERIFY(r[0][0].toLongLong() * 20 < r[0][1].toLongLong());
        // Session facts: times relative to the session start, wall clock in 2026.
        QVERIFY(db.integer(QStringLiteral("SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME")) > 0);
        QVERIFY(db.integer(QStringLiteral("SELECT duration FROM ANALYSIS_DETAILS"))
            >= db.integer(QStringLiteral("SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL")));
        QVERIFY(db.value(QStringLiteral("SELECT utcTime FROM TARGET_INFO_SESSION_START_TIME"))
                    .toString()
                    .startsWith(QStringLiteral("2026-")));
        QCOMPARE(db.value(QStringLiteral("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_VERSION'"))
                     .toString(),
            QStringLiteral("2026.2.1.210"));
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM TARGET_INFO_GPU")), 2);
        QCOMPARE(db.integer(QStringLiteral(
                     "SELECT count(*) FROM TARGET_INFO_CUDA_DEVICE d JOIN PROCESSES p ON p.pid = d.pid")),
            2);
    }

    void gpuMetrics()
    {
        GeneratorConfig c = config({}, Workload::LlmInference, 2, 3000, 2, 10);
        c.gpuMetrics = true;
        const QString path = generate(QStringLiteral("metrics.sqlite"), c);
        c.seed = 10;
        const QString other = generate(QStringLiteral("metrics2.sqlite"), c);
        Db db(path);
        QCOMPARE(db.integer(QStringLiteral("SELECT count(DISTINCT typeId & 255) FROM TARGET_INFO_GPU_METRICS")), 2);
        QCOMPARE(
            db.integer(QStringLiteral("SELECT count(DISTINCT metricName) FROM TARGET_INFO_GPU_METRICS WHERE metricName "
                                      "LIKE 'NVLink _X %'")),
            8);
        // Samples every 1 ms over the whole session, 16 metrics per GPU.
        const qint64 duration = db.integer(QStringLiteral("SELECT duration FROM ANALYSIS_DETAILS"));
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM GPU_METRICS")), 2 * 16 * (duration / 1000000));
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM GPU_METRICS WHERE value < 0 OR value > 100")), 0);
        // NVLink user-data throughput is high while NCCL kernels run and zero otherwise.
        const QString nvlink
            = QStringLiteral("SELECT avg(m.value) FROM GPU_METRICS m JOIN TARGET_INFO_GPU_METRICS i ON i.typeId = "
                             "m.typeId AND i.metricId = "
                             "m.metricId WHERE i.metricName = 'NVLink TX Requests User Data [Throughput %]' AND %1 "
                             "EXISTS (SELECT 1 FROM "
                             "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE s.value LIKE "
                             "'nccl%' AND k.deviceId "
                             "= (m.typeId & 255) AND k.start < m.timestamp AND k.end > m.timestamp - 1000000)");
        QVERIFY(db.value(nvlink.arg(QString())).toDouble() > 1.0);
        QCOMPARE(db.value(nvlink.arg(QStringLiteral("NOT"))).toDouble(), 0.0);
        // Metric ids are not fixed: another seed numbers the same names differently.
        const QString ids = QStringLiteral("SELECT metricName || '=' || metricId FROM TARGET_INFO_GPU_METRICS WHERE "
                                           "(typeId & 255) = 0 ORDER BY metricName");
        QVERIFY(db.column(ids) != Db(other).column(ids));
    }

    void cudaGraphs()
    {
        GeneratorConfig c = config({}, Workload::LlmInference, 2, 2 * 16 * 7, 2, 10);
        c.cudaGraphs = true;
        const QString path = generate(QStringLiteral("graphs.sqlite"), c);
        Db db(path);
        // Prefill steps run eagerly; every decode step replays one graph for its layers.
        const qint64 graphs = db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE"));
        const qint64 decodeSteps = db.integer(QStringLiteral(
            "SELECT count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId WHERE s.value = 'decode'"));
        QVERIFY(graphs > 0);
        QCOMPARE(graphs, decodeSteps);
        QCOMPARE(
            db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE g JOIN "
                                      "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId AND "
                                      "(r.globalTid & ~16777215) = g.globalPid JOIN StringIds s ON s.id = r.nameId "
                                      "WHERE s.value = 'cudaGraphLaunch_v10000' AND r.start < g.start")),
            graphs);
        // No kernel of a decode step's layers is exported individually.
        QCOMPARE(
            db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
                                      "k.shortName WHERE s.value = 'flash_fwd_splitkv_kernel'")),
            0);
    }

    void cpuSamples_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("2022.2 (REFERENCES in SQL)") << QStringLiteral("2022.2");
        QTest::newRow("2025.5 (ENUM_SAMPLING_THREAD_STATE)") << QStringLiteral("2025.5");
        QTest::newRow("2026.2 (derived)") << QStringLiteral("2026.2");
    }

    void cpuSamples()
    {
        QFETCH(QString, version);
        GeneratorConfig c = config({}, Workload::LlmInference, 2, 600, 2, 10);
        c.schemaVersion = version;
        c.cpuSamples = 1001;
        c.stepGapUs = 2000;
        const QString path = generate(QStringLiteral("samples-%1.sqlite").arg(version), c);
        Db db(path);
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM COMPOSITE_EVENTS")), 1001);
        // Ids 1..n in time order; four threads (main and worker of each GPU process), 250 or 251 samples each.
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM COMPOSITE_EVENTS a JOIN COMPOSITE_EVENTS b ON "
                                           "b.id = a.id + 1 WHERE b.start < a.start")),
            0);
        QCOMPARE(db.column(QStringLiteral("SELECT count(*) FROM COMPOSITE_EVENTS GROUP BY globalTid ORDER BY 1")),
            (QStringList {
                QStringLiteral("250"), QStringLiteral("250"), QStringLiteral("250"), QStringLiteral("251") }));
        // Every stack is one of the catalogue's (outermost frame first), with depths 0..n-1.
        const QStringList stacks = db.column(QStringLiteral(
            "SELECT DISTINCT stack FROM (SELECT id, group_concat(name, ';') AS stack, count(*) AS n, max(stackDepth) "
            "AS top FROM (SELECT c.id, c.stackDepth, s.value AS name FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON "
            "s.id = c.symbol ORDER BY c.id, c.stackDepth DESC) GROUP BY id HAVING top = n - 1)"));
        QCOMPARE(db.integer(QStringLiteral("SELECT count(DISTINCT id) FROM SAMPLING_CALLCHAINS")), 1001);
        QStringList catalogue;
        for (const SampleStack& stack : sampleStackCatalogue()) {
            QStringList names;
            for (const SampleStack::Frame& f : stack.frames)
                names << QString::fromUtf8(f.symbol);
            catalogue << names.join(QLatin1Char(';'));
        }
        for (const QString& stack : stacks)
            QVERIFY2(catalogue.contains(stack), qPrintable(stack));
        QVERIFY(stacks.size() >= 5);
        QCOMPARE(db.column(QStringLiteral("SELECT DISTINCT s.value FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON "
                                          "s.id = c.symbol WHERE c.kernelMode = 1 ORDER BY 1")),
            (QStringList { QStringLiteral("do_syscall_64"), QStringLiteral("futex_wait") }));
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM COMPOSITE_EVENTS WHERE threadState = 8")),
            db.integer(QStringLiteral("SELECT count(*) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol "
                                      "WHERE s.value = 'pthread_cond_wait'")));
        // While a GPU runs work its main thread is in the launch path (stacks 0 and 1), while it is idle in host
        // work: every sample inside one of its process's kernels runs a busy stack.
        QCOMPARE(
            db.integer(QStringLiteral(
                "SELECT count(*) FROM COMPOSITE_EVENTS e JOIN SAMPLING_CALLCHAINS c ON c.id = e.id AND "
                "c.stackDepth = 0 JOIN StringIds s ON s.id = c.symbol WHERE s.value IN ('regex_match', "
                "'__memmove_avx_unaligned_erms', 'unicode_normalize') AND EXISTS (SELECT 1 FROM "
                "CUPTI_ACTIVITY_KIND_KERNEL k WHERE k.globalPid = (e.globalTid & ~16777215) AND k.start <= e.start "
                "AND k.end > e.start)")),
            0);
    }

    void cpuSampleStress()
    {
        GeneratorConfig c = config({}, Workload::LlmInference, 1, 200, 1, 10);
        c.schemaVersion = QStringLiteral("2025.5");
        c.cpuSamples = 20001;
        c.cpuSampleSymbols = 7000;
        c.cpuSampleRecursion = 10000;
        const QString path = generate(QStringLiteral("samples-stress.sqlite"), c);
        Db db(path);
        // Every sample's innermost frame is host_fn_<(id - 1) % 7000>.
        QCOMPARE(db.integer(QStringLiteral("SELECT count(DISTINCT c.symbol) FROM SAMPLING_CALLCHAINS c WHERE "
                                           "c.stackDepth = 0")),
            7000);
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = "
                                           "c.symbol WHERE c.stackDepth = 0 AND s.value = 'host_fn_' || ((c.id - 1) "
                                           "% 7000)")),
            20001);
        // Samples 1, 10001 and 20001 recurse 10,000 frames deep, inside their outermost frame.
        QCOMPARE(
            db.column(QStringLiteral("SELECT c.id FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol "
                                     "WHERE s.value = 'recurse' GROUP BY c.id HAVING count(*) = 10000 ORDER BY 1")),
            (QStringList { QStringLiteral("1"), QStringLiteral("10001"), QStringLiteral("20001") }));
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = "
                                           "c.symbol WHERE s.value = 'recurse' AND c.stackDepth >= (SELECT "
                                           "max(stackDepth) FROM SAMPLING_CALLCHAINS d WHERE d.id = c.id)")),
            0);
    }

    void schemaVersions_data()
    {
        QTest::addColumn<QString>("version");
        for (const QString& v : SchemaCatalog::versions())
            QTest::newRow(qPrintable(v)) << v;
    }

    void schemaVersions()
    {
        QFETCH(QString, version);
        GeneratorConfig c = config({}, Workload::Training, 2, 400, 2, 10);
        c.schemaVersion = version;
        c.gpuMetrics = true;
        const QString path = generate(QStringLiteral("v.sqlite"), c);
        Db db(path);
        QCOMPARE(db.integer(QStringLiteral("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")), 400);
        const VersionSchema* s = SchemaCatalog::find(version);
        for (const QString& t : db.tables()) {
            QStringList cols;
            for (const ColumnSchema& col : s->table(t)->columns)
                cols.append(QStringLiteral("%1|%2|%3|%4").arg(col.name, col.type).arg(col.notNull ? 1 : 0).arg(col.pk));
            QCOMPARE(db.tableInfo(t), cols);
        }
        const bool old = SchemaCatalog::compareVersions(version, u"2022.1") < 0;
        QCOMPARE(db.tables().contains(QStringLiteral("PROCESSES")), !old);
        QCOMPARE(db.tables().contains(QStringLiteral("TARGET_INFO_SESSION_START_TIME")), !old);
        QVERIFY(db.integer(QStringLiteral("SELECT count(*) FROM NVTX_EVENTS")) > 0);
        QVERIFY(db.integer(QStringLiteral("SELECT count(*) FROM GPU_METRICS")) > 0);
    }

    void deterministic()
    {
        GeneratorConfig c = config({}, Workload::LlmInference, 2, 1500, 2, 10);
        c.gpuMetrics = true;
        // The file name is part of the metadata, so both runs write "run.sqlite", in different directories.
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("a")) && QDir(m_dir.path()).mkpath(QStringLiteral("b")));
        c.nvlinkPath = m_dir.filePath(QStringLiteral("a/run.bin"));
        const QString a = generate(QStringLiteral("a/run.sqlite"), c);
        c.nvlinkPath = m_dir.filePath(QStringLiteral("b/run.bin"));
        const QString b = generate(QStringLiteral("b/run.sqlite"), c);
        QCOMPARE(sha(a), sha(b));
        QCOMPARE(sha(m_dir.filePath(QStringLiteral("a/run.bin"))), sha(m_dir.filePath(QStringLiteral("b/run.bin"))));
        c.seed = 10;
        c.nvlinkPath.clear();
        const QString other = generate(QStringLiteral("a/other.sqlite"), c);
        QVERIFY(sha(a) != sha(other));
        const QString kernels
            = QStringLiteral("SELECT start, end, shortName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid");
        QVERIFY(Db(a).rows(kernels) != Db(other).rows(kernels));
    }
};

QTEST_GUILESS_MAIN(TestTracegenGenerator)
#include "tst_tracegen_generator.moc"

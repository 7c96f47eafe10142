// SPDX-License-Identifier: GPL-3.0-or-later
// Tensor-core use from kernel names with the shipped rules (a name heuristic). Fixture (ns), GPU 0:
//   nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN [0, 300] (tensor core), volta_sgemm_128x64_nn [300, 400]
//   (SIMT FP32: not, matrix-like), elementwise_kernel [400, 500] (not); GPU 1: flash_fwd_kernel [0, 200] (tensor
//   core), elementwise_kernel [200, 250].
// GPU 0: 300 of 500 ns (60 %); GPU 1: 200 of 250 (80 %); all: 500 of 750. Biggest others: elementwise 150 ns
// (20 %), sgemm 100 ns (13.3 %, matrix-like).
#include "core/categories/ruleevaluation.h"
#include "core/categories/rulelibrary.h"
#include "core/diagnostics/tensorcores.h"
#include "profilebuilder.h"

#include <QTest>

using namespace nsw;

class TestTensorCores : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void names_data();
    void names();
    void shares();
    void editedRules();
    void userFileOverridesTheShippedRules();
};

void TestTensorCores::names_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("tensorCore");
    QTest::newRow("Hopper cuBLASLt nvjet") << QStringLiteral("nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN") << true;
    QTest::newRow("sm90 xmma bf16") << QStringLiteral(
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_cgasize1x2x1_warpgroupsize2x1x1_"
        "execute_segment_k_off_kernel__5x_cublas")
                                    << true;
    QTest::newRow("xmma with FP32 FMA (ffma): not") << QStringLiteral(
        "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8_stage3_warpsize1x4x1_ffma_aligna4_"
        "alignc4_execute_kernel__5x_cublas") << false;
    QTest::newRow("ampere s16816") << QStringLiteral("ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn")
                                   << true;
    QTest::newRow("volta h884") << QStringLiteral("volta_h884gemm_64x64_ldg8_nn") << true;
    QTest::newRow("SIMT sgemm") << QStringLiteral("volta_sgemm_128x64_nn") << false;
    QTest::newRow("cuBLAS gemv") << QStringLiteral("void gemv2T_kernel_val<int, int, __nv_bfloat16>(T1)") << false;
    QTest::newRow("FlashAttention") << QStringLiteral(
        "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<(int)128>>(flash::Flash_fwd_params)")
                                    << true;
    QTest::newRow("CUTLASS 3 GEMM") << QStringLiteral(
        "void cutlass::device_kernel<vllm::cutlass_3x_gemm<cutlass::float_e4m3_t>>(T1::Params)")
                                    << true;
    QTest::newRow("elementwise") << QStringLiteral("void at::native::vectorized_elementwise_kernel<(int)4>(int)")
                                 << false;
    QTest::newRow("NCCL") << QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL") << false;
}

void TestTensorCores::names()
{
    QFETCH(QString, name);
    QFETCH(bool, tensorCore);
    test::ProfileBuilder b;
    b.kernel(b.thread(b.process(1), 1), 0, 1, 0, 10, name);
    const TensorCoreResult r = computeTensorCores(makeAnalysisContext(b.build()), nullptr);
    QCOMPARE(r.rules, QStringLiteral("tensorcores/name-heuristic"));
    QCOMPARE(r.total.tensorCoreNs, tensorCore ? TimeNs(10) : TimeNs(0));
}

void TestTensorCores::shares()
{
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.kernel(t, 0, 1, 0, 300, QStringLiteral("nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN"), 0);
    b.kernel(t, 0, 1, 300, 400, QStringLiteral("volta_sgemm_128x64_nn"), 0);
    b.kernel(t, 0, 1, 400, 500, QStringLiteral("elementwise_kernel"), 0);
    b.kernel(t, 0, 1, 0, 200, QStringLiteral("flash_fwd_kernel"), 1);
    b.kernel(t, 0, 1, 200, 250, QStringLiteral("elementwise_kernel"), 1);
    const TensorCoreResult r = computeTensorCores(makeAnalysisContext(b.build()), nullptr);
    QCOMPARE(r.devices.size(), std::size_t(2));
    QCOMPARE(r.devices[0].kernelNs, TimeNs(500));
    QCOMPARE(r.devices[0].tensorCoreNs, TimeNs(300));
    QCOMPARE(r.devices[0].percent(), 60.0);
    QCOMPARE(r.devices[1].percent(), 80.0);
    QCOMPARE(r.total.tensorCoreNs, TimeNs(500));
    QCOMPARE(r.total.kernelNs, TimeNs(750));
    QCOMPARE(r.biggestOthers.size(), std::size_t(2));
    QCOMPARE(r.biggestOthers[0].name, QStringLiteral("elementwise_kernel"));
    QCOMPARE(r.biggestOthers[0].instances, qint64(2));
    QCOMPARE(r.biggestOthers[0].totalNs, TimeNs(150));
    QCOMPARE(r.biggestOthers[0].sharePercent, 20.0);
    QVERIFY(!r.biggestOthers[0].matrixLike);
    QCOMPARE(r.biggestOthers[1].name, QStringLiteral("volta_sgemm_128x64_nn"));
    QVERIFY(r.biggestOthers[1].matrixLike);
}

void TestTensorCores::editedRules()
{
    // A user's edited rule set decides instead of the shipped one.
    auto rules = std::make_shared<RuleList>();
    rules->engine = QStringLiteral("tensorcores");
    rules->model = QStringLiteral("mine");
    rules->rules = { CategoryRule::fromKey(QStringLiteral("elementwise"), kTensorCoreCategory),
        CategoryRule::fromKey(QStringLiteral(".*"), QStringLiteral("not_tensor_core")) };
    test::ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(1), 1);
    b.kernel(t, 0, 1, 0, 300, QStringLiteral("nvjet_tst"), 0);
    b.kernel(t, 0, 1, 300, 400, QStringLiteral("elementwise_kernel"), 0);
    const TensorCoreResult r = computeTensorCores(makeAnalysisContext(b.build()), rules);
    QCOMPARE(r.rules, QStringLiteral("tensorcores/mine"));
    QCOMPARE(r.total.tensorCoreNs, TimeNs(100));
}

void TestTensorCores::userFileOverridesTheShippedRules()
{
    RuleLibrary library;
    for (const QString& name : RuleLibrary::shippedSetNames())
        library.add(RuleLibrary::shippedSet(name));
    QCOMPARE(tensorCoreRulesOf(library)->model, QStringLiteral("name-heuristic"));
    QCOMPARE(tensorCoreRulesOf(library)->rules.size(), shippedTensorCoreRules()->rules.size());
    QCOMPARE(tensorCoreRulesOf(RuleLibrary())->engine, QStringLiteral("tensorcores")); // none: the shipped ones

    // A user file of the engine, with a model of its own name: every kernel is a tensor-core kernel.
    RuleError error;
    std::optional<RuleDocument> doc = RuleDocument::parse(
        R"({"tensorcores": {"mine": {".*": "tensor_core"}}})", QStringLiteral("tensorcores.json"), &error);
    QVERIFY2(doc, qPrintable(error.message()));
    library.add(RuleSource { RuleSource::User, QStringLiteral("tensorcores.json"), std::move(*doc) });
    const std::shared_ptr<const RuleList> rules = tensorCoreRulesOf(library);
    QCOMPARE(rules->model, QStringLiteral("mine"));
    test::ProfileBuilder b;
    b.kernel(b.thread(b.process(1), 1), 0, 1, 0, 10, QStringLiteral("volta_sgemm_128x64_nn"));
    QCOMPARE(computeTensorCores(makeAnalysisContext(b.build()), rules).total.tensorCoreNs, TimeNs(10));
}

QTEST_GUILESS_MAIN(TestTensorCores)
#include "tst_tensorcores.moc"

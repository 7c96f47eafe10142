// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/kernelnames.h"
#include "core/nvtx/nvtxnames.h"

#include <QTest>

using namespace nsw;

namespace {
QString s(const char* text)
{
    return QString::fromUtf8(text);
}
} // namespace

class TestKernelNames : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void table()
    {
        QStringList ids;
        for (const KernelNameRule& r : kernelNameRules()) {
            QVERIFY(!r.description.isEmpty());
            QVERIFY(r.apply);
            ids.append(r.id);
            QCOMPARE(kernelNameRule(r.id), &r);
        }
        QCOMPARE(
            ids, (QStringList { QStringLiteral("templates"), QStringLiteral("hashes"), QStringLiteral("numbers") }));
        QCOMPARE(kernelNameRule(u"nope"), nullptr);
    }

    void rule_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        const QString t = QStringLiteral("templates");
        const QString h = QStringLiteral("hashes");
        const QString n = QStringLiteral("numbers");
        QTest::newRow("templates: simple") << t << s("void gemm<128>(float*)") << s("void gemm<...>(float*)");
        QTest::newRow("templates: nested")
            << t
            << s("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                 "at::detail::Array<char*, 1>>(int, T2, T3)")
            << s("void at::native::vectorized_elementwise_kernel<...>(int, T2, T3)");
        QTest::newRow("templates: in parameters") << t << s("void f<int>(cutlass::Params<8>, std::array<int, 2>)")
                                                  << s("void f<...>(cutlass::Params<...>, std::array<...>)");
        QTest::newRow("templates: operator<") << t << s("bool operator<(A, B)") << s("bool operator<(A, B)");
        QTest::newRow("templates: operator<< then a template")
            << t << s("S& operator<<<int>(S&, int)") << s("S& operator<<<int>(S&, int)");
        QTest::newRow("templates: arrow inside") << t << s("f<decltype(a->b)>(x)") << s("f<...>(x)");
        QTest::newRow("templates: unbalanced kept") << t << s("broken<int(x)") << s("broken<int(x)");
        QTest::newRow("templates: none") << t << s("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage)")
                                         << s("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage)");
        QTest::newRow("templates: comparison not a list") << t << s("a < b") << s("a < b");
        QTest::newRow("hashes: suffix") << h << s("gemm_kernel_5f3a9c2e17") << s("gemm_kernel_#");
        QTest::newRow("hashes: upper case") << h << s("k_DEADBEEF12") << s("k_#");
        QTest::newRow("hashes: seven digits kept") << h << s("k_5f3a9c2") << s("k_5f3a9c2");
        QTest::newRow("hashes: dtype run kept") << h << s("gemm_bf16bf16f32_tn") << s("gemm_bf16bf16f32_tn");
        QTest::newRow("hashes: glued to a word kept") << h << s("kernel5f3a9c2e17") << s("kernel5f3a9c2e17");
        QTest::newRow("hashes: letters only kept") << h << s("cafebabedeadface_x") << s("cafebabedeadface_x");
        QTest::newRow("hashes: in the middle") << h << s("a_0123abcd4567_b") << s("a_#_b");
        QTest::newRow("numbers: triton suffix")
            << n << s("triton_poi_fused_add_mul_12") << s("triton_poi_fused_add_mul_#");
        QTest::newRow("numbers: dtypes and shapes kept")
            << n << s("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_cluster1x1x1")
            << s("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_cluster1x1x1");
        QTest::newRow("numbers: standalone shape") << n << s("cutlass_80_tensorop_s16816gemm_128x64_32x6_tn_align8")
                                                   << s("cutlass_#_tensorop_s16816gemm_128x64_32x6_tn_align8");
        QTest::newRow("numbers: hex literal") << n << s("k(0x7f3a, 12)") << s("k(#, #)");
    }

    void rule()
    {
        QFETCH(QString, rule);
        QFETCH(QString, name);
        QFETCH(QString, expected);
        const KernelNameRule* r = kernelNameRule(rule);
        QVERIFY(r);
        QCOMPARE(r->apply(name), expected);
    }

    void numbersAreTheNvtxRule_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("op id") << s("aten::mm, op_id = 998949");
        QTest::newRow("layer") << s("layer_12");
        QTest::newRow("dotted") << s("blocks.2.attn v1.2");
        QTest::newRow("glued") << s("fp16 conv2d 3x3 iter12");
    }

    void numbersAreTheNvtxRule()
    {
        QFETCH(QString, name);
        QCOMPARE(kernelNameRule(u"numbers")->apply(name), normalizeNvtxName(name));
    }

    void normalize_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("template args and a number inside them")
            << s("void gemm_kernel<128>(float*)") << s("void gemm_kernel<...>(float*)");
        QTest::newRow("all three") << s("void k_0123abcd4567<3, float>(int, 42)") << s("void k_#<...>(int, #)");
        QTest::newRow("hash before numbers: one #, not two") << s("kernel_12345678ab") << s("kernel_#");
        QTest::newRow("nccl kept") << s("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)")
                                   << s("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<...>)");
        QTest::newRow("empty") << s("") << s("");
        QTest::newRow("idempotent") << s("void k_#<...>(int, #)") << s("void k_#<...>(int, #)");
    }

    void normalize()
    {
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QCOMPARE(normalizeKernelName(name), expected);
    }
};

QTEST_GUILESS_MAIN(TestKernelNames)
#include "tst_kernelnames.moc"

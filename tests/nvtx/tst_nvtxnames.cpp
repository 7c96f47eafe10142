// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvtx/nvtxnames.h"

#include <QTest>

using namespace nsw;
using namespace Qt::StringLiterals;

class TestNvtxNames : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void normalize_data();
    void normalize();
    void rangeLabel_data();
    void rangeLabel();
    void pathKey();
    void domainLabel();
};

void TestNvtxNames::normalize_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    const auto row
        = [](const char* tag, const QString& name, const QString& expected) { QTest::newRow(tag) << name << expected; };
    row("op id after equals", u"aten::to, op_id = 998949"_s, u"aten::to, op_id = #"_s);
    row("index after underscore", u"layer_12"_s, u"layer_#"_s);
    row("several numbers", u"AllToAll4D, seq = 45440, op_id = 990760"_s, u"AllToAll4D, seq = #, op_id = #"_s);
    row("module path index", u"FSDP::pre_forward (blocks.3._checkpoint_wrapped_module), op_id = 990878"_s,
        u"FSDP::pre_forward (blocks.#._checkpoint_wrapped_module), op_id = #"_s);
    row("dotted path", u"layers.0.attention"_s, u"layers.#.attention"_s);
    row("decimal", u"lr=0.001"_s, u"lr=#"_s);
    row("hex pointer", u"ptr 0x7f3a9c"_s, u"ptr #"_s);
    row("fraction", u"step 3/10"_s, u"step #/#"_s);
    row("negative keeps its sign", u"offset -5"_s, u"offset -#"_s);
    row("whole name a number", u"42"_s, u"#"_s);
    row("digits glued to letters stay", u"fp16_gemm"_s, u"fp16_gemm"_s);
    row("conv2d stays", u"conv2d"_s, u"conv2d"_s);
    row("3x3 stays", u"conv 3x3"_s, u"conv 3x3"_s);
    row("trailing digits of a word stay", u"iter12"_s, u"iter12"_s);
    row("version tail", u"v1.2"_s, u"v1.#"_s);
    row("number before a letter stays", u"_2d"_s, u"_2d"_s);
    row("no digits", u"forward"_s, u"forward"_s);
    row("empty", QString(), QString());
    row("non-ASCII letters glue too", u"schritt2é 3"_s, u"schritt2é #"_s);
}

void TestNvtxNames::normalize()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QCOMPARE(normalizeNvtxName(name), expected);
    QCOMPARE(normalizeNvtxName(normalizeNvtxName(name)), expected); // idempotent
}

void TestNvtxNames::rangeLabel_data()
{
    QTest::addColumn<QString>("domain");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    QTest::newRow("default domain: bare name") << QString() << u"forward"_s << u"forward"_s;
    QTest::newRow("named domain") << u"NCCL"_s << u"ncclSend"_s << u"NCCL:ncclSend"_s;
    QTest::newRow("domain without create event") << u"domain 1"_s << u"ncclSend"_s << u"domain 1:ncclSend"_s;
    QTest::newRow("unnamed range in a domain") << u"MPI"_s << QString() << u"MPI:"_s;
}

void TestNvtxNames::rangeLabel()
{
    QFETCH(QString, domain);
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QCOMPARE(nvtxRangeLabel(domain, name), expected);
}

void TestNvtxNames::pathKey()
{
    QCOMPARE(nvtxPathKey({ u"step_#"_s, u"forward"_s, u"NCCL:ncclSend"_s }), u"step_# > forward > NCCL:ncclSend"_s);
    QCOMPARE(nvtxPathKey({}), QString());
    // The same region in two runs gets the same key once normalized.
    QCOMPARE(nvtxPathKey({ normalizeNvtxName(u"iteration 7"_s), normalizeNvtxName(u"aten::mm, op_id = 12"_s) }),
        nvtxPathKey({ normalizeNvtxName(u"iteration 9"_s), normalizeNvtxName(u"aten::mm, op_id = 9981"_s) }));
}

void TestNvtxNames::domainLabel()
{
    Profile p;
    p.nvtxDomains.push_back({ 0, 5, u"NCCL"_s });
    p.nvtxDomains.push_back({ 0, 7, QString() });
    QCOMPARE(nvtxDomainLabel(p, -1), QString());
    QCOMPARE(nvtxDomainLabel(p, 0), u"NCCL"_s);
    QCOMPARE(nvtxDomainLabel(p, 1), u"domain 7"_s);
    QCOMPARE(nvtxDomainLabel(p, 2), QString());
}

QTEST_GUILESS_MAIN(TestNvtxNames)
#include "tst_nvtxnames.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/nvtx/nvtxexport.h"
#include "core/nvtx/nvtxtree.h"
#include "nvtxfixture.h"
#include "profilebuilder.h"

#include <QBuffer>
#include <QRegularExpression>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace nsw;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(NvtxGrouping)

namespace {

QByteArray streamed(const NvtxTree& tree, bool json)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    const bool ok = json ? writeNvtxTreeJson(tree, nullptr, buffer) : writeNvtxTreeMarkdown(tree, nullptr, buffer);
    return ok ? buffer.data() : QByteArray();
}

std::size_t countNodes(const nlohmann::ordered_json& nodes)
{
    std::size_t n = 0;
    for (const auto& node : nodes)
        n += 1 + (node.contains("children") ? countNodes(node["children"]) : 0);
    return n;
}

const nlohmann::ordered_json* childNamed(const nlohmann::ordered_json& nodes, const std::string& name)
{
    for (const auto& node : nodes)
        if (node["name"] == name)
            return &node;
    return nullptr;
}

} // namespace

class TestNvtxExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void jsonIsWhatNlohmannPrints_data();
    void jsonIsWhatNlohmannPrints();
    void jsonNumbersOfOneRange();
    void markdownListsEveryNode();
    void failingDeviceIsReported();
    void deepTreesAreFoldedAtTheCap();
};

void TestNvtxExport::jsonIsWhatNlohmannPrints_data()
{
    QTest::addColumn<NvtxGrouping>("grouping");
    QTest::addColumn<bool>("normalize");
    QTest::newRow("per thread") << NvtxGrouping::ByThread << false;
    QTest::newRow("per process, normalized names") << NvtxGrouping::ByProcess << true;
    QTest::newRow("all threads merged") << NvtxGrouping::Merged << false;
}

// The JSON is streamed node by node; it must read as the document nlohmann would have printed with dump(2).
void TestNvtxExport::jsonIsWhatNlohmannPrints()
{
    QFETCH(NvtxGrouping, grouping);
    QFETCH(bool, normalize);
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture(), { grouping, normalize });
    const QByteArray text = streamed(tree, true);
    QVERIFY(!text.isEmpty());
    const auto j = nlohmann::ordered_json::parse(text.toStdString());
    QCOMPARE(QByteArray::fromStdString(j.dump(2) + "\n"), text);
    QCOMPARE(countNodes(j["tree"]), tree.nodes.size() - 1);
    // Hand-worked in nvtxfixture.h: 1910 ns of kernels, 1660 ns of them inside ranges.
    QCOMPARE(j["coverage"]["total_ns"].get<qint64>(), qint64(1910));
    QCOMPARE(j["coverage"]["attributed_ns"].get<qint64>(), qint64(1660));
    QCOMPARE(j["coverage"]["pct"].get<double>(), 86.91);
}

void TestNvtxExport::jsonNumbersOfOneRange()
{
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    const auto j = nlohmann::ordered_json::parse(streamed(tree, true).toStdString());
    const auto* process = childNamed(j["tree"], "trainer (100)");
    QVERIFY(process);
    const auto* thread = childNamed((*process)["children"], "main (101)");
    QVERIFY(thread);
    const auto* step = childNamed((*thread)["children"], "step_1");
    QVERIFY(step);
    // step_1 on T1 holds K1 100 + K2 200 + K3 50 + K4 50 + K5 300 + K6 50 and M1; its GPU work spans [2000, 2750].
    QCOMPARE((*step)["path"].get<std::string>(), std::string("step_1"));
    QCOMPARE((*step)["instances"].get<qint64>(), qint64(1));
    QCOMPARE((*step)["cpu_ns"].get<qint64>(), qint64(1000));
    QCOMPARE((*step)["gpu_ns"].get<qint64>(), qint64(750));
    QCOMPARE((*step)["projected_ns"].get<qint64>(), qint64(750));
    QCOMPARE((*step)["kernels"].get<qint64>(), qint64(6));
    QCOMPARE((*step)["mem_ops"].get<qint64>(), qint64(1));
    // Children by GPU time descending: forward (K1..K4: 400) before NCCL:ncclAllReduce (300), then the kernel leaf.
    const auto& children = (*step)["children"];
    QCOMPARE(children[0]["name"].get<std::string>(), std::string("forward"));
    QCOMPARE(children[0]["gpu_ns"].get<qint64>(), qint64(400));
    QCOMPARE(children[1]["name"].get<std::string>(), std::string("NCCL:ncclAllReduce"));
    QCOMPARE(children[1]["gpu_ns"].get<qint64>(), qint64(300));
}

void TestNvtxExport::markdownListsEveryNode()
{
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    const QString text = QString::fromUtf8(streamed(tree, false));
    QVERIFY(text.contains(u"Coverage: 86.9 % of kernel time is inside NVTX ranges"_s));
    const qsizetype items = text.count(QRegularExpression(u"(?m)^ *- "_s));
    QCOMPARE(std::size_t(items), tree.nodes.size() - 1);
}

void TestNvtxExport::failingDeviceIsReported()
{
    const NvtxTree tree = buildNvtxTree(test::nvtxFixture());
    QBuffer readOnly;
    readOnly.open(QIODevice::ReadOnly);
    QVERIFY(!writeNvtxTreeJson(tree, nullptr, readOnly));
    QVERIFY(!writeNvtxTreeMarkdown(tree, nullptr, readOnly));
}

/// 300 ranges nested on one thread: process and thread nodes at depths 1 and 2, ranges at 3..302, so the exports list
/// the ranges down to depth 256 (254 of them) and fold the 46 below into the one at 256.
void TestNvtxExport::deepTreesAreFoldedAtTheCap()
{
    test::ProfileBuilder b;
    const ProcessIndex p = b.process(100, u"deep"_s);
    const ThreadIndex thread = b.thread(p, 101, u"main"_s);
    const int depth = 300;
    for (int i = 0; i < depth; ++i)
        b.nvtxRange(thread, 1000 + i, 10000 - i, u"level_%1"_s.arg(i));
    const NvtxTree tree = buildNvtxTree(b.build());
    const NvtxFolding folded = nvtxFoldedBelow(tree);
    QCOMPARE(folded.nodes, qint64(depth + 2 - kMaxExportedNvtxDepth));
    QCOMPARE(folded.levels, depth + 2 - kMaxExportedNvtxDepth);
    const std::vector<NvtxFlatRow> rows = nvtxPreorder(tree);
    QCOMPARE(int(rows.size()), kMaxExportedNvtxDepth);
    QCOMPARE(rows.back().depth, kMaxExportedNvtxDepth);
    QCOMPARE(tree.label(rows.back().node), u"level_%1"_s.arg(kMaxExportedNvtxDepth - 3));

    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(streamed(tree, true).toStdString());
    const nlohmann::ordered_json* node = &j["tree"][0];
    for (int d = 1; d < kMaxExportedNvtxDepth; ++d) {
        QVERIFY2(node->contains("children"), qPrintable(QString::number(d)));
        node = &(*node)["children"][0];
    }
    QVERIFY(!node->contains("children"));
    QCOMPARE((*node)["folded_levels"].get<int>(), depth + 2 - kMaxExportedNvtxDepth);
    QCOMPARE((*node)["folded_nodes"].get<int>(), depth + 2 - kMaxExportedNvtxDepth);
    QVERIFY(streamed(tree, false).contains("… 46 deeper levels folded (46 nodes)"));
}

QTEST_GUILESS_MAIN(TestNvtxExport)
#include "tst_nvtxexport.moc"

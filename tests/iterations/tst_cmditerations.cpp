// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli.h"
#include "iterationfixtures.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>

using namespace nsw;
using namespace Qt::StringLiterals;

namespace {

QByteArray readAll(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCmdIterations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void exitCodes_data();
    void exitCodes();
    void csvRawValues();
    void jsonMarker();
    void guessSaidInEveryFormat();
    void textTable();
    void iterationFocusesOtherCommands_data();
    void iterationFocusesOtherCommands();
    void compareEntriesOfIterations_data();
    void compareEntriesOfIterations();
    void compareEntryErrors_data();
    void compareEntryErrors();

private:
    QString run(const QStringList& args, const QString& name);
    QTemporaryDir m_dir;
    QString m_marker, m_gap, m_library;
};

void TestCmdIterations::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_marker = m_dir.filePath(u"marker.sqlite"_s);
    m_gap = m_dir.filePath(u"gap.sqlite"_s);
    m_library = m_dir.filePath(u"library.sqlite"_s);
    test::writeMarkerFixture(m_marker);
    test::writeGapFixture(m_gap);
    test::writeLibraryFixture(m_library);
}

/// Runs the command with -o into the temporary folder and returns what it wrote ("" on a failed run).
QString TestCmdIterations::run(const QStringList& args, const QString& name)
{
    const QString out = m_dir.filePath(name);
    if (cli::run(QStringList { u"iterations"_s } + args + QStringList { u"-o"_s, out }) != cli::ExitOk)
        return {};
    return QString::fromUtf8(readAll(out));
}

void TestCmdIterations::exitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("no trace") << QStringList {} << int(cli::ExitUsage);
    QTest::newRow("two traces") << QStringList { u"a.sqlite"_s, u"b.sqlite"_s } << int(cli::ExitUsage);
    QTest::newRow("unknown format") << QStringList { u"x.sqlite"_s, u"--format"_s, u"xml"_s } << int(cli::ExitUsage);
    QTest::newRow("empty marker") << QStringList { u"x.sqlite"_s, u"--marker"_s, u" "_s } << int(cli::ExitUsage);
    QTest::newRow("trace missing") << QStringList { m_dir.filePath(u"none.sqlite"_s) } << int(cli::ExitInput);
    QTest::newRow("no iterations (library ranges only)") << QStringList { m_library } << int(cli::ExitNoData);
    QTest::newRow("named marker absent") << QStringList { m_gap, u"--marker"_s, u"train_step"_s }
                                         << int(cli::ExitNoData);
    QTest::newRow("help") << QStringList { u"--help"_s } << int(cli::ExitOk);
    QTest::newRow("marker found") << QStringList { m_marker, u"-o"_s, m_dir.filePath(u"ok.txt"_s) } << int(cli::ExitOk);
}

void TestCmdIterations::exitCodes()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QCOMPARE(cli::run(QStringList { u"iterations"_s } + args), exitCode);
}

void TestCmdIterations::csvRawValues()
{
    const QStringList lines = run({ m_marker, u"--format"_s, u"csv"_s }, u"marker.csv"_s).split(u"\n"_s);
    QCOMPARE(lines.value(0),
        u"Iteration,Marker,Start (ns),Duration (ns),GPU Busy (ns),GPU Idle (ns),Kernels,Top Category,Top Kernel,"
        "Outlier"_s);
    // Hand-worked (iterationfixtures.h); starts are the export's own timestamps (the capture starts at 100 ns).
    QCOMPARE(lines.value(1), u"0,ProfilerStep#0,1000,1000,400,600,4,gemm,fill_kernel,"_s);
    QCOMPARE(lines.value(2), u"1,ProfilerStep#1,2000,1000,300,700,2,nccl_and_custom_ar,nccl_allreduce,"_s);
    QCOMPARE(lines.value(3), u"2,ProfilerStep#2,3000,1500,1500,0,3,nccl_and_custom_ar,nccl_allreduce,"_s);
    QCOMPARE(lines.value(4), u"3,ProfilerStep#3,4500,500,200,300,2,nccl_and_custom_ar,nccl_allreduce,"_s);
    QCOMPARE(lines.size(), 6); // and the final CRLF
}

void TestCmdIterations::iterationFocusesOtherCommands_data()
{
    QTest::addColumn<QString>("iteration");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<qint64>("instances");
    // Kernel counts hand-worked in iterationfixtures.h (see csvRawValues); the median duration is 1000 ns, the lower
    // middle of 500, 1000, 1000, 1500: iteration 0 (ties by index).
    QTest::newRow("iteration 1") << u"1"_s << int(cli::ExitOk) << qint64(2);
    QTest::newRow("iteration 2") << u"2"_s << int(cli::ExitOk) << qint64(3);
    QTest::newRow("median iteration") << u"median"_s << int(cli::ExitOk) << qint64(4);
    QTest::newRow("no such iteration") << u"9"_s << int(cli::ExitUsage) << qint64(-1);
    QTest::newRow("not a number") << u"first"_s << int(cli::ExitUsage) << qint64(-1);
}

void TestCmdIterations::iterationFocusesOtherCommands()
{
    QFETCH(QString, iteration);
    QFETCH(int, exitCode);
    QFETCH(qint64, instances);
    const QString out = m_dir.filePath(u"focused-%1.csv"_s.arg(iteration));
    QCOMPARE(cli::run({ u"stats"_s, u"-r"_s, u"cuda_gpu_kern_sum"_s, u"--format"_s, u"csv"_s, u"--iteration"_s,
                 iteration, m_marker, u"-o"_s, out }),
        exitCode);
    if (exitCode != cli::ExitOk)
        return;
    const QStringList lines = QString::fromUtf8(readAll(out)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const qsizetype column = lines.value(0).split(QLatin1Char(',')).indexOf(u"Instances"_s);
    QVERIFY2(column >= 0, qPrintable(lines.value(0)));
    qint64 sum = 0;
    for (qsizetype i = 1; i < lines.size(); ++i)
        sum += lines[i].split(QLatin1Char(',')).value(column).toLongLong();
    QCOMPARE(sum, instances);
}

void TestCmdIterations::compareEntriesOfIterations_data()
{
    // Per kernel name: {instances, total ns} in each entry, hand-worked from iterationfixtures.h with nsys's overlap
    // predicate. Iteration 1 [2000, 3000): K3 gemm_c [1900, 2100], K5 nccl_allreduce [2900, 4600]. Iteration 2
    // [3000, 4500): K4 zero [3000, 3000], K5 (spans it), K6 gemm_a [4000, 4200]. The median iteration is iteration 0
    // [1000, 2000): K9 fill_kernel [500, 1000] (ends at its start: in), K1 gemm_a, K2 gemm_b, K3 gemm_c (200 ns each).
    using Cells = std::map<std::string, std::vector<std::pair<qint64, qint64>>>;
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("second");
    QTest::addColumn<Cells>("expected");
    QTest::newRow("iteration 2 against the median one")
        << u"#iter=2"_s << u"#iter=median"_s
        << Cells { { "zero", { { 1, 0 }, { 0, 0 } } }, { "nccl_allreduce", { { 1, 1700 }, { 0, 0 } } },
               { "gemm_a", { { 1, 200 }, { 1, 200 } } }, { "fill_kernel", { { 0, 0 }, { 1, 500 } } },
               { "gemm_b", { { 0, 0 }, { 1, 200 } } }, { "gemm_c", { { 0, 0 }, { 1, 200 } } } };
    QTest::newRow("iteration 1 against the whole trace")
        << u"#iter=1"_s << QString()
        << Cells { { "gemm_c", { { 1, 200 }, { 1, 200 } } }, { "nccl_allreduce", { { 1, 1700 }, { 1, 1700 } } },
               { "fill_kernel", { { 0, 0 }, { 1, 500 } } }, { "gemm_a", { { 0, 0 }, { 2, 400 } } },
               { "gemm_b", { { 0, 0 }, { 1, 200 } } }, { "zero", { { 0, 0 }, { 1, 0 } } },
               { "tail", { { 0, 0 }, { 1, 100 } } }, { "after", { { 0, 0 }, { 1, 100 } } } };
}

void TestCmdIterations::compareEntriesOfIterations()
{
    using Cells = std::map<std::string, std::vector<std::pair<qint64, qint64>>>;
    QFETCH(QString, first);
    QFETCH(QString, second);
    QFETCH(Cells, expected);
    const QString out = m_dir.filePath(u"compare-iterations.json"_s);
    QCOMPARE(cli::run({ u"compare"_s, m_marker + first, m_marker + second, u"--format"_s, u"json"_s, u"-o"_s, out }),
        int(cli::ExitOk));
    const auto j = nlohmann::json::parse(readAll(out).toStdString());
    QCOMPARE(QString::fromStdString(j["profiles"][0].get<std::string>()), m_marker + first);
    QCOMPARE(QString::fromStdString(j["profiles"][1].get<std::string>()), m_marker + second);
    Cells cells;
    for (const auto& row : j["rows"])
        for (const auto& v : row["values"])
            cells[row["key"].get<std::string>()].emplace_back(
                v["instances"].get<qint64>(), v["total_ns"].get<qint64>());
    QCOMPARE(cells, expected);
    // Each focused entry says which iteration it holds.
    QCOMPARE(j["focus"].size(), std::size_t(second.isEmpty() ? 1 : 2));
    QCOMPARE(QString::fromStdString(j["focus"][0]["profile"].get<std::string>()), m_marker + first);
    QVERIFY(QString::fromStdString(j["focus"][0]["label"].get<std::string>()).startsWith(u"iteration "_s));
}

void TestCmdIterations::compareEntryErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("not an iteration") << QStringList { u"#iter=first"_s, u"#iter=1"_s } << int(cli::ExitUsage);
    QTest::newRow("no such iteration") << QStringList { u"#iter=9"_s, u"#iter=1"_s } << int(cli::ExitUsage);
    QTest::newRow("with a focus option") << QStringList { u"#iter=1"_s, u"#iter=2"_s, u"--range"_s, u"0:1us"_s }
                                         << int(cli::ExitUsage);
}

void TestCmdIterations::compareEntryErrors()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QStringList command { u"compare"_s };
    for (const QString& a : args)
        command.append(a.startsWith(u"#"_s) ? m_marker + a : a);
    QCOMPARE(cli::run(command), exitCode);
}

void TestCmdIterations::jsonMarker()
{
    const QString text
        = run({ m_marker, u"--format"_s, u"json"_s, u"--marker"_s, u"ProfilerStep#[02]"_s }, u"m.json"_s);
    const auto j = nlohmann::json::parse(text.toStdString());
    QCOMPARE(j["detection"]["guess"].get<bool>(), false);
    QCOMPARE(j["detection"]["marker"].get<std::string>(), std::string("ProfilerStep#[02]"));
    QCOMPARE(j["iterations"].size(), std::size_t(2));
    QCOMPARE(j["iterations"][1]["marker"].get<std::string>(), std::string("ProfilerStep#2"));
    QCOMPARE(j["iterations"][1]["start_ns"].get<qint64>(), 3000); // the export's own clock
    QCOMPARE(j["iterations"][1]["gpu_busy_ns"].get<qint64>(), 1500);
    QCOMPARE(j["iterations"][1]["kernels"].get<qint64>(), 3);
    QCOMPARE(j["iterations"][1]["top_category"].get<std::string>(), std::string("nccl_and_custom_ar"));
    QCOMPARE(j["detection"]["rules"].get<std::string>(), std::string("vllm/llama"));
    QCOMPARE(j["warnings"].size(), std::size_t(1)); // ProfilerStep#0 in another process
}

void TestCmdIterations::guessSaidInEveryFormat()
{
    const QString text = run({ m_gap }, u"gap.txt"_s);
    QVERIFY2(text.contains(u"GUESS"_s), qPrintable(text));
    const QString csv = run({ m_gap, u"--format"_s, u"csv"_s }, u"gap.csv"_s);
    const QStringList lines = csv.split(u"\n"_s);
    QCOMPARE(lines.value(1), u"0,guess,0,53000,2850,50150,3,misc,small,"_s);
    // The last guessed iteration has no idle gap after it: no complete period, so never an outlier.
    QCOMPARE(lines.value(3), u"2,guess,116000,2000,1920,80,2,misc,big,"_s);
    const auto j = nlohmann::json::parse(run({ m_gap, u"--format"_s, u"json"_s }, u"gap.json"_s).toStdString());
    QCOMPARE(j["detection"]["guess"].get<bool>(), true);
    QCOMPARE(j["detection"]["method"].get<std::string>(), std::string("gpu_idle_gaps"));
    QCOMPARE(j["detection"]["gap_threshold_ns"].get<qint64>(), 2236);
    // Two complete periods (53000, 63000): a low-confidence guess.
    QCOMPARE(j["detection"]["confidence"].get<std::string>(), std::string("low"));
    QVERIFY2(text.contains(u"low confidence (fewer than 4 complete periods, periods varying by more than 10.0 %)"_s),
        qPrintable(text));
    QVERIFY(QString::fromStdString(j["detection"]["description"].get<std::string>()).startsWith(u"a guess"_s));
}

void TestCmdIterations::textTable()
{
    const QStringList lines = run({ m_marker }, u"marker.txt"_s).split(u'\n');
    QCOMPARE(lines.value(0), u"Iterations of %1"_s.arg(m_marker));
    QVERIFY(lines.value(1).startsWith(u"Detection: NVTX marker ProfilerStep#N"_s));
    QCOMPARE(lines.value(3), u"Categories: rules vllm/llama."_s);
    QVERIFY(lines.value(4).startsWith(u"4 iterations, median duration 1.00 µs"_s));
    QVERIFY(lines.value(6).startsWith(u"#  Marker"_s));
    QVERIFY(lines.value(7).startsWith(u"0  ProfilerStep#0"_s));
    QVERIFY(lines.value(7).contains(u" gemm "_s));
    QVERIFY(lines.value(7).endsWith(u" fill_kernel"_s));
}

QTEST_GUILESS_MAIN(TestCmdIterations)
#include "tst_cmditerations.moc"

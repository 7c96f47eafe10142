// SPDX-License-Identifier: GPL-3.0-or-later
// `mfu` and `findings --table` through the real executable on the demo export (2 x "NVIDIA H100 80GB HBM3",
// execute_model iterations).
#include "oracleexports.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// Runs the executable with @p configHome as XDG_CONFIG_HOME (the user's rule files are read from it).
Run run(const QStringList& args, const QString& configHome = QDir::tempPath() + u"/nsw-cmdmfu-no-config"_s)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"DISPLAY"_s);
    env.remove(u"QT_QPA_PLATFORM"_s);
    env.insert(u"XDG_CONFIG_HOME"_s, configHome);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(NSW_APP_PATH), args);
    if (!p.waitForFinished(120000))
        return {};
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
}

} // namespace

class TestCmdMfu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void mfuPerIterationAgainstTheIterationsCommand();
    void rooflineAgainstTheIterationsCommand_data();
    void rooflineAgainstTheIterationsCommand();
    void textStatesTheAssumptions();
    void abovePeakSaid_data();
    void abovePeakSaid();
    void rooflinePng_data();
    void rooflinePng();
    void listGpus();
    void refusals_data();
    void refusals();
    void oneTableOfFindings_data();
    void oneTableOfFindings();
    void userTensorCoreRules();

private:
    QTemporaryDir m_dir;
    QString m_trace;
};

void TestCmdMfu::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_trace = m_dir.filePath(u"demo.sqlite"_s);
    QVERIFY(QFile::copy(nsw::test::demoExport(), m_trace));
}

void TestCmdMfu::mfuPerIterationAgainstTheIterationsCommand()
{
    // 1e12 FLOPs per iteration on the export's 2 H100 SXM (bf16, 989.5 TFLOP/s each): MFU = 1e12 / (duration x 2 x
    // 989.5e12) with the durations the `iterations` command prints.
    const Run mfu = run({ u"mfu"_s, m_trace, u"--flops"_s, u"1e12"_s, u"--format"_s, u"json"_s });
    QVERIFY2(mfu.exitCode == 0, qPrintable(mfu.err));
    const Run it = run({ u"iterations"_s, m_trace, u"--format"_s, u"json"_s });
    QVERIFY2(it.exitCode == 0, qPrintable(it.err));
    const auto j = nlohmann::json::parse(mfu.out.toStdString());
    const auto iterations = nlohmann::json::parse(it.out.toStdString())["iterations"];
    QCOMPARE(j["peak_gpu"].get<std::string>(), std::string("H100 SXM"));
    QCOMPARE(j["peak_tflops_per_gpu"].get<double>(), 989.5);
    QCOMPARE(j["gpus"].get<int>(), 2);
    QCOMPARE(j["mfu_iterations"].size(), iterations.size());
    for (std::size_t i = 0; i < iterations.size(); ++i) {
        const double duration = iterations[i]["duration_ns"].get<double>();
        QCOMPARE(j["mfu_iterations"][i]["duration_ns"].get<double>(), duration);
        QCOMPARE(j["mfu_iterations"][i]["mfu_pct"].get<double>(), 100.0 * 1e12 / (duration * 1e-9) / (2 * 989.5e12));
    }
    QVERIFY(j["assumptions"].size() >= 3);
}

void TestCmdMfu::rooflineAgainstTheIterationsCommand_data()
{
    // The demo's H100 SXM: 989.5 TFLOP/s bf16 and 3.35 TB/s per GPU, a ridge at 989.5 / 3.35 FLOPs per byte. 1e12
    // FLOPs per iteration on its 2 GPUs: per GPU 1e12 / duration / 2.
    QTest::addColumn<QString>("bytes");
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("attainable"); ///< per GPU
    QTest::addColumn<QString>("bound");
    QTest::newRow("1e9 bytes: 1000 FLOPs/byte, compute-bound under the peak")
        << u"1e9"_s << 1000.0 << 989.5 << u"compute"_s;
    QTest::newRow("1e10 bytes: 100 FLOPs/byte, memory-bound under 100 x 3.35")
        << u"1e10"_s << 100.0 << 335.0 << u"memory"_s;
    QTest::newRow("no bytes: no point, said") << QString() << 0.0 << 0.0 << QString();
}

void TestCmdMfu::rooflineAgainstTheIterationsCommand()
{
    QFETCH(QString, bytes);
    QFETCH(double, intensity);
    QFETCH(double, attainable);
    QFETCH(QString, bound);
    QStringList args { u"mfu"_s, m_trace, u"--flops"_s, u"1e12"_s, u"--format"_s, u"json"_s };
    if (!bytes.isEmpty())
        args << u"--bytes"_s << bytes;
    const Run mfu = run(args);
    QVERIFY2(mfu.exitCode == 0, qPrintable(mfu.err));
    const Run it = run({ u"iterations"_s, m_trace, u"--format"_s, u"json"_s });
    QVERIFY2(it.exitCode == 0, qPrintable(it.err));
    const auto j = nlohmann::json::parse(mfu.out.toStdString());
    const auto iterations = nlohmann::json::parse(it.out.toStdString())["iterations"];
    const auto& roof = j["roofline"];
    QCOMPARE(roof["peak_tflops"].get<double>(), 989.5);
    QCOMPARE(roof["bandwidth_tbs"].get<double>(), 3.35);
    QCOMPARE(roof["ridge_flops_per_byte"].get<double>(), 989.5 / 3.35);
    QCOMPARE(j["bound"].get<std::string>(), bound.toStdString());
    if (bytes.isEmpty()) {
        QVERIFY(roof["points"].empty());
        QVERIFY(roof["missing"].dump().find("needs the bytes") != std::string::npos);
        return;
    }
    QCOMPARE(j["flops_per_byte"].get<double>(), intensity);
    QCOMPARE(roof["points"].size(), iterations.size());
    for (std::size_t i = 0; i < iterations.size(); ++i) {
        const double duration = iterations[i]["duration_ns"].get<double>();
        const double perGpu = 1e12 / (duration * 1e-9) / 2 / 1e12;
        const auto& p = roof["points"][i];
        QCOMPARE(p["kind"].get<std::string>(), std::string("iteration"));
        QCOMPARE(p["flops_per_byte"].get<double>(), intensity);
        QCOMPARE(p["achieved_tflops"].get<double>(), perGpu);
        QCOMPARE(p["attainable_tflops"].get<double>(), attainable);
        QCOMPARE(p["attainable_pct"].get<double>(), 100.0 * perGpu / attainable);
        QCOMPARE(p["bound"].get<std::string>(), bound.toStdString());
        QCOMPARE(j["mfu_iterations"][i]["roof_pct"].get<double>(), 100.0 * perGpu / attainable);
    }
}

void TestCmdMfu::textStatesTheAssumptions()
{
    const Run r
        = run({ u"mfu"_s, m_trace, u"--params"_s, u"1e9"_s, u"--tokens"_s, u"512"_s, u"--precision"_s, u"fp8"_s });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.startsWith(u"MFU: median iteration MFU "_s), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"Assumptions:"_s), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"512 tokens x 6 x 1e+09 parameters = 3.072e+12 FLOPs"_s), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"Peak 1979 TFLOP/s per GPU: H100 SXM, fp8, dense"_s), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"Attention FLOPs left out"_s), qPrintable(r.out));
}

void TestCmdMfu::abovePeakSaid_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("text: a WARNING line") << u"text"_s;
    QTest::newRow("json: warnings") << u"json"_s;
    QTest::newRow("csv: on stderr") << u"csv"_s;
}

void TestCmdMfu::abovePeakSaid()
{
    // 1e18 FLOPs per iteration on the demo's 2 H100 SXM (989.5 TFLOP/s bf16): every iteration shorter than 1e18 /
    // (2 x 989.5e12) s = 505 s is above 100 %; all of them together at 1e18 x N / (their summed duration) over the
    // peak. Both from the `iterations` command's durations.
    QFETCH(QString, format);
    const Run it = run({ u"iterations"_s, m_trace, u"--format"_s, u"json"_s });
    QVERIFY2(it.exitCode == 0, qPrintable(it.err));
    const auto iterations = nlohmann::json::parse(it.out.toStdString())["iterations"];
    double seconds = 0;
    for (const auto& i : iterations)
        seconds += i["duration_ns"].get<double>() * 1e-9;
    const double overall = 100.0 * 1e18 * double(iterations.size()) / seconds / (2 * 989.5e12);
    const QString expected = u"MFU above 100 %: %1 of %1 iterations"_s.arg(iterations.size());
    const QString together = u"all iterations together at %1 %"_s.arg(QString::number(overall, 'f', 1));
    const Run r = run({ u"mfu"_s, m_trace, u"--flops"_s, u"1e18"_s, u"--format"_s, format });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QString said = format == u"csv"_s ? r.err : r.out;
    if (format == u"json"_s) {
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["warnings"].size(), std::size_t(1));
        said = QString::fromStdString(j["warnings"][0].get<std::string>());
    }
    QVERIFY2(said.contains(expected) && said.contains(together), qPrintable(said + u'\n' + together));
    if (format == u"text"_s)
        QVERIFY2(r.out.section(u'\n', 1, 1).startsWith(u"WARNING: MFU above 100 %"_s), qPrintable(r.out));
    // 1e11 FLOPs: the shortest iteration (the demo's last, 0.31 ms) at 16 %, no warning.
    const Run fine = run({ u"mfu"_s, m_trace, u"--flops"_s, u"1e11"_s, u"--format"_s, format });
    QVERIFY2(fine.exitCode == 0, qPrintable(fine.err));
    QVERIFY(!fine.out.contains(u"above 100 %"_s) && !fine.err.contains(u"above 100 %"_s));
}

void TestCmdMfu::rooflinePng_data()
{
    QTest::addColumn<QStringList>("size");
    QTest::addColumn<QSize>("pixels");
    QTest::newRow("default 1000x600") << QStringList {} << QSize(1000, 600);
    QTest::newRow("--png-size 640x400") << QStringList { u"--png-size"_s, u"640x400"_s } << QSize(640, 400);
}

void TestCmdMfu::rooflinePng()
{
    // Headless (no DISPLAY, no QT_QPA_PLATFORM): the chart of the MFU tab, with its roof (dark) and the iteration
    // points drawn. 1e12 FLOPs and 1e10 bytes per iteration: 100 FLOPs/byte, memory-bound.
    QFETCH(QStringList, size);
    QFETCH(QSize, pixels);
    const QString png = m_dir.filePath(u"roofline-%1.png"_s.arg(pixels.width()));
    const Run r = run(QStringList { u"mfu"_s, m_trace, u"--flops"_s, u"1e12"_s, u"--bytes"_s, u"1e10"_s, u"--png"_s,
                          png, u"--format"_s, u"json"_s }
        + size);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(nlohmann::json::accept(r.out.toStdString())); // stdout keeps the command's output
    const QImage image(png);
    QCOMPARE(image.size(), pixels);
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 5, "the PNG looks blank");
}

void TestCmdMfu::listGpus()
{
    const Run r = run({ u"mfu"_s, u"--list-gpus"_s });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(u"H100 SXM"_s) && r.out.contains(u"989.5"_s), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"datasheet"_s), qPrintable(r.out));
}

void TestCmdMfu::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("no FLOPs") << QStringList {} << 1 << u"no FLOPs"_s;
    QTest::newRow("FLOPs not a number") << QStringList { u"--flops"_s, u"lots"_s } << 1
                                        << u"--flops must be a number > 0, not 'lots'"_s;
    QTest::newRow("unknown precision") << QStringList { u"--flops"_s, u"1e12"_s, u"--precision"_s, u"fp12"_s } << 1
                                       << u"--precision must be one of"_s;
    QTest::newRow("both --flops and --params") << QStringList { u"--flops"_s, u"1e12"_s, u"--params"_s, u"1e9"_s,
        u"--tokens"_s, u"1"_s } << 1 << u"either --flops or"_s;
    QTest::newRow("missing range file") << QStringList { u"--ranges"_s, u"/nonexistent/flops.json"_s } << 2
                                        << u"/nonexistent/flops.json: cannot read"_s;
    QTest::newRow("absent marker") << QStringList { u"--flops"_s, u"1e12"_s, u"--marker"_s, u"nope"_s } << 4
                                   << u"--marker"_s;
    QTest::newRow("--png onto the trace") << QStringList { u"--flops"_s, u"1e12"_s, u"--png"_s, m_trace } << 1
                                          << u"is one of the inputs; refusing to overwrite it"_s;
    QTest::newRow("--png onto a device") << QStringList { u"--flops"_s, u"1e12"_s, u"--png"_s, u"/dev/null"_s } << 1
                                         << u"/dev/null: not a regular file"_s;
    QTest::newRow("--png-size too small") << QStringList { u"--flops"_s, u"1e12"_s, u"--png"_s,
        m_dir.filePath(u"small.png"_s), u"--png-size"_s, u"50x50"_s }
                                          << 1 << u"--png-size must be WIDTHxHEIGHT (at least 100x100), not '50x50'"_s;
}

void TestCmdMfu::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const qint64 traceSize = QFileInfo(m_trace).size();
    const Run r = run(QStringList { u"mfu"_s, m_trace } + args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
    QCOMPARE(QFileInfo(m_trace).size(), traceSize);
    QVERIFY(!QFile::exists(m_dir.filePath(u"small.png"_s)));
}

void TestCmdMfu::oneTableOfFindings_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("header");
    QTest::newRow("stream concurrency") << u"stream_concurrency"_s
                                        << u"device,device_label,streams_busy,time_ns,time_pct"_s;
    QTest::newRow("longest kernels")
        << u"longest_kernels"_s << u"rank,device,device_label,stream,pid,start_ns,end_ns,duration_ns,kernel_name"_s;
    QTest::newRow("what if")
        << u"what_if"_s << u"scope,device,device_label,scenario,base_ns,removable_ns,bound_ns,saving_pct,arithmetic"_s;
}

void TestCmdMfu::oneTableOfFindings()
{
    QFETCH(QString, table);
    QFETCH(QString, header);
    const Run csv = run({ u"findings"_s, m_trace, u"--table"_s, table, u"--format"_s, u"csv"_s });
    QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
    QCOMPARE(csv.out.section(u'\n', 0, 0), header);
    QVERIFY(csv.out.count(u'\n') > 1);
    const Run text = run({ u"findings"_s, m_trace, u"--table"_s, table });
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    const Run bad = run({ u"findings"_s, m_trace, u"--table"_s, u"nope"_s });
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains(u"no table 'nope' (tables: kernels,"_s), qPrintable(bad.err));
}

void TestCmdMfu::userTensorCoreRules()
{
    // A user rule file of the engine "tensorcores" calling every kernel a tensor-core kernel: 100 % on every GPU.
    const QString config = m_dir.filePath(u"config"_s);
    const QString rules = config + u"/nsys-workbench/nsys-workbench/rules"_s;
    QVERIFY(QDir().mkpath(rules));
    QFile file(rules + u"/tensorcores.json"_s);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"tensorcores": {"everything": {".*": "tensor_core"}}})");
    file.close();
    const Run r = run({ u"findings"_s, m_trace, u"--table"_s, u"tensor_cores"_s, u"--format"_s, u"json"_s }, config);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto rows = nlohmann::json::parse(r.out.toStdString());
    QVERIFY(!rows.empty());
    for (const auto& row : rows)
        QCOMPARE(row["tensor_core_pct"].get<double>(), 100.0);
    // Without it, the shipped rules: the demo's elementwise kernels are not tensor-core kernels.
    const Run shipped = run({ u"findings"_s, m_trace, u"--table"_s, u"tensor_cores"_s, u"--format"_s, u"json"_s });
    QVERIFY2(shipped.exitCode == 0, qPrintable(shipped.err));
    for (const auto& row : nlohmann::json::parse(shipped.out.toStdString()))
        QVERIFY(row["tensor_core_pct"].get<double>() < 100.0);
}

QTEST_GUILESS_MAIN(TestCmdMfu)
#include "tst_cmdmfu.moc"

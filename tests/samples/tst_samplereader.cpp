// SPDX-License-Identifier: GPL-3.0-or-later
// Loading CPU samples: every count against plain SQL on the real exports with samples and on generated ones, and
// hand-made exports with broken call chains (gaps in stackDepth, NULL or unknown symbols, frames of no sample,
// samples without a stack, deep recursion, many symbols, rows out of order).
#include "core/profile/profileloader.h"
#include "core/samples/samplecounts.h"
#include "core/samples/samplesexport.h"
#include "oracleexports.h"
#include "samplesoracle.h"
#include "sqlitefixture.h"
#include "testutils.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;
using namespace nsw::test;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kTid = (qint64(1) << 48) | (qint64(100) << 24) | 100; // pid 100, tid 100
constexpr qint64 kUnnamedTid = (qint64(1) << 48) | (qint64(100) << 24) | 101;

/// Strings 1..4 name functions and modules; the tables have no constraints, so a test can write what nsys never does.
const char* const kSchema = R"(
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
INSERT INTO StringIds VALUES (1, 'main'), (2, 'work'), (3, 'leaf'), (4, '/bin/app'), (5, 'app'), (6, 'recurse'),
  (7, 'do_syscall_64'), (8, '[kernel.kallsyms]'), (9, '0x7f0001');
CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
INSERT INTO ThreadNames VALUES (5, 10, %1);
CREATE TABLE COMPOSITE_EVENTS (id INTEGER, start INTEGER, cpu INTEGER, threadState INTEGER, globalTid INTEGER,
  cpuCycles INTEGER);
CREATE TABLE SAMPLING_CALLCHAINS (id INTEGER, symbol INTEGER, module INTEGER, kernelMode INTEGER, thumbCode INTEGER,
  unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER, unwindMethod INTEGER, stackDepth INTEGER);
CREATE INDEX chains_of_sample ON SAMPLING_CALLCHAINS (id);
CREATE INDEX samples_by_id ON COMPOSITE_EVENTS (id);
)";

ProfilePtr loadSamples(const QString& path, QStringList* warnings = nullptr)
{
    LoadOptions options;
    options.parts = LoadCpuSamples;
    LoadResult r = ProfileLoader::load(path, options);
    if (warnings)
        *warnings = r.warnings();
    if (!r.ok()) {
        qWarning("%s", qPrintable(r.errorMessage()));
        return nullptr;
    }
    return r->profile;
}

struct Counted
{
    std::shared_ptr<const SampleCallTree> tree;
    SampleCounts counts;
    std::vector<FunctionCount> functions;
};

Counted countAll(const ProfilePtr& p)
{
    Counted c;
    c.tree = sampleCallTreeOf(p, CancelToken::never());
    const auto index = sampleThreadIndexOf(p, CancelToken::never());
    const std::vector<std::uint32_t> rows = selectSamples(*p, *index, {}, nullptr);
    c.counts = countSamples(*c.tree, rows);
    c.functions = countFunctions(*c.tree, c.counts);
    return c;
}

const FunctionCount* find(const Profile& p, const std::vector<FunctionCount>& functions, const QString& name)
{
    for (const FunctionCount& f : functions)
        if (sampleFunctionName(p, f.function) == name)
            return &f;
    return nullptr;
}

bool containsWarning(const QStringList& warnings, const QString& words)
{
    for (const QString& w : warnings)
        if (w.contains(words))
            return true;
    return false;
}

} // namespace

class TestSampleReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countsMatchSql_data();
    void countsMatchSql();
    void outermostFramesMatchSql_data() { countsMatchSql_data(); }
    void outermostFramesMatchSql();
    void realExportsHaveSamples();
    void brokenCallChains_data();
    void brokenCallChains();
    void recursionTenThousandDeep();
    void manyDistinctSymbols();
    void rowsOutOfOrder();
    void exportWithoutSampleTables();
    void cancelWhileReadingSamples();

private:
    QString fixture(const QString& name, const QString& rows);
    QTemporaryDir m_dir;
};

QString TestSampleReader::fixture(const QString& name, const QString& rows)
{
    const QString path = m_dir.filePath(name + u".sqlite"_s);
    SqliteFixture db(path);
    if (!db.exec(QString::fromLatin1(kSchema).arg(kTid)) || !db.exec(rows)) {
        qWarning("%s", qPrintable(db.lastError()));
        return {};
    }
    db.close();
    return path;
}

void TestSampleReader::countsMatchSql_data()
{
    QTest::addColumn<QString>("path");
    for (const OracleExport& e : oracleExports())
        if (hasSampleTables(e.path))
            QTest::newRow(qPrintable(e.label)) << e.path;
}

void TestSampleReader::countsMatchSql()
{
    QFETCH(QString, path);
    const ProfilePtr p = loadSamples(path);
    QVERIFY(p);
    const SqlSampleCounts sql = sqlSampleCounts(path);
    QVERIFY(sql.samples > 0);
    QCOMPARE(qint64(p->cpuSamples.size()), sql.samples);
    const Counted c = countAll(p);
    QCOMPARE(c.counts.samples, sql.samples);
    QCOMPARE(qint64(c.counts.self[SampleCallTree::kRoot]), sql.withoutStack);
    QCOMPARE(workbenchCounts(*p, c.functions), sql.functions);
    // Per thread, against the samples of each globalTid.
    const auto index = sampleThreadIndexOf(p, CancelToken::never());
    for (const QStringList& row : queryRows(path, u"SELECT globalTid, count(*) FROM COMPOSITE_EVENTS GROUP BY 1"_s)) {
        const qint64 globalTid = row[0].toLongLong();
        ThreadIndex thread = kNoIndex;
        for (std::size_t t = 0; t < p->threads.size(); ++t)
            if (p->threads[t].globalTid == globalTid)
                thread = ThreadIndex(t);
        QVERIFY2(thread >= 0, qPrintable(row[0]));
        const auto [first, last] = index->range(thread);
        QCOMPARE(qint64(last - first), row[1].toLongLong());
    }
}

void TestSampleReader::outermostFramesMatchSql()
{
    // The top of the top-down tree: samples by their outermost frame (the highest stackDepth).
    QFETCH(QString, path);
    const ProfilePtr p = loadSamples(path);
    QVERIFY(p);
    std::map<QString, qint64> expected;
    for (const QStringList& row : queryRows(path,
             u"SELECT coalesce(s.value, '[unknown]'), count(*) FROM SAMPLING_CALLCHAINS c "
             "JOIN (SELECT id, max(stackDepth) AS top FROM SAMPLING_CALLCHAINS GROUP BY id) t "
             "ON t.id = c.id AND t.top = c.stackDepth LEFT JOIN StringIds s ON s.id = c.symbol GROUP BY 1"_s))
        expected[row[0]] = row[1].toLongLong();
    const Counted c = countAll(p);
    std::map<QString, qint64> tops;
    for (const SampleTreeRow& r : topDownRows(*p, *c.tree, c.counts))
        if (r.depth == 0 && r.function >= 0)
            tops[sampleFunctionName(*p, r.function)] += r.total;
    QCOMPARE(tops, expected);
    // The bottom-up tree's roots are the flat list's self counts.
    SampleBottomUp bottomUp = bottomUpTree(*c.tree, c.counts);
    std::map<QString, qint64> roots, self;
    for (const SampleTreeRow& r : bottomUpRows(*p, bottomUp))
        if (r.depth == 0 && r.function >= 0)
            roots[sampleFunctionName(*p, r.function)] += r.total;
    for (const FunctionCount& f : c.functions)
        if (f.function >= 0 && f.self > 0)
            self[sampleFunctionName(*p, f.function)] += f.self;
    QCOMPARE(roots, self);
    // Three levels down the bottom-up tree (a function, its caller, theirs): samples by their frames 0, 1 and 2.
    std::map<QStringList, qint64> paths, sqlPaths;
    const std::vector<SampleTreeRow> rows = bottomUpRows(*p, bottomUp);
    for (const SampleTreeRow& r : rows)
        if (r.depth == 2) {
            const SampleTreeRow& caller = rows[std::size_t(r.parentRow)];
            paths[{ sampleFunctionName(*p, rows[std::size_t(caller.parentRow)].function),
                sampleFunctionName(*p, caller.function), sampleFunctionName(*p, r.function) }]
                += r.total;
        }
    for (const QStringList& row : queryRows(path,
             u"SELECT coalesce(s0.value, '[unknown]'), coalesce(s1.value, '[unknown]'), "
             "coalesce(s2.value, '[unknown]'), count(*) FROM (SELECT max(CASE WHEN stackDepth = 0 THEN symbol END) "
             "AS f0, max(CASE WHEN stackDepth = 1 THEN symbol END) AS f1, max(CASE WHEN stackDepth = 2 THEN symbol "
             "END) AS f2 FROM SAMPLING_CALLCHAINS GROUP BY id HAVING max(stackDepth) >= 2) t LEFT JOIN StringIds s0 "
             "ON s0.id = t.f0 LEFT JOIN StringIds s1 ON s1.id = t.f1 LEFT JOIN StringIds s2 ON s2.id = t.f2 "
             "GROUP BY 1, 2, 3"_s))
        sqlPaths[row.mid(0, 3)] = row[3].toLongLong();
    QVERIFY(!sqlPaths.empty());
    QCOMPARE(paths, sqlPaths);
}

void TestSampleReader::realExportsHaveSamples()
{
    // The three real exports recorded with -s cpu (2022.2 A100 MPI, 2025.1 T4, 2025.5 RTX 3060).
    if (realOracleExportCount() == 0)
        NSW_SKIP_WITHOUT_SHARED_TRACES("counts the real exports with samples");
    int withSamples = 0;
    for (const OracleExport& e : oracleExports())
        withSamples += QFileInfo(e.path).fileName().startsWith(u"nsys"_s) && hasSampleTables(e.path) ? 1 : 0;
    QCOMPARE(withSamples, 3);
}

void TestSampleReader::brokenCallChains_data()
{
    QTest::addColumn<QString>("rows");
    QTest::addColumn<QString>("function"); ///< the function checked
    QTest::addColumn<qint64>("self");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<QString>("warning"); ///< words the load must say, "" for none
    const QString samples
        = u"INSERT INTO COMPOSITE_EVENTS VALUES (1, 100, 0, 1, %1, 1), (2, 200, 0, 1, %1, 1);"_s.arg(kTid);
    QTest::newRow("gap in stackDepth") << samples
            + u"INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES "
              "(1, 3, 4, 0), (1, 1, 4, 2), (2, 3, 4, 0), (2, 2, 4, 1), (2, 1, 4, 2);"_s
                                       << u"leaf"_s << qint64(2) << qint64(2) << u"gaps or repeats in stackDepth"_s;
    QTest::newRow("no depth 0: the lowest frame is the leaf")
        << samples
            + u"INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES "
              "(1, 2, 4, 1), (1, 1, 4, 2), (2, 3, 4, 0), (2, 1, 4, 1);"_s
        << u"work"_s << qint64(1) << qint64(1) << u"gaps or repeats in stackDepth"_s;
    QTest::newRow("NULL symbol") << samples
            + u"INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES "
              "(1, NULL, 4, 0), (1, 1, 4, 1), (2, 3, 4, 0), (2, 1, 4, 1);"_s
                                 << u"[unknown]"_s << qint64(1) << qint64(1) << u"have no symbol"_s;
    QTest::newRow("symbol outside StringIds")
        << samples
            + u"INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES "
              "(1, 99999, 4, 0), (1, 1, 4, 1), (2, 3, 4, 0), (2, 1, 4, 1);"_s
        << u"[missing string 99999]"_s << qint64(1) << qint64(1) << u"missing from StringIds"_s;
    QTest::newRow("frames of no sample") << samples
            + u"INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES "
              "(1, 3, 4, 0), (2, 3, 4, 0), (77, 3, 4, 0), (NULL, 3, 4, 0);"_s
                                         << u"leaf"_s << qint64(2) << qint64(2) << u"2 frames belong to no sample"_s;
    QTest::newRow("sample without a stack")
        << samples + u"INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES (1, 3, 4, 0);"_s
        << u"[no call stack]"_s << qint64(1) << qint64(1) << QString();
    QTest::newRow("kernel and unresolved frames") << samples
            + u"INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, kernelMode, unresolved, stackDepth) "
              "VALUES (1, 7, 8, 1, 0, 0), (1, 9, 4, 0, 1, 1), (2, 9, 4, 0, 1, 0);"_s
                                                  << u"0x7f0001"_s << qint64(1) << qint64(2) << QString();
    QTest::newRow("thread without a name")
        << u"INSERT INTO COMPOSITE_EVENTS VALUES (1, 100, 0, 1, %1, 1), (2, 200, 0, 1, NULL, 1);"
           "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES (1, 3, 4, 0), (2, 3, 4, 0);"_s.arg(
               kUnnamedTid)
        << u"leaf"_s << qint64(2) << qint64(2) << QString();
}

void TestSampleReader::brokenCallChains()
{
    QFETCH(QString, rows);
    QFETCH(QString, function);
    QFETCH(qint64, self);
    QFETCH(qint64, total);
    QFETCH(QString, warning);
    const QString path
        = fixture(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')), rows);
    QVERIFY(!path.isEmpty());
    QStringList warnings;
    const ProfilePtr p = loadSamples(path, &warnings);
    QVERIFY(p);
    // Never a sample dropped.
    QCOMPARE(qint64(p->cpuSamples.size()), 2);
    const Counted c = countAll(p);
    QCOMPARE(c.counts.samples, 2);
    const FunctionCount* f = find(*p, c.functions, function);
    QVERIFY2(f, qPrintable(function));
    QCOMPARE(f->self, self);
    QCOMPARE(f->total, total);
    if (!warning.isEmpty())
        QVERIFY2(containsWarning(warnings, warning), qPrintable(warnings.join(u"\n"_s)));
    else
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u"\n"_s)));
    if (QByteArray(QTest::currentDataTag()) == "kernel and unresolved frames") {
        QVERIFY(sampleIsKernel(*p, find(*p, c.functions, u"do_syscall_64"_s)->function));
        QVERIFY(sampleIsUnresolved(*p, f->function));
        QCOMPARE(sampleFrameLabel(*p, f->function), u"0x7f0001 [unresolved]"_s);
    }
    if (QByteArray(QTest::currentDataTag()) == "thread without a name") {
        QCOMPARE(p->threadLabel(p->cpuSamples.thread[0]), u"tid 101"_s);
        QCOMPARE(p->cpuSamples.thread[1], kNoIndex);
    }
}

void TestSampleReader::recursionTenThousandDeep()
{
    // One sample 10,000 frames deep in one function, one sample of another: exact counts, no stack overflow in the
    // tree, the exports or the bottom-up view.
    const QString path = fixture(u"deep"_s,
        u"INSERT INTO COMPOSITE_EVENTS VALUES (1, 100, 0, 1, %1, 1), (2, 200, 0, 1, %1, 1);"
        "WITH RECURSIVE n(d) AS (SELECT 0 UNION ALL SELECT d + 1 FROM n WHERE d < 9999) "
        "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) SELECT 1, 6, 4, d FROM n;"
        "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES (2, 3, 4, 0);"_s.arg(kTid));
    const ProfilePtr p = loadSamples(path);
    QVERIFY(p);
    const Counted c = countAll(p);
    const FunctionCount* f = find(*p, c.functions, u"recurse"_s);
    QVERIFY(f);
    QCOMPARE(f->self, 1);
    QCOMPARE(f->total, 1);
    const std::vector<SampleTreeRow> rows = topDownRows(*p, *c.tree, c.counts);
    QCOMPARE(rows.size(), std::size_t(10001));
    QCOMPARE(rows.back().depth, 9999u);
    const SampleBottomUp bottomUp = bottomUpTree(*c.tree, c.counts);
    QCOMPARE(bottomUpRows(*p, bottomUp).size(), std::size_t(10001));
    const QString collapsed = sampleCollapsed(*p, *c.tree, c.counts);
    QCOMPARE(collapsed.count(u"recurse"_s), 10000);
    QVERIFY(collapsed.endsWith(u"recurse 1\n"_s));
}

void TestSampleReader::manyDistinctSymbols()
{
    // 100,000 samples, each running its own function (the hostile suite takes a million).
    const QString path = fixture(u"many"_s,
        u"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
        "INSERT INTO StringIds SELECT 1000 + i, 'f' || i FROM n;"
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
        "INSERT INTO COMPOSITE_EVENTS SELECT i, i * 10, 0, 1, %1, 1 FROM n;"
        "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) SELECT id, 1000 + id, 4, 0 FROM "
        "COMPOSITE_EVENTS;"
        "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) SELECT id, 1, 4, 1 FROM COMPOSITE_EVENTS;"_s
            .arg(kTid));
    const ProfilePtr p = loadSamples(path);
    QVERIFY(p);
    QCOMPARE(p->cpuSamples.functions.size(), std::size_t(100001));
    const Counted c = countAll(p);
    QCOMPARE(c.functions.size(), std::size_t(100001));
    QCOMPARE(workbenchCounts(*p, c.functions), sqlSampleCounts(path).functions);
}

void TestSampleReader::rowsOutOfOrder()
{
    // Frames written from the outermost in and samples in reverse id order: read as if in order, no warning.
    const QString path = fixture(u"reversed"_s,
        u"INSERT INTO COMPOSITE_EVENTS VALUES (3, 300, 0, 1, %1, 1), (2, 200, 0, 1, %1, 1), (1, 100, 0, 1, %1, 1);"
        "INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth) VALUES (3, 1, 4, 1), (3, 2, 4, 0), "
        "(2, 1, 4, 2), (2, 2, 4, 1), (2, 3, 4, 0), (1, 1, 4, 1), (1, 3, 4, 0);"_s.arg(kTid));
    QStringList warnings;
    const ProfilePtr p = loadSamples(path, &warnings);
    QVERIFY(p);
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u"\n"_s)));
    const Counted c = countAll(p);
    QCOMPARE(workbenchCounts(*p, c.functions), sqlSampleCounts(path).functions);
    // Table order kept: the first sample is id 3, running work under main.
    QCOMPARE(p->cpuSamples.time[0], 300);
    QCOMPARE(sampleFunctionName(*p, p->cpuSamples.frame(0, 0)), u"work"_s);
    QCOMPARE(sampleFunctionName(*p, p->cpuSamples.frame(0, 1)), u"main"_s);
}

void TestSampleReader::exportWithoutSampleTables()
{
    const QString path = m_dir.filePath(u"none.sqlite"_s);
    {
        SqliteFixture db(path);
        QVERIFY(db.exec(u"CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"_s));
    }
    QStringList warnings;
    const ProfilePtr p = loadSamples(path, &warnings);
    QVERIFY(p);
    QCOMPARE(p->cpuSamples.size(), std::size_t(0));
    QVERIFY(warnings.isEmpty());
}

void TestSampleReader::cancelWhileReadingSamples()
{
    const QString path = generatedExport(u"2025.5"_s);
    QVERIFY(!path.isEmpty());
    CancelToken cancel;
    LoadOptions options;
    options.parts = LoadCpuSamples;
    options.chunkRows = 500; // many chunks: the cancel lands while they are read
    bool sawSamples = false;
    const LoadResult r = ProfileLoader::load(path, options, JobContext(cancel, [&](const Progress& progress) {
        if (progress.stage.startsWith(u"Reading CPU"_s) || progress.stage.startsWith(u"Resolving"_s)) {
            sawSamples = true;
            cancel.cancel();
        }
    }));
    QVERIFY(sawSamples);
    QVERIFY(r.isCancelled());
    QVERIFY(!r.ok());
}

QTEST_GUILESS_MAIN(TestSampleReader)
#include "tst_samplereader.moc"

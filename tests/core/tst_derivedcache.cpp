// SPDX-License-Identifier: GPL-3.0-or-later
// Profile::derived (core/profile/derivedcache.h): built once per key and shared, nothing stored for a builder that
// gives up, one builder at a time while the others wait (or stop waiting when cancelled), copies start empty.
#include "core/profile/derivedcache.h"

#include <QTest>
#include <atomic>
#include <future>
#include <thread>
#include <vector>

using namespace nsw;

class TestDerivedCache : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void buildsOncePerKey_data();
    void buildsOncePerKey();
    void failedBuildIsNotKept();
    void concurrentCallersShareOneBuild_data();
    void concurrentCallersShareOneBuild();
    void cancelledWaiterStopsWaiting();
    void copyStartsEmpty();
    void whileHeldKeptOnlyWhileHeld();
    void resultsKeptUnlessCancelled_data();
    void resultsKeptUnlessCancelled();
};

void TestDerivedCache::buildsOncePerKey_data()
{
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<int>("builds"); // distinct keys, counted by hand
    QTest::newRow("one key asked three times") << QStringLiteral("a|a|a").split(u'|') << 1;
    QTest::newRow("two keys, interleaved") << QStringLiteral("a|b|a|b").split(u'|') << 2;
    QTest::newRow("keys that differ only in a suffix") << QStringLiteral("iterations |iterations x").split(u'|') << 2;
}

void TestDerivedCache::buildsOncePerKey()
{
    QFETCH(QStringList, keys);
    QFETCH(int, builds);
    DerivedCache cache;
    int built = 0;
    std::map<QString, const int*> first;
    for (const QString& key : keys) {
        const auto value = cache.get<int>(key.toStdString(), CancelToken::never(), [&] {
            ++built;
            return std::make_shared<const int>(built);
        });
        QVERIFY(value);
        const auto [it, inserted] = first.try_emplace(key, value.get());
        QCOMPARE(value.get(), it->second); // the same object every time
    }
    QCOMPARE(built, builds);
}

void TestDerivedCache::failedBuildIsNotKept()
{
    DerivedCache cache;
    int attempts = 0;
    auto build
        = [&]() -> std::shared_ptr<const int> { return ++attempts == 1 ? nullptr : std::make_shared<const int>(7); };
    QVERIFY(!cache.get<int>("k", CancelToken::never(), build));
    const auto second = cache.get<int>("k", CancelToken::never(), build);
    QVERIFY(second);
    QCOMPARE(*second, 7);
    QCOMPARE(attempts, 2);
}

void TestDerivedCache::concurrentCallersShareOneBuild_data()
{
    QTest::addColumn<bool>("whileHeld");
    QTest::newRow("get: kept with the profile") << false;
    QTest::newRow("getWhileHeld: kept while a caller holds it") << true;
}

void TestDerivedCache::concurrentCallersShareOneBuild()
{
    QFETCH(bool, whileHeld);
    DerivedCache cache;
    std::atomic<int> built { 0 };
    std::promise<void> release;
    const std::shared_future<void> released = release.get_future().share();
    std::atomic<int> started { 0 };
    std::vector<std::shared_ptr<const int>> values(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < values.size(); ++t)
        threads.emplace_back([&, t] {
            ++started;
            const auto build = [&] {
                ++built;
                released.wait(); // the builder holds the key until every caller has asked
                return std::make_shared<const int>(1);
            };
            values[t] = whileHeld ? cache.getWhileHeld<int>("k", CancelToken::never(), build)
                                  : cache.get<int>("k", CancelToken::never(), build);
        });
    while (started.load() < int(values.size()))
        std::this_thread::yield();
    release.set_value();
    for (std::thread& t : threads)
        t.join();
    QCOMPARE(built.load(), 1);
    for (const auto& v : values)
        QCOMPARE(v.get(), values.front().get());
}

void TestDerivedCache::cancelledWaiterStopsWaiting()
{
    DerivedCache cache;
    std::promise<void> release, building;
    const std::shared_future<void> released = release.get_future().share();
    std::thread builder([&] {
        (void)cache.get<int>("k", CancelToken::never(), [&] {
            building.set_value();
            released.wait();
            return std::make_shared<const int>(1);
        });
    });
    building.get_future().wait();
    const CancelToken cancelled;
    cancelled.cancel();
    bool waiterBuilt = false;
    const auto value = cache.get<int>("k", cancelled, [&] {
        waiterBuilt = true;
        return std::make_shared<const int>(2);
    });
    QVERIFY(!value); // returned while the other build still runs
    QVERIFY(!waiterBuilt);
    release.set_value();
    builder.join();
    QCOMPARE(*cache.get<int>("k", CancelToken::never(), [] { return std::make_shared<const int>(3); }), 1);
}

void TestDerivedCache::copyStartsEmpty()
{
    DerivedCache cache;
    (void)cache.get<int>("k", CancelToken::never(), [] { return std::make_shared<const int>(1); });
    const DerivedCache copy(cache);
    QCOMPARE(*copy.get<int>("k", CancelToken::never(), [] { return std::make_shared<const int>(2); }), 2);
}

void TestDerivedCache::whileHeldKeptOnlyWhileHeld()
{
    DerivedCache cache;
    int built = 0;
    auto build = [&] { return std::make_shared<const int>(++built); };
    auto held = cache.getWhileHeld<int>("k", CancelToken::never(), build);
    QCOMPARE(cache.getWhileHeld<int>("k", CancelToken::never(), build).get(), held.get()); // shared while held
    QCOMPARE(built, 1);
    QCOMPARE(held.use_count(), 1); // the cache does not own it
    held.reset();
    QCOMPARE(*cache.getWhileHeld<int>("k", CancelToken::never(), build), 2); // released: built again
}

void TestDerivedCache::resultsKeptUnlessCancelled_data()
{
    QTest::addColumn<int>("kind"); // 0 a value, else 1 + ErrorKind
    QTest::addColumn<int>("computes"); // after two calls, counted by hand
    QTest::newRow("a value is kept") << 0 << 1;
    QTest::newRow("a missing table (NoData) is kept") << 1 + int(ErrorKind::NoData) << 1;
    QTest::newRow("an unreadable file (Input) is kept") << 1 + int(ErrorKind::Input) << 1;
    QTest::newRow("a cancelled computation is not kept") << 1 + int(ErrorKind::Cancelled) << 2;
}

void TestDerivedCache::resultsKeptUnlessCancelled()
{
    QFETCH(int, kind);
    QFETCH(int, computes);
    DerivedCache cache;
    int computed = 0;
    auto compute = [&]() -> Result<int> {
        ++computed;
        if (kind == 0)
            return 5;
        return Result<int>::failure(ErrorKind(kind - 1), QStringLiteral("why"));
    };
    for (int call = 0; call < 2; ++call) {
        const auto r = cache.getResult<int>("k", CancelToken::never(), compute);
        QCOMPARE(bool(r), kind != 1 + int(ErrorKind::Cancelled));
        if (r && kind == 0)
            QCOMPARE(**r, 5);
        if (r && kind != 0)
            QCOMPARE(r->errorMessage(), QStringLiteral("why"));
    }
    QCOMPARE(computed, computes);
}

QTEST_GUILESS_MAIN(TestDerivedCache)
#include "tst_derivedcache.moc"

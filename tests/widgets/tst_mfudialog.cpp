// SPDX-License-Identifier: GPL-3.0-or-later
// The MFU dialog: FLOPs per NVTX range typed in its table (saved and loaded as the file `mfu --ranges` reads), and
// the whole of every placeholder on screen at 1366x768 and 1920x1080.
#include "core/diagnostics/rangeflops.h"
#include "profilebuilder.h"
#include "widgets/diagnostics/mfudialog.h"
#include "widgets/diagnostics/rangeflopstable.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace nsw;

namespace {

void type(QTableWidget* table, int row, const QStringList& cells)
{
    while (table->rowCount() <= row)
        table->insertRow(table->rowCount());
    for (int c = 0; c < cells.size(); ++c)
        table->setItem(row, c, new QTableWidgetItem(cells[c]));
}

ProfilePtr h100()
{
    test::ProfileBuilder b;
    b.gpu(0, QStringLiteral("NVIDIA H100 80GB HBM3"));
    const ThreadIndex t = b.thread(b.process(100), 101);
    b.kernel(t, 0, 10, 100, 200, QStringLiteral("gemm"));
    return b.build();
}

} // namespace

class TestMfuDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void typedRanges_data();
    void typedRanges();
    void savesAndLoadsTheRangesFile();
    void placeholdersAreWhole_data();
    void placeholdersAreWhole();
};

void TestMfuDialog::typedRanges_data()
{
    QTest::addColumn<QStringList>("rows"); ///< "range|flops|bytes" per row
    QTest::addColumn<QString>("error"); ///< empty: valid
    QTest::addColumn<int>("ranges");
    QTest::newRow("two ranges, one with bytes, an empty row skipped")
        << QStringList { QStringLiteral("fwd|2e11|1e9"), QStringLiteral("||"), QStringLiteral("re:layer_\\d+|1.5e9|") }
        << QString() << 2;
    QTest::newRow("FLOPs not a number") << QStringList { QStringLiteral("fwd|lots|") }
                                        << QStringLiteral("row 1 (fwd): FLOPs must be a number > 0") << 0;
    QTest::newRow("negative bytes") << QStringList { QStringLiteral("fwd|1e9|-4") }
                                    << QStringLiteral("row 1 (fwd): bytes must be a number >= 0") << 0;
    QTest::newRow("bad regex") << QStringList { QStringLiteral("fwd|1|"), QStringLiteral("re:(|1|") }
                               << QStringLiteral("row 2 (re:(): not a valid regular expression") << 0;
    QTest::newRow("FLOPs without a name")
        << QStringList { QStringLiteral("|1e9|") } << QStringLiteral("row 1 (): no range name") << 0;
}

void TestMfuDialog::typedRanges()
{
    QFETCH(QStringList, rows);
    QFETCH(QString, error);
    QFETCH(int, ranges);
    MfuDialog dialog;
    dialog.setProfile(h100());
    for (int i = 0; i < rows.size(); ++i)
        type(dialog.rangeTable()->table(), i, rows[i].split(u'|'));
    QString problem;
    const MfuRequest r = dialog.request(&problem);
    if (!error.isEmpty()) {
        QVERIFY2(problem.contains(error), qPrintable(problem));
        return;
    }
    // FLOPs per range alone are enough: no FLOPs per iteration asked for.
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QCOMPARE(int(r.ranges.size()), ranges);
    QCOMPARE(r.ranges[0].pattern, QStringLiteral("fwd"));
    QCOMPARE(r.ranges[0].flops, 2e11);
    QCOMPARE(r.ranges[0].bytes, 1e9);
    QCOMPARE(r.ranges[1].pattern, QStringLiteral("re:layer_\\d+"));
    QCOMPARE(r.ranges[1].bytes, 0.0);
    QCOMPARE(r.flopsPerIteration, 0.0);
}

void TestMfuDialog::savesAndLoadsTheRangesFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("flops.json"));
    RangeFlopsTable table;
    type(table.table(), 0, { QStringLiteral("fwd"), QStringLiteral("2e11"), QStringLiteral("1e9") });
    type(table.table(), 1, { QStringLiteral("bwd"), QStringLiteral("4e11"), QString() });
    QCOMPARE(table.save(path), QString());
    QVERIFY(table.status()->text().contains(QStringLiteral("Saved 2 range(s)")));
    // What the CLI reads: the same numbers.
    const Result<std::vector<RangeFlops>> file = loadRangeFlops(path);
    QVERIFY2(file, qPrintable(file.errorMessage()));
    QCOMPARE(file->size(), std::size_t(2));
    QCOMPARE((*file)[0].pattern, QStringLiteral("bwd"));
    QCOMPARE((*file)[0].flops, 4e11);
    QCOMPARE((*file)[1].flops, 2e11);
    QCOMPARE((*file)[1].bytes, 1e9);
    // Loaded into another table: the rows, as the file's names order them.
    RangeFlopsTable other;
    QCOMPARE(other.load(path), QString());
    QCOMPARE(other.table()->rowCount(), 2);
    QCOMPARE(other.table()->item(1, RangeFlopsTable::RangeColumn)->text(), QStringLiteral("fwd"));
    QCOMPARE(other.table()->item(1, RangeFlopsTable::FlopsColumn)->text(), QStringLiteral("2e+11"));
    QCOMPARE(other.table()->item(1, RangeFlopsTable::BytesColumn)->text(), QStringLiteral("1e+09"));
    // A file that is not one: refused, the table kept, the status says why and names the file.
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("[1, 2]");
    f.close();
    QVERIFY(other.load(bad).startsWith(bad));
    QCOMPARE(other.table()->rowCount(), 2);
    QVERIFY(other.status()->text().contains(QStringLiteral("not a JSON object")));
}

void TestMfuDialog::placeholdersAreWhole_data()
{
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<bool>("namedGpu");
    for (const QSize screen : { QSize(1366, 768), QSize(1920, 1080) })
        for (const bool named : { true, false })
            QTest::addRow("%dx%d, %s", screen.width(), screen.height(), named ? "GPU named" : "no GPU name")
                << screen << named;
}

void TestMfuDialog::placeholdersAreWhole()
{
    QFETCH(QSize, screen);
    QFETCH(bool, namedGpu);
    MfuDialog dialog;
    dialog.setProfile(namedGpu ? h100() : test::ProfileBuilder().build());
    // The dialog at its size on a screen of that size (less a task bar and the title bar): it fits.
    const QSize size = dialog.sizeHint();
    QVERIFY2(size.width() <= screen.width() && size.height() <= screen.height() - 80,
        qPrintable(QStringLiteral("%1x%2").arg(size.width()).arg(size.height())));
    dialog.resize(size);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    int fields = 0;
    for (QLineEdit* edit : dialog.findChildren<QLineEdit*>()) {
        if (edit->placeholderText().isEmpty() || !edit->isVisible())
            continue;
        ++fields;
        // The text area of a QLineEdit is its width less the frame and margins: a few pixels a side.
        const int needed = edit->fontMetrics().horizontalAdvance(edit->placeholderText());
        QVERIFY2(edit->width() - 12 >= needed,
            qPrintable(QStringLiteral("\"%1\": %2 px wide for %3 px of text")
                           .arg(edit->placeholderText())
                           .arg(edit->width())
                           .arg(needed)));
    }
    QCOMPARE(fields, 12); // --flops, 5 of the calculator, GPU, peak, bandwidth, bytes, GPUs, marker: all shown
}

QTEST_MAIN(TestMfuDialog)
#include "tst_mfudialog.moc"

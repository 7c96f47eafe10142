// SPDX-License-Identifier: GPL-3.0-or-later
#include "rangeflopstable.h"

#include "widgets/common/filedialogs.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <cmath>

namespace nsw {

namespace {

QString numberText(double v)
{
    return v > 0 ? QString::number(v, 'g', QLocale::FloatingPointShortest) : QString(); // 2e+11 as typed
}

} // namespace

RangeFlopsTable::RangeFlopsTable(QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, ColumnCount, this))
    , m_status(new QLabel(this))
{
    m_table->setObjectName(QStringLiteral("mfu_range_flops"));
    m_table->setHorizontalHeaderLabels(
        { tr("NVTX range (name, or re:regex)"), tr("FLOPs per instance"), tr("Bytes per instance") });
    m_table->horizontalHeaderItem(BytesColumn)->setToolTip(tr("Optional: for the range's point on the roofline."));
    m_table->horizontalHeader()->setSectionResizeMode(RangeColumn, QHeaderView::Stretch);
    for (int c : { FlopsColumn, BytesColumn })
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    // A few rows in sight: the dialog fits 1366x768 with the other fields.
    m_table->setMinimumHeight(
        m_table->horizontalHeader()->sizeHint().height() + 3 * m_table->verticalHeader()->defaultSectionSize() + 4);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* add = new QPushButton(tr("Add"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* load = new QPushButton(tr("Load…"), this);
    auto* save = new QPushButton(tr("Save…"), this);
    load->setToolTip(
        tr("A JSON file {\"range\": FLOPs, \"re:regex\": {\"flops\": F, \"bytes\": B}}, as `mfu --ranges` reads"));
    save->setToolTip(tr("The rows as the JSON file `nsys-workbench mfu --ranges FILE` reads"));
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 0, 0, 5, 1);
    layout->addWidget(add, 0, 1);
    layout->addWidget(remove, 1, 1);
    layout->addWidget(load, 2, 1);
    layout->addWidget(save, 3, 1);
    layout->addWidget(m_status, 5, 0, 1, 2);
    layout->setRowStretch(4, 1);
    m_status->hide();

    connect(add, &QPushButton::clicked, this, [this]() {
        addRow();
        m_table->setCurrentCell(m_table->rowCount() - 1, RangeColumn);
        m_table->editItem(m_table->currentItem());
    });
    connect(remove, &QPushButton::clicked, this, [this]() {
        if (m_table->currentRow() >= 0)
            m_table->removeRow(m_table->currentRow());
        Q_EMIT changed();
    });
    connect(load, &QPushButton::clicked, this, [this]() {
        const QString file = askOpenFileName(this, tr("FLOPs per NVTX Range"), tr("JSON files (*.json)"));
        if (!file.isEmpty())
            this->load(file);
    });
    connect(save, &QPushButton::clicked, this, [this]() {
        const QString file = askSaveFileName(
            this, tr("Save FLOPs per NVTX Range"), QStringLiteral("flops.json"), tr("JSON files (*.json)"));
        if (!file.isEmpty())
            this->save(file);
    });
    connect(m_table, &QTableWidget::itemChanged, this, &RangeFlopsTable::changed);
}

void RangeFlopsTable::addRow(const RangeFlops& range)
{
    const QSignalBlocker quiet(m_table);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, RangeColumn, new QTableWidgetItem(range.pattern));
    for (const auto& [column, value] :
        { std::pair { FlopsColumn, range.flops }, std::pair { BytesColumn, range.bytes } }) {
        auto* item = new QTableWidgetItem(numberText(value));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, column, item);
    }
}

std::vector<RangeFlops> RangeFlopsTable::ranges(QString* error) const
{
    error->clear();
    std::vector<RangeFlops> out;
    const auto text = [this](int row, int column) {
        const QTableWidgetItem* item = m_table->item(row, column);
        return item ? item->text().trimmed() : QString();
    };
    for (int row = 0; row < m_table->rowCount(); ++row) {
        RangeFlops r { text(row, RangeColumn) };
        const QString flops = text(row, FlopsColumn), bytes = text(row, BytesColumn);
        if (r.pattern.isEmpty() && flops.isEmpty() && bytes.isEmpty())
            continue;
        bool flopsOk = false, bytesOk = true;
        r.flops = flops.toDouble(&flopsOk);
        r.bytes = bytes.isEmpty() ? 0.0 : bytes.toDouble(&bytesOk);
        QString problem = rangeFlopsProblem(r);
        if (!flopsOk)
            problem = tr("FLOPs must be a number > 0");
        else if (!bytesOk)
            problem = tr("bytes must be a number >= 0");
        if (!problem.isEmpty()) {
            *error = tr("FLOPs per NVTX range, row %1 (%2): %3.").arg(row + 1).arg(r.pattern, problem);
            return {};
        }
        out.push_back(r);
    }
    return out;
}

void RangeFlopsTable::setRanges(const std::vector<RangeFlops>& ranges)
{
    m_table->setRowCount(0);
    for (const RangeFlops& r : ranges)
        addRow(r);
    Q_EMIT changed();
}

QString RangeFlopsTable::load(const QString& path)
{
    const Result<std::vector<RangeFlops>> loaded = loadRangeFlops(path);
    if (!loaded) {
        showStatus(loaded.errorMessage(), true);
        return loaded.errorMessage();
    }
    setRanges(*loaded);
    showStatus(tr("Loaded %n range(s) from %1.", nullptr, int(loaded->size())).arg(path), false);
    return {};
}

QString RangeFlopsTable::save(const QString& path)
{
    QString error;
    const std::vector<RangeFlops> rows = ranges(&error);
    if (error.isEmpty())
        if (const Status saved = saveRangeFlops(path, rows); !saved)
            error = saved.errorMessage();
    if (!error.isEmpty())
        showStatus(error, true);
    else
        showStatus(tr("Saved %n range(s) to %1 (for `mfu --ranges`).", nullptr, int(rows.size())).arg(path), false);
    return error;
}

void RangeFlopsTable::showStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020") : QString());
    m_status->show();
}

} // namespace nsw

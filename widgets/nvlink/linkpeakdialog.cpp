// SPDX-License-Identifier: GPL-3.0-or-later
#include "linkpeakdialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace nsw {

LinkPeakDialog::LinkPeakDialog(const LinkPeakTable& table, QWidget* parent)
    : QDialog(parent)
    , m_table(new QTableWidget(0, 3, this))
{
    setWindowTitle(tr("NVLink bandwidth per GPU model"));
    m_table->setHorizontalHeaderLabels({ tr("GPU name contains"), tr("Links"), tr("GB/s per link and direction") });
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    auto* add = new QPushButton(tr("Add"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* defaults = new QPushButton(tr("Built-in values"), this);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* row = new QHBoxLayout;
    row->addWidget(add);
    row->addWidget(remove);
    row->addWidget(defaults);
    row->addStretch(1);
    row->addWidget(buttons);
    auto* layout = new QVBoxLayout(this);
    auto* note = new QLabel(tr("The first row whose text occurs in the GPU's name (or its chip, e.g. GH100) gives "
                               "the link count and bandwidth used for \"% of peak\" and to convert nsys GPU metrics "
                               "(percent of peak) to GB/s."),
        this);
    note->setWordWrap(true);
    layout->addWidget(note);
    layout->addWidget(m_table, 1);
    layout->addLayout(row);
    fill(table);
    resize(560, 460);
    connect(add, &QPushButton::clicked, this, [this]() {
        m_table->insertRow(m_table->rowCount());
        m_table->editItem(m_table->item(m_table->rowCount() - 1, 0));
    });
    connect(remove, &QPushButton::clicked, this, [this]() {
        if (m_table->currentRow() >= 0)
            m_table->removeRow(m_table->currentRow());
    });
    connect(defaults, &QPushButton::clicked, this, [this]() { fill(LinkPeakTable::defaults()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void LinkPeakDialog::fill(const LinkPeakTable& table)
{
    m_table->setRowCount(0);
    for (const LinkPeakEntry& e : table.entries()) {
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        m_table->setItem(r, 0, new QTableWidgetItem(e.pattern));
        m_table->setItem(r, 1, new QTableWidgetItem(QString::number(e.links)));
        m_table->setItem(r, 2, new QTableWidgetItem(QString::number(e.gbpsPerLink)));
    }
}

LinkPeakTable LinkPeakDialog::table() const
{
    std::vector<LinkPeakEntry> entries;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        auto text = [&](int c) { return m_table->item(r, c) ? m_table->item(r, c)->text().trimmed() : QString(); };
        LinkPeakEntry e;
        e.pattern = text(0);
        e.links = text(1).toInt();
        e.gbpsPerLink = text(2).toDouble();
        if (!e.pattern.isEmpty() && e.links > 0 && e.gbpsPerLink > 0)
            entries.push_back(e);
    }
    LinkPeakTable t;
    t.setEntries(std::move(entries));
    return t;
}

} // namespace nsw

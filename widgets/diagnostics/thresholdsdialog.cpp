// SPDX-License-Identifier: GPL-3.0-or-later
#include "thresholdsdialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace nsw {

ThresholdsDialog::ThresholdsDialog(const Thresholds& thresholds, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Finding Thresholds"));
    auto* form = new QFormLayout;
    for (const ThresholdSpec& spec : thresholdSpecs()) {
        auto* box = new QDoubleSpinBox(this);
        box->setRange(0, 1e12);
        box->setDecimals(3);
        box->setValue(thresholds.value(spec.name));
        box->setSuffix(QLatin1Char(' ') + spec.unit);
        const QString tip = tr("%1 Default %2 %3.").arg(spec.description).arg(spec.defaultValue).arg(spec.unit);
        box->setToolTip(tip);
        auto* label = new QLabel(spec.name, this);
        label->setToolTip(tip);
        form->addRow(label, box);
        m_boxes.emplace(spec.name, box);
    }
    auto* fields = new QWidget(this);
    fields->setLayout(form);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    auto* buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, [this]() {
        for (const ThresholdSpec& spec : thresholdSpecs())
            m_boxes.at(spec.name)->setValue(spec.defaultValue);
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Hover a name for what it decides. The CLI takes the same as "
                                    "<tt>--threshold name=value</tt>."),
        this));
    layout->addWidget(scroll, 1);
    layout->addWidget(buttons);
    resize(520, 480);
}

Thresholds ThresholdsDialog::thresholds() const
{
    Thresholds t;
    for (const auto& [name, box] : m_boxes) {
        const ThresholdSpec* spec = findThresholdSpec(name);
        if (spec && box->value() != spec->defaultValue)
            (void)t.set(name, box->value());
    }
    return t;
}

QDoubleSpinBox* ThresholdsDialog::spinBox(const QString& name) const
{
    const auto it = m_boxes.find(name);
    return it == m_boxes.end() ? nullptr : it->second;
}

} // namespace nsw

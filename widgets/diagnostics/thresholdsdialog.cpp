// SPDX-License-Identifier: GPL-3.0-or-later
#include "thresholdsdialog.h"

#include "core/util/readablename.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace nsw {

namespace {
/// The unit as the spin box shows it: "%", "ms", "µs", none for counts.
QString unitSuffix(const QString& unit)
{
    if (unit == QLatin1String("count"))
        return {};
    return QLatin1Char(' ') + (unit == QLatin1String("us") ? QStringLiteral("µs") : unit);
}
} // namespace

ThresholdsDialog::ThresholdsDialog(const Thresholds& thresholds, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Finding Thresholds"));
    auto* form = new QFormLayout;
    for (const ThresholdSpec& spec : thresholdSpecs()) {
        auto* box = new QDoubleSpinBox(this);
        box->setRange(0, 1e12);
        box->setDecimals(spec.unit == QLatin1String("count") ? 0 : 2); // counts are whole: "1000", not "1000.000"
        box->setValue(thresholds.value(spec.name));
        box->setSuffix(unitSuffix(spec.unit));
        QString description = spec.description;
        description[0] = description[0].toUpper();
        const QString tip = tr("%1. Default %2%3. On the command line: --threshold %4=VALUE.")
                                .arg(description)
                                .arg(spec.defaultValue)
                                .arg(unitSuffix(spec.unit), spec.name);
        box->setToolTip(tip);
        auto* label = new QLabel(readableName(spec.name), this);
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
    layout->addWidget(new QLabel(tr("Hover a name for what it decides and its name on the command line "
                                    "(<tt>--threshold name=value</tt>)."),
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

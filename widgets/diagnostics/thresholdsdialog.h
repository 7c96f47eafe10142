// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/thresholds.h"

#include <QDialog>
#include <map>

class QDoubleSpinBox;

namespace nsw {

/// Every finding threshold (thresholdSpecs()) with its unit, default and what it decides; OK applies them.
class ThresholdsDialog : public QDialog
{
    Q_OBJECT
public:
    ThresholdsDialog(const Thresholds& thresholds, QWidget* parent = nullptr);

    Thresholds thresholds() const;
    QDoubleSpinBox* spinBox(const QString& name) const;

private:
    std::map<QString, QDoubleSpinBox*> m_boxes;
};

} // namespace nsw

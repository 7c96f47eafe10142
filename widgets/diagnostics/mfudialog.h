// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/mfu.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;

namespace nsw {

/// What the MFU needs that the export does not hold, as the `mfu` command's options: the FLOPs of an iteration (given,
/// or from the transformer calculator), optionally FLOPs per NVTX range (a file) and bytes for a roofline, the
/// precision and the GPU's peak (the built-in table, shown with its source, or a value that overrides it). Kept by
/// the MFU tab, so that it opens again with the last values.
class MfuDialog : public QDialog
{
    Q_OBJECT
public:
    explicit MfuDialog(QWidget* parent = nullptr);

    /// The profile the request is for: its GPU is the default of the GPU field, and the peak preview uses it.
    void setProfile(ProfilePtr profile);
    /// The request for the profile; an error message (empty when valid) through @p error.
    MfuRequest request(QString* error) const;

    // For tests.
    QRadioButton* flopsChoice() const { return m_flopsChoice; }
    QRadioButton* modelChoice() const { return m_modelChoice; }
    QLineEdit* flopsEdit() const { return m_flops; }
    QLineEdit* paramsEdit() const { return m_params; }
    QLineEdit* tokensEdit() const { return m_tokens; }
    QLineEdit* layersEdit() const { return m_layers; }
    QLineEdit* hiddenEdit() const { return m_hidden; }
    QLineEdit* seqEdit() const { return m_seq; }
    QCheckBox* inferenceBox() const { return m_inference; }
    QLineEdit* markerEdit() const { return m_marker; }
    QLineEdit* rangesFileEdit() const { return m_rangesFile; }
    QLineEdit* gpuNameEdit() const { return m_gpuName; }
    QLineEdit* peakEdit() const { return m_peak; }
    QComboBox* precisionBox() const { return m_precision; }
    QLabel* preview() const { return m_preview; }

private:
    QWidget* flopsBox();
    QWidget* peakBox();
    QWidget* optionsBox();
    void updatePreview();
    void acceptIfValid();

    ProfilePtr m_profile;
    QRadioButton* m_flopsChoice;
    QRadioButton* m_modelChoice;
    QLineEdit* m_flops;
    QLineEdit* m_params;
    QLineEdit* m_tokens;
    QLineEdit* m_layers;
    QLineEdit* m_hidden;
    QLineEdit* m_seq;
    QCheckBox* m_inference;
    QComboBox* m_precision;
    QLineEdit* m_gpuName;
    QLineEdit* m_peak;
    QLineEdit* m_bandwidth;
    QLineEdit* m_bytes;
    QLineEdit* m_rangesFile;
    QLineEdit* m_gpus;
    QLineEdit* m_marker;
    QLabel* m_preview;
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/mfu.h"

#include <QDialog>
#include <map>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QRadioButton;

namespace nsw {

class RangeFlopsTable;

/// What the MFU needs that the export does not hold, as the `mfu` command's options (each field names its option):
/// the FLOPs of an iteration (given, or from the transformer calculator), optionally FLOPs per NVTX range (a table,
/// loaded from and saved to the `--ranges` file) and bytes for a roofline, the precision and the GPU's peak (the
/// built-in table, previewed with its source, or a value that overrides it). The MFU tab keeps one, so that it opens
/// again with the last values.
class MfuDialog : public QDialog
{
    Q_OBJECT
public:
    explicit MfuDialog(QWidget* parent = nullptr);

    /// The profile the request is for: its GPU is the default of the GPU field, and the peak preview uses it.
    void setProfile(ProfilePtr profile);
    /// The request for the profile; an error message (empty when valid) through @p error.
    MfuRequest request(QString* error) const;

    /// The text field of an `mfu` option ("--flops", "--params", "--peak-tflops", ...); null for no such field.
    QLineEdit* field(const QString& option) const;
    QRadioButton* flopsChoice() const { return m_flopsChoice; }
    QRadioButton* modelChoice() const { return m_modelChoice; }
    QCheckBox* inferenceBox() const { return m_inference; }
    QLabel* preview() const { return m_preview; }
    RangeFlopsTable* rangeTable() const { return m_ranges; }

private:
    struct Field
    {
        QString label;
        QLineEdit* edit;
    };
    /// Adds a row to @p form: @p labelWidget (by default @p label naming @p option), the field, @p beside it.
    QLineEdit* addField(QFormLayout* form, const QString& label, const QString& option, const QString& placeholder,
        QWidget* beside = nullptr, QWidget* labelWidget = nullptr);
    QLabel* optionLabel(const QString& text, const QString& option);
    QWidget* flopsBox();
    QWidget* rangesBox();
    QWidget* peakBox();
    QWidget* optionalBox();
    /// The number in the field of @p option: 0 when empty; an error (once) when not a number > 0 or required.
    double number(const QString& option, bool required, QString* error) const;
    void updatePreview();
    void acceptIfValid();

    ProfilePtr m_profile;
    std::map<QString, Field> m_fields; ///< by option
    QRadioButton* m_flopsChoice;
    QRadioButton* m_modelChoice;
    QCheckBox* m_inference;
    QComboBox* m_precision;
    RangeFlopsTable* m_ranges;
    QLabel* m_preview;
    bool m_triedToAccept = false; ///< the preview shows what is wrong once Compute was pressed
};

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "mfudialog.h"

#include "widgets/diagnostics/rangeflopstable.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>
#include <cmath>
#include <iterator>

namespace nsw {

namespace {
const QString kModelOptions[] = { QStringLiteral("--params"), QStringLiteral("--tokens"), QStringLiteral("--layers"),
    QStringLiteral("--hidden"), QStringLiteral("--seq") };
/// A placeholder says what the field wants: whole, at any screen size (the dialog grows for it).
void fitPlaceholder(QLineEdit* edit)
{
    const QFontMetrics metrics = edit->fontMetrics();
    edit->setMinimumWidth(metrics.horizontalAdvance(edit->placeholderText()) + 2 * metrics.averageCharWidth() + 8);
}
} // namespace

MfuDialog::MfuDialog(QWidget* parent)
    : QDialog(parent)
    , m_flopsChoice(new QRadioButton(tr("FLOPs per iteration"), this))
    , m_modelChoice(new QRadioButton(tr("Transformer calculator"), this))
    , m_inference(new QCheckBox(tr("Forward pass only (inference)"), this))
    , m_precision(new QComboBox(this))
    , m_ranges(new RangeFlopsTable(this))
    , m_preview(new QLabel(this))
{
    setWindowTitle(tr("Model FLOPs Utilization"));
    m_flopsChoice->setChecked(true);
    m_precision->addItems(precisionNames());
    m_precision->setCurrentText(QStringLiteral("bf16"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compute MFU"));
    connect(buttons, &QDialogButtonBox::accepted, this, &MfuDialog::acceptIfValid);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Two columns: stacked, the boxes and the range table are taller than a 1366x768 screen.
    auto* layout = new QGridLayout(this);
    layout->addWidget(flopsBox(), 0, 0);
    layout->addWidget(optionalBox(), 1, 0);
    layout->addWidget(rangesBox(), 0, 1);
    layout->addWidget(peakBox(), 1, 1);
    layout->addWidget(m_preview, 2, 0, 1, 2);
    layout->addWidget(buttons, 3, 0, 1, 2);
    layout->setColumnStretch(1, 1); // the range table takes the width the fields leave

    for (const auto& [option, f] : m_fields)
        connect(f.edit, &QLineEdit::textChanged, this, &MfuDialog::updatePreview);
    connect(m_inference, &QCheckBox::toggled, this, &MfuDialog::updatePreview);
    connect(m_modelChoice, &QRadioButton::toggled, this, &MfuDialog::updatePreview);
    connect(m_precision, &QComboBox::currentTextChanged, this, &MfuDialog::updatePreview);
    connect(m_ranges, &RangeFlopsTable::changed, this, &MfuDialog::updatePreview);
    updatePreview();
}

QLabel* MfuDialog::optionLabel(const QString& text, const QString& option)
{
    // The errors of the computation name the options: each field says which it is.
    return new QLabel(QStringLiteral("%1 <small style=\"color:gray\">%2</small>").arg(text, option), this);
}

QLineEdit* MfuDialog::addField(QFormLayout* form, const QString& label, const QString& option,
    const QString& placeholder, QWidget* beside, QWidget* labelWidget)
{
    auto* edit = new QLineEdit(this);
    edit->setPlaceholderText(placeholder);
    fitPlaceholder(edit);
    m_fields.emplace(option, Field { label, edit });
    QWidget* rowLabel = labelWidget ? labelWidget : optionLabel(label, option);
    if (!beside) {
        form->addRow(rowLabel, edit);
        return edit;
    }
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(beside);
    form->addRow(rowLabel, row);
    return edit;
}

QWidget* MfuDialog::flopsBox()
{
    auto* box = new QGroupBox(tr("The model's FLOPs (the export does not hold them)"), this);
    auto* form = new QFormLayout(box);
    QLineEdit* flops = addField(form, m_flopsChoice->text(), QStringLiteral("--flops"),
        tr("e.g. 3.2e15: one iteration, all the GPUs of the export together"), nullptr, m_flopsChoice);
    form->addRow(m_modelChoice);
    const QString attention = tr("optional, for the attention term");
    const QString labels[]
        = { tr("Parameters"), tr("Tokens per iteration"), tr("Layers"), tr("Hidden size"), tr("Sequence length") };
    const QString placeholders[]
        = { tr("e.g. 7e9, embeddings included"), tr("on the GPUs of the export"), attention, attention, attention };
    for (std::size_t i = 0; i < std::size(kModelOptions); ++i)
        addField(form, labels[i], kModelOptions[i], placeholders[i]);
    form->addRow(QString(), m_inference);
    const auto enableModel = [this, flops](bool model) {
        flops->setEnabled(!model);
        m_inference->setEnabled(model);
        for (const QString& option : kModelOptions)
            field(option)->setEnabled(model);
    };
    connect(m_modelChoice, &QRadioButton::toggled, this, enableModel);
    enableModel(false);
    return box;
}

QWidget* MfuDialog::rangesBox()
{
    auto* box = new QGroupBox(tr("FLOPs per NVTX range (optional)"), this);
    auto* layout = new QVBoxLayout(box);
    auto* hint = optionLabel(tr("A range by its name, or re: and a regular expression; the FLOPs (and bytes, for "
                                "the roofline) of one instance. Its MFU is over the GPU time of its kernels. Load "
                                "and save the file of"),
        QStringLiteral("--ranges FILE"));
    hint->setWordWrap(true);
    layout->addWidget(hint);
    layout->addWidget(m_ranges, 1);
    return box;
}

QWidget* MfuDialog::peakBox()
{
    auto* peak = new QGroupBox(tr("The GPU's peak"), this);
    auto* peakForm = new QFormLayout(peak);
    peakForm->addRow(optionLabel(tr("Precision"), QStringLiteral("--precision")), m_precision);
    addField(peakForm, tr("GPU"), QStringLiteral("--gpu-name"), {});
    addField(peakForm, tr("Peak TFLOP/s per GPU"), QStringLiteral("--peak-tflops"), tr("empty: the built-in table's"));
    addField(
        peakForm, tr("Memory TB/s per GPU"), QStringLiteral("--peak-bandwidth"), tr("empty: the built-in table's"));
    return peak;
}

QWidget* MfuDialog::optionalBox()
{
    auto* optional = new QGroupBox(tr("Optional"), this);
    auto* optionalForm = new QFormLayout(optional);
    addField(optionalForm, tr("Bytes per iteration"), QStringLiteral("--bytes"),
        tr("to and from GPU memory, for the roofline"));
    addField(
        optionalForm, tr("GPUs the FLOPs run on"), QStringLiteral("--gpus"), tr("empty: the GPUs that run kernels"));
    addField(
        optionalForm, tr("Iteration NVTX range"), QStringLiteral("--marker"), tr("automatic, as the Iterations pane"));
    return optional;
}

QLineEdit* MfuDialog::field(const QString& option) const
{
    const auto it = m_fields.find(option);
    return it == m_fields.end() ? nullptr : it->second.edit;
}

void MfuDialog::setProfile(ProfilePtr profile)
{
    m_profile = std::move(profile);
    const QString gpu = m_profile ? exportGpuName(*m_profile) : QString();
    QLineEdit* gpuField = field(QStringLiteral("--gpu-name"));
    gpuField->setPlaceholderText(
        gpu.isEmpty() ? tr("the export does not name one GPU: e.g. H100 SXM") : tr("%1 (the export's)").arg(gpu));
    fitPlaceholder(gpuField);
    updatePreview();
}

double MfuDialog::number(const QString& option, bool required, QString* error) const
{
    const Field& f = m_fields.at(option);
    const QString text = f.edit->text().trimmed();
    bool ok = true;
    const double v = text.isEmpty() ? 0.0 : text.toDouble(&ok);
    if ((!ok || v < 0 || !std::isfinite(v) || (required && !(v > 0))) && error->isEmpty())
        *error = tr("%1 must be a number > 0.").arg(f.label);
    return ok && v > 0 && std::isfinite(v) ? v : 0.0;
}

MfuRequest MfuDialog::request(QString* error) const
{
    MfuRequest r;
    r.profile = m_profile;
    error->clear();
    QString rangesError;
    r.ranges = m_ranges->ranges(&rangesError);
    if (m_modelChoice->isChecked()) {
        TransformerModel m;
        m.parameters = number(QStringLiteral("--params"), true, error);
        m.tokens = number(QStringLiteral("--tokens"), true, error);
        m.layers = int(number(QStringLiteral("--layers"), false, error));
        m.hidden = int(number(QStringLiteral("--hidden"), false, error));
        m.sequence = int(number(QStringLiteral("--seq"), false, error));
        m.training = !m_inference->isChecked();
        r.model = m;
    } else {
        r.flopsPerIteration = number(QStringLiteral("--flops"), r.ranges.empty() && rangesError.isEmpty(), error);
    }
    r.bytesPerIteration = number(QStringLiteral("--bytes"), false, error);
    r.peakTflops = number(QStringLiteral("--peak-tflops"), false, error);
    r.peakBandwidthTBs = number(QStringLiteral("--peak-bandwidth"), false, error);
    r.gpus = int(number(QStringLiteral("--gpus"), false, error));
    r.precision = precisionFromName(m_precision->currentText()).value_or(Precision::Bf16);
    r.gpuName = field(QStringLiteral("--gpu-name"))->text().trimmed();
    r.iterationMarker = field(QStringLiteral("--marker"))->text().trimmed();
    if (error->isEmpty())
        *error = rangesError;
    return r;
}

void MfuDialog::updatePreview()
{
    // What the computation will rest on, before it runs: the FLOPs formula and the peak with its source.
    QString error;
    const MfuRequest r = request(&error);
    QStringList lines;
    if (r.model) {
        const Result<FlopEstimate> estimate = transformerFlops(*r.model);
        if (estimate)
            lines << tr("FLOPs per iteration: %1.").arg(estimate->formula);
    }
    const Result<MfuPeak> peak = resolveMfuPeak(r);
    lines << (peak ? peak->assumption : tr("Peak: %1.").arg(peak.errorMessage()));
    if (!error.isEmpty() && m_triedToAccept) // not before anything was typed
        lines << error;
    m_preview->setText(lines.join(QLatin1Char('\n')));
}

void MfuDialog::acceptIfValid()
{
    m_triedToAccept = true;
    QString error;
    const MfuRequest r = request(&error);
    if (error.isEmpty() && resolveMfuPeak(r))
        accept();
    else
        updatePreview(); // shows the error, or the peak's
}

} // namespace nsw

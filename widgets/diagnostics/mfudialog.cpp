// SPDX-License-Identifier: GPL-3.0-or-later
#include "mfudialog.h"

#include "widgets/common/filedialogs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>
#include <cmath>

namespace nsw {

namespace {

/// The number in @p edit; 0 when empty; -1 when not a number > 0.
double valueOf(const QLineEdit* edit)
{
    const QString text = edit->text().trimmed();
    if (text.isEmpty())
        return 0;
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && v > 0 && std::isfinite(v) ? v : -1;
}

QLineEdit* numberEdit(const QString& placeholder, QWidget* parent)
{
    auto* edit = new QLineEdit(parent);
    edit->setPlaceholderText(placeholder);
    return edit;
}

/// A field's label with the `mfu` option it stands for (the errors of the computation name the options).
QLabel* optionLabel(const QString& text, const QString& option, QWidget* parent)
{
    return new QLabel(QStringLiteral("%1 <small style=\"color:gray\">%2</small>").arg(text, option), parent);
}

} // namespace

MfuDialog::MfuDialog(QWidget* parent)
    : QDialog(parent)
    , m_flopsChoice(new QRadioButton(tr("FLOPs per iteration"), this))
    , m_modelChoice(new QRadioButton(tr("Transformer calculator"), this))
    , m_flops(numberEdit(tr("e.g. 3.2e15: all the GPUs of the export together"), this))
    , m_params(numberEdit(tr("e.g. 7e9, embeddings included"), this))
    , m_tokens(numberEdit(tr("tokens one iteration processes on these GPUs"), this))
    , m_layers(numberEdit(tr("optional, for the attention term"), this))
    , m_hidden(numberEdit(tr("optional, for the attention term"), this))
    , m_seq(numberEdit(tr("optional, for the attention term"), this))
    , m_inference(new QCheckBox(tr("Forward pass only (inference)"), this))
    , m_precision(new QComboBox(this))
    , m_gpuName(new QLineEdit(this))
    , m_peak(numberEdit(tr("empty: the built-in table's peak"), this))
    , m_bandwidth(numberEdit(tr("empty: the built-in table's"), this))
    , m_bytes(numberEdit(tr("optional, for the roofline"), this))
    , m_rangesFile(new QLineEdit(this))
    , m_gpus(numberEdit(tr("empty: the GPUs that run kernels"), this))
    , m_marker(new QLineEdit(this))
    , m_preview(new QLabel(this))
{
    setWindowTitle(tr("Model FLOPs Utilization"));
    m_flopsChoice->setChecked(true);
    m_precision->addItems(precisionNames());
    m_precision->setCurrentText(QStringLiteral("bf16"));
    m_rangesFile->setPlaceholderText(tr("optional: a JSON file {\"range name\": FLOPs, ...}"));
    m_marker->setPlaceholderText(tr("automatic, as the Iterations pane"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_preview->setMinimumWidth(fontMetrics().averageCharWidth() * 70);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compute MFU"));
    connect(buttons, &QDialogButtonBox::accepted, this, &MfuDialog::acceptIfValid);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(flopsBox());
    layout->addWidget(peakBox());
    layout->addWidget(optionsBox());
    layout->addWidget(m_preview);
    layout->addWidget(buttons);

    for (QLineEdit* edit : findChildren<QLineEdit*>())
        connect(edit, &QLineEdit::textChanged, this, &MfuDialog::updatePreview);
    connect(m_inference, &QCheckBox::toggled, this, &MfuDialog::updatePreview);
    connect(m_modelChoice, &QRadioButton::toggled, this, &MfuDialog::updatePreview);
    connect(m_precision, &QComboBox::currentTextChanged, this, &MfuDialog::updatePreview);
    updatePreview();
}

QWidget* MfuDialog::flopsBox()
{
    auto* box = new QGroupBox(tr("The model's FLOPs (the export does not hold them)"), this);
    auto* form = new QFormLayout(box);
    form->addRow(m_flopsChoice, m_flops);
    form->addRow(m_modelChoice);
    form->addRow(optionLabel(tr("Parameters"), QStringLiteral("--params"), box), m_params);
    form->addRow(optionLabel(tr("Tokens per iteration"), QStringLiteral("--tokens"), box), m_tokens);
    form->addRow(optionLabel(tr("Layers"), QStringLiteral("--layers"), box), m_layers);
    form->addRow(optionLabel(tr("Hidden size"), QStringLiteral("--hidden"), box), m_hidden);
    form->addRow(optionLabel(tr("Sequence length"), QStringLiteral("--seq"), box), m_seq);
    form->addRow(QString(), m_inference);
    auto* browse = new QPushButton(tr("Browse…"), box);
    connect(browse, &QPushButton::clicked, this, [this]() {
        const QString file = askOpenFileName(this, tr("FLOPs per NVTX Range"), tr("JSON files (*.json)"));
        if (!file.isEmpty())
            m_rangesFile->setText(file);
    });
    auto* ranges = new QHBoxLayout;
    ranges->addWidget(m_rangesFile, 1);
    ranges->addWidget(browse);
    form->addRow(optionLabel(tr("FLOPs per NVTX range"), QStringLiteral("--ranges"), box), ranges);
    const auto enableModel = [this](bool model) {
        m_flops->setEnabled(!model);
        for (QWidget* w :
            std::initializer_list<QWidget*> { m_params, m_tokens, m_layers, m_hidden, m_seq, m_inference })
            w->setEnabled(model);
    };
    connect(m_modelChoice, &QRadioButton::toggled, this, enableModel);
    enableModel(false);
    return box;
}

QWidget* MfuDialog::peakBox()
{
    auto* box = new QGroupBox(tr("The GPU's peak"), this);
    auto* form = new QFormLayout(box);
    form->addRow(optionLabel(tr("Precision"), QStringLiteral("--precision"), box), m_precision);
    form->addRow(optionLabel(tr("GPU"), QStringLiteral("--gpu-name"), box), m_gpuName);
    form->addRow(optionLabel(tr("Peak TFLOP/s per GPU"), QStringLiteral("--peak-tflops"), box), m_peak);
    form->addRow(optionLabel(tr("Memory TB/s per GPU"), QStringLiteral("--peak-bandwidth"), box), m_bandwidth);
    return box;
}

QWidget* MfuDialog::optionsBox()
{
    auto* box = new QGroupBox(tr("Optional"), this);
    auto* form = new QFormLayout(box);
    form->addRow(optionLabel(tr("Bytes per iteration"), QStringLiteral("--bytes"), box), m_bytes);
    form->addRow(optionLabel(tr("GPUs the FLOPs run on"), QStringLiteral("--gpus"), box), m_gpus);
    form->addRow(optionLabel(tr("Iteration NVTX range"), QStringLiteral("--marker"), box), m_marker);
    return box;
}

void MfuDialog::setProfile(ProfilePtr profile)
{
    m_profile = std::move(profile);
    const QString gpu = m_profile ? exportGpuName(*m_profile) : QString();
    m_gpuName->setPlaceholderText(
        gpu.isEmpty() ? tr("the export does not name one GPU: e.g. H100 SXM") : tr("%1 (the export's)").arg(gpu));
    updatePreview();
}

MfuRequest MfuDialog::request(QString* error) const
{
    MfuRequest r;
    r.profile = m_profile;
    error->clear();
    const auto number = [&](const QLineEdit* edit, const QString& what, bool required) {
        const double v = valueOf(edit);
        if ((v < 0 || (required && v == 0)) && error->isEmpty())
            *error = tr("%1 must be a number > 0.").arg(what);
        return std::max(v, 0.0);
    };
    const bool rangesGiven = !m_rangesFile->text().trimmed().isEmpty();
    if (m_modelChoice->isChecked()) {
        TransformerModel m;
        m.parameters = number(m_params, tr("Parameters"), true);
        m.tokens = number(m_tokens, tr("Tokens per iteration"), true);
        m.layers = int(number(m_layers, tr("Layers"), false));
        m.hidden = int(number(m_hidden, tr("Hidden size"), false));
        m.sequence = int(number(m_seq, tr("Sequence length"), false));
        m.training = !m_inference->isChecked();
        r.model = m;
    } else {
        r.flopsPerIteration = number(m_flops, tr("FLOPs per iteration"), !rangesGiven);
    }
    r.bytesPerIteration = number(m_bytes, tr("Bytes per iteration"), false);
    r.peakTflops = number(m_peak, tr("Peak TFLOP/s"), false);
    r.peakBandwidthTBs = number(m_bandwidth, tr("Memory TB/s"), false);
    r.gpus = int(number(m_gpus, tr("GPUs"), false));
    r.precision = precisionFromName(m_precision->currentText()).value_or(Precision::Bf16);
    r.gpuName = m_gpuName->text().trimmed();
    r.iterationMarker = m_marker->text().trimmed();
    if (rangesGiven && error->isEmpty()) {
        Result<std::vector<RangeFlops>> ranges = loadRangeFlops(m_rangesFile->text().trimmed());
        if (ranges)
            r.ranges = std::move(*ranges);
        else
            *error = ranges.errorMessage();
    }
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
    if (!error.isEmpty())
        lines << error;
    m_preview->setText(lines.join(QLatin1Char('\n')));
}

void MfuDialog::acceptIfValid()
{
    QString error;
    const MfuRequest r = request(&error);
    if (error.isEmpty() && resolveMfuPeak(r))
        accept();
    else
        updatePreview(); // shows the error, or the peak's
}

} // namespace nsw

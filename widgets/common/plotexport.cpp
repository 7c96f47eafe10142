// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotexport.h"

#include "widgets/common/backgroundexport.h"
#include "widgets/common/filedialogs.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QImageWriter>
#include <QMessageBox>
#include <QSaveFile>
#include <QSpinBox>
#include <cmath>
#include <qcustomplot.h>
#include <vector>

namespace nsw {

namespace {
constexpr char kScreenOnly[] = "nswScreenOnly";

/// Hides the screen-only layerables that are visible; returns them, to be shown again.
std::vector<QCPLayerable*> hideScreenOnly(QCustomPlot& plot)
{
    std::vector<QCPLayerable*> hidden;
    for (int l = 0; l < plot.layerCount(); ++l)
        for (QCPLayerable* child : plot.layer(l)->children())
            if (child->visible() && child->property(kScreenOnly).toBool()) {
                child->setVisible(false);
                hidden.push_back(child);
            }
    return hidden;
}
} // namespace

void markScreenOnly(QCPLayerable* layerable)
{
    layerable->setProperty(kScreenOnly, true);
}

QImage renderPlotImage(QCustomPlot& plot, const PngExportOptions& options)
{
    const int width = options.width > 0 ? options.width : plot.width();
    const int height = options.height > 0 ? options.height : plot.height();
    if (width <= 0 || height <= 0)
        return {};
    plot.deselectAll();
    // QCustomPlot has no getter for its background brush; themed plots keep theirs in a property.
    const QVariant themed = plot.property("nswBackground");
    const QBrush background = themed.isValid() ? themed.value<QBrush>() : QBrush(Qt::white);
    if (options.transparent)
        plot.setBackground(Qt::NoBrush);
    // Laid out for the picture first: that relayout redraws the screen-only items, hidden after it.
    auto* layout = dynamic_cast<ExportLayout*>(&plot);
    if (layout)
        layout->setExporting(true);
    const std::vector<QCPLayerable*> hidden = hideScreenOnly(plot);
    QImage image = plot.toPixmap(width, height, options.scale).toImage();
    // As QCustomPlot's savePng writes the resolution: dots per meter from the DPI.
    const int dotsPerMeter = int(std::lround(options.dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    for (QCPLayerable* layerable : hidden)
        layerable->setVisible(true);
    if (layout)
        layout->setExporting(false);
    if (!hidden.empty())
        plot.replot(QCustomPlot::rpQueuedReplot);
    if (options.transparent)
        plot.setBackground(background);
    return image;
}

QString writePng(const QImage& image, QIODevice& out)
{
    QImageWriter writer(&out, "png");
    return writer.write(image) ? QString() : writer.errorString();
}

QString savePlotPng(QCustomPlot& plot, const QString& fileName, const PngExportOptions& options)
{
    const QImage image = renderPlotImage(plot, options);
    if (image.isNull())
        return QStringLiteral("%1: the chart has no size to render").arg(fileName);
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(fileName, file.errorString());
    const QString error = writePng(image, file);
    if (!error.isEmpty() || !file.commit())
        return QStringLiteral("%1: could not write the PNG file: %2")
            .arg(fileName, error.isEmpty() ? file.errorString() : error);
    return {};
}

bool exportPlotInteractively(QCustomPlot& plot, const QString& suggestedName, QWidget* parent)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Export chart as PNG"));
    auto* form = new QFormLayout(&dialog);
    auto* width = new QSpinBox(&dialog);
    width->setRange(100, 10000);
    width->setValue(std::max(plot.width(), 800));
    width->setSuffix(QObject::tr(" px"));
    auto* height = new QSpinBox(&dialog);
    height->setRange(100, 10000);
    height->setValue(std::max(plot.height(), 500));
    height->setSuffix(QObject::tr(" px"));
    auto* dpi = new QSpinBox(&dialog);
    dpi->setRange(48, 1200);
    dpi->setValue(150);
    auto* transparent = new QCheckBox(QObject::tr("Transparent background"), &dialog);
    form->addRow(QObject::tr("Width:"), width);
    form->addRow(QObject::tr("Height:"), height);
    form->addRow(QObject::tr("Resolution (DPI):"), dpi);
    form->addRow(transparent);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    const QString file = askSaveFileName(
        parent, QObject::tr("Export chart"), suggestedName + QStringLiteral(".png"), QObject::tr("PNG images (*.png)"));
    if (file.isEmpty())
        return false;
    PngExportOptions options;
    // Size is given in pixels of the final image at the chosen DPI: render at 96-DPI size, scaled up.
    options.scale = dpi->value() / 96.0;
    options.width = int(width->value() / options.scale);
    options.height = int(height->value() / options.scale);
    options.dpi = dpi->value();
    options.transparent = transparent->isChecked();
    // Drawn now (the chart is a widget), encoded and written in the background.
    const QImage image = renderPlotImage(plot, options);
    if (image.isNull()) {
        QMessageBox::warning(
            parent, QObject::tr("Export chart"), QStringLiteral("%1: the chart has no size to render").arg(file));
        return false;
    }
    BackgroundExports::of(parent)->writeFile(
        QObject::tr("PNG export"), file, [image](QIODevice& out, const JobContext&) { return writePng(image, out); });
    return true;
}

} // namespace nsw

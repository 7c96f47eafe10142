// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsyssettingsdialog.h"

#include "core/nsys/nsystool.h"
#include "core/util/cachestore.h"
#include "core/util/coresettings.h"
#include "widgets/common/filedialogs.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QDirIterator>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace nsw {

namespace {
const QString kPathKey = QStringLiteral("nsys/path");
const QString kTimeoutKey = QStringLiteral("nsys/timeout");
const QString kCacheKey = QStringLiteral("nsys/cacheMaxMB");
} // namespace

namespace {
qint64 folderBytes(const QString& folder)
{
    qint64 bytes = 0;
    for (QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
        it.next();
        bytes += it.fileInfo().size();
    }
    return bytes;
}
} // namespace

NsysSettingsDialog::NsysSettingsDialog(QWidget* parent)
    : QDialog(parent)
    , m_path(new QLineEdit(this))
    , m_found(new QLabel(this))
    , m_timeout(new QSpinBox(this))
    , m_cacheLimit(new QSpinBox(this))
    , m_cacheSize(new QLabel(this))
    , m_detect(this)
{
    setWindowTitle(tr("Nsight Systems Settings"));
    auto* form = new QFormLayout;
    auto* pathRow = new QHBoxLayout;
    m_path->setObjectName(QStringLiteral("nsysPath"));
    m_path->setPlaceholderText(tr("found automatically (PATH, /opt/nvidia/nsight-systems, /usr/local/cuda)"));
    const CoreSettings saved = savedCoreSettings();
    m_path->setText(saved.nsysPath);
    pathRow->addWidget(m_path, 1);
    auto* browse = new QToolButton(this);
    browse->setText(tr("Browse…"));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString file = askOpenFileName(this, tr("The nsys executable"), tr("nsys (nsys);;All files (*)"));
        if (!file.isEmpty())
            m_path->setText(file);
    });
    pathRow->addWidget(browse);
    form->addRow(tr("&nsys:"), pathRow);
    m_found->setObjectName(QStringLiteral("found"));
    m_found->setWordWrap(true);
    m_found->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(QString(), m_found);
    connect(m_path, &QLineEdit::editingFinished, this, [this] {
        CoreSettings settings = coreSettings();
        settings.nsysPath = m_path->text().trimmed();
        saveCoreSettings(settings);
        detect();
    });

    m_timeout->setRange(10, 24 * 3600);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setValue(nsysTimeoutSeconds());
    form->addRow(tr("Export &time limit:"), m_timeout);
    m_cacheLimit->setRange(1, 4096);
    m_cacheLimit->setSuffix(tr(" GiB"));
    m_cacheLimit->setValue(int(std::max<qint64>(1, CacheSettings::fromEnvironment().limitBytes >> 30)));
    m_cacheLimit->setToolTip(tr("Exports of reports and loaded profiles together; the least recently used go first"));
    form->addRow(tr("&Cache limit:"), m_cacheLimit);
    auto* cacheRow = new QHBoxLayout;
    cacheRow->addWidget(m_cacheSize, 1);
    auto* clear = new QPushButton(tr("&Empty the cache"), this);
    connect(clear, &QPushButton::clicked, this, [this] {
        clearCaches(CacheSettings::fromEnvironment());
        updateCacheSize();
    });
    cacheRow->addWidget(clear);
    form->addRow(tr("Cache:"), cacheRow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        save();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(buttons);
    resize(640, sizeHint().height());
    updateCacheSize();
    detect();
}

QString NsysSettingsDialog::detectedText() const
{
    return m_found->text();
}

void NsysSettingsDialog::detect()
{
    m_found->setText(tr("Looking for nsys…"));
    m_detect.run<NsysTool>([](const JobContext&) { return findNsys(); },
        [this](Result<NsysTool> tool) {
            if (!tool) {
                m_found->setText(tool.errorMessage());
            } else {
                QString text = tr("Uses nsys %1 (%2).").arg(tool->version, tool->path);
                if (!tool->importerPath.isEmpty())
                    text += tr(" Its QdstrmImporter: %1.").arg(tool->importerPath);
                m_found->setText(text);
            }
            Q_EMIT detected();
        });
}

void NsysSettingsDialog::save()
{
    saveCoreSettings({ m_path->text().trimmed(), m_timeout->value(), qint64(m_cacheLimit->value()) << 30 });
}

CoreSettings savedCoreSettings()
{
    const QSettings settings;
    return { settings.value(kPathKey).toString(), settings.value(kTimeoutKey).toInt(),
        std::max<qint64>(0, settings.value(kCacheKey).toLongLong()) << 20 };
}

void saveCoreSettings(const CoreSettings& core)
{
    QSettings settings;
    if (core.nsysPath.isEmpty())
        settings.remove(kPathKey);
    else
        settings.setValue(kPathKey, core.nsysPath);
    settings.setValue(kTimeoutKey, core.nsysTimeoutSeconds);
    settings.setValue(kCacheKey, core.cacheLimitBytes >> 20);
    setCoreSettings(core);
}

void NsysSettingsDialog::updateCacheSize()
{
    const QString root = CacheSettings::fromEnvironment().root;
    m_cacheSize->setText(
        tr("%1 in %2").arg(QLocale::system().formattedDataSize(folderBytes(root)), QDir::toNativeSeparators(root)));
}

} // namespace nsw

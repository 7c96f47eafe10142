// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsyssettingsdialog.h"

#include "core/nsys/exportcache.h"
#include "core/nsys/nsystool.h"
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
    m_path->setText(configuredNsysPath());
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
        setConfiguredNsysPath(m_path->text().trimmed());
        detect();
    });

    m_timeout->setRange(10, 24 * 3600);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setValue(nsysTimeoutSeconds());
    form->addRow(tr("Export &time limit:"), m_timeout);
    m_cacheLimit->setRange(1, 4096);
    m_cacheLimit->setSuffix(tr(" GiB"));
    m_cacheLimit->setValue(int(std::max<qint64>(1, ExportCache::limitBytes() >> 30)));
    form->addRow(tr("Export &cache limit:"), m_cacheLimit);
    auto* cacheRow = new QHBoxLayout;
    cacheRow->addWidget(m_cacheSize, 1);
    auto* clear = new QPushButton(tr("&Empty the cache"), this);
    connect(clear, &QPushButton::clicked, this, [this] {
        ExportCache::evict(0, QString());
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
    m_detect.run<Result<NsysTool>>([](const JobContext&) { return findNsys(); },
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
    setConfiguredNsysPath(m_path->text().trimmed());
    QSettings settings;
    settings.setValue(QStringLiteral("nsys/timeout"), m_timeout->value());
    settings.setValue(QStringLiteral("nsys/cacheMaxMB"), qint64(m_cacheLimit->value()) << 10);
}

void NsysSettingsDialog::updateCacheSize()
{
    m_cacheSize->setText(tr("%1 in %2")
                             .arg(QLocale::system().formattedDataSize(folderBytes(ExportCache::folder())),
                                 QDir::toNativeSeparators(ExportCache::folder())));
}

} // namespace nsw

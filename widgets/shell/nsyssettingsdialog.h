// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QSpinBox;

namespace nsw {

struct CoreSettings;

/// The Preferences core takes (QSettings "nsys/path", "nsys/timeout", "nsys/cacheMaxMB"): the window hands them to
/// core at start-up (setCoreSettings()); the CLI never reads them.
CoreSettings savedCoreSettings();
/// Stores @p settings in the preferences and hands them to core.
void saveCoreSettings(const CoreSettings& settings);

/// Profile → Nsight Systems Settings…: which nsys opens reports and profiles (found automatically unless set here),
/// how long an export may take, and the caches (exports of reports and loaded profiles: their folder, one size
/// limit, and a button that empties them).
class NsysSettingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit NsysSettingsDialog(QWidget* parent = nullptr);
    /// What the dialog found for the current path ("nsys 2022.4.2.1 (/usr/bin/nsys)" or why none), once detected.
    QString detectedText() const;

Q_SIGNALS:
    void detected();

private:
    void detect();
    void save();
    void updateCacheSize();

    QLineEdit* m_path;
    QLabel* m_found;
    QSpinBox* m_timeout;
    QSpinBox* m_cacheLimit;
    QLabel* m_cacheSize;
    JobSlot m_detect;
};

} // namespace nsw

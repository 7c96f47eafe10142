// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"

#include <QObject>
#include <QString>
#include <map>

namespace nsw {

class MainWindow;
class ProfileSession;

/// Opens a rank's export from the Ranks pane focused on one iteration: an open profile of that file becomes current
/// and is focused at once; otherwise the file is opened and focused when its load ends. Every pane then follows the
/// focus as it does for the Iterations pane.
class RankOpener : public QObject
{
    Q_OBJECT
public:
    explicit RankOpener(MainWindow* window);

    void open(const QString& exportPath, const FocusRange& range);

private:
    ProfileSession* sessionOf(const QString& absolutePath) const;
    void onLoadEnded(const QString& path, bool ok);

    MainWindow* m_window;
    std::map<QString, FocusRange> m_pending; ///< by absolute path: focused when its load ends
};

} // namespace nsw

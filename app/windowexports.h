// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QMainWindow;

namespace nsw {

class BackgroundExports;
class LoadProgressStrip;

/// The window's BackgroundExports (found by BackgroundExports::of() from any pane): each export a row in @p strip
/// while it runs, then a line in the status bar when written, or a message naming the file and the error.
BackgroundExports* attachBackgroundExports(QMainWindow* window, LoadProgressStrip* strip);

} // namespace nsw

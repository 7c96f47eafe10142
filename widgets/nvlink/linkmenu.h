// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMenu>
#include <QVariant>
#include <vector>

namespace nsw {

/// The NVLink pane's Links menu: "All links", "No link" and a checkable entry per link of the recording shown.
/// Links the user turned off stay off while the same recording is shown.
class LinkMenu : public QMenu
{
    Q_OBJECT
public:
    explicit LinkMenu(QWidget* parent = nullptr);
    /// The links of the recording @p source names (any value).
    void setLinks(const QVariant& source, const std::vector<int>& links);
    /// No recording (@p source is not one): an empty menu.
    void clearLinks(const QVariant& source);
    std::vector<int> checkedLinks() const;

private:
    /// The links turned off, when @p source is the one shown; then shows @p source.
    std::vector<int> switchTo(const QVariant& source);

    QVariant m_source;
};

} // namespace nsw

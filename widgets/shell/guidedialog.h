// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QList>
#include <QString>
#include <QUrl>

class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace nsw {

/// The documents Help → Guide shows, shipped in the binary by the app: the user guide and the command-line
/// reference (docs/user-guide.md and docs/cli.md of this build).
struct GuideDocument
{
    QString title; ///< "User guide"
    QString resource; ///< ":/nsw/docs/user-guide.md"
};
QList<GuideDocument> guideDocuments();

/// A Markdown heading: its level (1 for "#"), its text as the document shows it (without `*` and backticks) and
/// the anchor GitHub gives it ("kernels-and-statistics"), which the documents' links use.
struct MarkdownHeading
{
    int level = 0;
    QString text;
    QString anchor;
};
/// The headings of @p markdown in order, leaving out lines inside ``` fences.
QList<MarkdownHeading> markdownHeadings(const QString& markdown);

/// Help → Guide: the contents (each document and its headings) beside the text. A click on a heading, or a link
/// to one ("#focus", "cli.md#compare"), shows it at the top of the text; links to the web open in the browser.
class GuideDialog : public QDialog
{
    Q_OBJECT
public:
    explicit GuideDialog(QWidget* parent = nullptr);
    QTreeWidget* contents() const { return m_contents; }
    QTextBrowser* text() const { return m_text; }
    /// Shows document @p doc (an index into guideDocuments()) scrolled to the heading with @p anchor (the top when
    /// empty or unknown). False when the document is not part of this build.
    bool showSection(int doc, const QString& anchor = {});

private:
    void openLink(const QUrl& url);
    QList<GuideDocument> m_docs;
    QList<QList<MarkdownHeading>> m_headings;
    QTreeWidget* m_contents;
    QTextBrowser* m_text;
    int m_shown = -1;
};

} // namespace nsw

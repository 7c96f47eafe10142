// SPDX-License-Identifier: GPL-3.0-or-later
#include "guidedialog.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

namespace nsw {

namespace {
QString readText(const QString& resource)
{
    QFile f(resource);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// GitHub's anchor for a heading: lower case, punctuation other than '-' and '_' dropped, spaces as '-'.
QString githubAnchor(const QString& text)
{
    QString anchor;
    for (const QChar c : text.toLower()) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
            anchor += c;
        else if (c == QLatin1Char(' '))
            anchor += QLatin1Char('-');
    }
    return anchor;
}

enum Role
{
    DocRole = Qt::UserRole,
    AnchorRole,
};
} // namespace

QList<GuideDocument> guideDocuments()
{
    return { { QObject::tr("User guide"), QStringLiteral(":/nsw/docs/user-guide.md") },
        { QObject::tr("Command-line reference"), QStringLiteral(":/nsw/docs/cli.md") } };
}

QList<MarkdownHeading> markdownHeadings(const QString& markdown)
{
    static const QRegularExpression heading(QStringLiteral("^(#{1,6})\\s+(.*?)\\s*#*\\s*$"));
    QList<MarkdownHeading> headings;
    bool inFence = false;
    for (const QString& line : markdown.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("```"))) {
            inFence = !inFence;
            continue;
        }
        const QRegularExpressionMatch m = heading.match(line);
        if (inFence || !m.hasMatch())
            continue;
        QString text = m.captured(2);
        text.remove(QLatin1Char('`')).remove(QLatin1Char('*'));
        headings.append({ int(m.capturedLength(1)), text, githubAnchor(text) });
    }
    return headings;
}

GuideDialog::GuideDialog(QWidget* parent)
    : QDialog(parent)
    , m_docs(guideDocuments())
    , m_contents(new QTreeWidget(this))
    , m_text(new QTextBrowser(this))
{
    setWindowTitle(tr("Guide"));
    m_contents->setHeaderHidden(true);
    m_contents->setRootIsDecorated(false);
    m_text->setOpenLinks(false);
    for (int d = 0; d < m_docs.size(); ++d) {
        m_headings.append(markdownHeadings(readText(m_docs[d].resource)));
        auto* docItem = new QTreeWidgetItem(m_contents, { m_docs[d].title });
        docItem->setData(0, DocRole, d);
        QFont bold = docItem->font(0);
        bold.setBold(true);
        docItem->setFont(0, bold);
        for (const MarkdownHeading& h : m_headings.last())
            if (h.level == 2) {
                auto* item = new QTreeWidgetItem(docItem, { h.text });
                item->setData(0, DocRole, d);
                item->setData(0, AnchorRole, h.anchor);
            }
    }
    m_contents->expandAll();
    connect(m_contents, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        showSection(item->data(0, DocRole).toInt(), item->data(0, AnchorRole).toString());
    });
    connect(m_text, &QTextBrowser::anchorClicked, this, &GuideDialog::openLink);

    auto* split = new QSplitter(this);
    split->addWidget(m_contents);
    split->addWidget(m_text);
    split->setStretchFactor(1, 1);
    split->setSizes({ 220, 760 });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);
    layout->addWidget(buttons);
    resize(980, 680);
    if (!showSection(0))
        m_text->setPlainText(tr("The guide is not part of this build: see docs/user-guide.md in the sources."));
}

bool GuideDialog::showSection(int doc, const QString& anchor)
{
    if (doc < 0 || doc >= m_docs.size())
        return false;
    if (doc != m_shown) {
        const QString markdown = readText(m_docs[doc].resource);
        if (markdown.isEmpty())
            return false;
        m_text->setMarkdown(markdown);
        m_shown = doc;
    }
    // The document's blocks know their heading level and text, not their anchor: the heading is the block with its
    // text, counting the headings of the same text before it (a text may head sections of two levels).
    const QList<MarkdownHeading>& headings = m_headings[doc];
    qsizetype wanted = -1, sameBefore = 0;
    for (qsizetype i = 0; i < headings.size() && wanted < 0; ++i)
        if (headings[i].anchor == anchor)
            wanted = i;
    for (qsizetype i = 0; i < wanted; ++i)
        sameBefore += headings[i].text == headings[wanted].text;
    int top = 0;
    for (QTextBlock b = m_text->document()->begin(); wanted >= 0 && b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() == 0 || b.text() != headings[wanted].text)
            continue;
        if (sameBefore-- == 0) {
            top = int(m_text->document()->documentLayout()->blockBoundingRect(b).top());
            break;
        }
    }
    m_text->verticalScrollBar()->setValue(top);
    for (QTreeWidgetItemIterator it(m_contents); *it; ++it)
        if ((*it)->data(0, DocRole).toInt() == doc && (*it)->data(0, AnchorRole).toString() == anchor)
            m_contents->setCurrentItem(*it);
    return true;
}

void GuideDialog::openLink(const QUrl& url)
{
    if (!url.isRelative()) {
        QDesktopServices::openUrl(url);
        return;
    }
    const QString file = url.path();
    for (int d = 0; d < m_docs.size(); ++d)
        if (file.isEmpty() ? d == m_shown : m_docs[d].resource.endsWith(QLatin1Char('/') + file)) {
            showSection(d, url.fragment());
            return;
        }
}

} // namespace nsw

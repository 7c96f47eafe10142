// SPDX-License-Identifier: GPL-3.0-or-later
#include "ruletablemodel.h"

#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

#include <QMimeData>

namespace nsw {

RuleTableModel::RuleTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void RuleTableModel::setRules(const RuleList& rules)
{
    if (rules.rules.size() == m_rules.rules.size()) {
        // Same shape: keep the views' selection and scroll position.
        m_rules = rules;
        if (!m_rules.rules.empty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rules = rules;
    m_diagnostics.clear();
    m_instances.clear();
    m_time.clear();
    endResetModel();
}

void RuleTableModel::setDiagnostics(std::vector<RuleDiagnostic> diagnostics, std::vector<std::int64_t> instances,
    std::vector<TimeNs> time, TimeMode mode)
{
    const bool fits = diagnostics.size() == m_rules.rules.size();
    m_diagnostics = fits ? std::move(diagnostics) : std::vector<RuleDiagnostic>();
    m_instances = fits && instances.size() == m_rules.rules.size() ? std::move(instances) : std::vector<std::int64_t>();
    m_time = fits && time.size() == m_rules.rules.size() ? std::move(time) : std::vector<TimeNs>();
    m_mode = mode;
    if (!m_rules.rules.empty())
        Q_EMIT dataChanged(index(0, NamesColumn), index(rowCount() - 1, StatusColumn));
    Q_EMIT headerDataChanged(Qt::Horizontal, TimeColumn, TimeColumn);
}

int RuleTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rules.rules.size());
}

int RuleTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RuleTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const std::size_t row = std::size_t(index.row());
    const CategoryRule& rule = m_rules.rules[row];
    const RuleDiagnostic* d = row < m_diagnostics.size() ? &m_diagnostics[row] : nullptr;
    if (role == StatusRole)
        return d ? int(d->status) : -1;
    if (role == ColorRole)
        return categoryColor(rule.category);
    if (role == IdentityRole)
        return index.row();
    if (index.column() == CaseColumn) {
        if (role == Qt::CheckStateRole)
            return rule.caseInsensitive ? Qt::Checked : Qt::Unchecked;
        if (role == SortRole || role == RawValueRole)
            return rule.caseInsensitive;
        if (role == Qt::ToolTipRole)
            return tr("Case-insensitive (written as a \"(?i)\" prefix, which gputrc2graph honours too)");
        return {};
    }
    if (role == Qt::TextAlignmentRole && index.column() >= NamesColumn && index.column() <= TimeColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    const bool display = role == Qt::DisplayRole || role == Qt::EditRole;
    const bool raw = role == SortRole || role == RawValueRole;
    if (!display && !raw && role != Qt::ToolTipRole)
        return {};
    switch (Column(index.column())) {
    case IndexColumn:
        return index.row() + 1;
    case PatternColumn:
        if (role == Qt::ToolTipRole)
            return d && d->status == RuleDiagnostic::Invalid ? d->error : rule.key();
        return rule.pattern;
    case CategoryColumn:
        return rule.category;
    case MatchColumn:
        if (role == Qt::ToolTipRole)
            return tr("The name the regex is searched in: demangled (as gputrc2graph) or nsys's short name");
        return rule.name == RuleNameKind::Short ? QStringLiteral("short") : QStringLiteral("demangled");
    case NoteColumn:
        return rule.note;
    case NamesColumn:
        if (!d)
            return {};
        if (role == Qt::ToolTipRole)
            return tr("Classifies %1 distinct names of this profile (its regex finds %2); on the representative set "
                      "%3 (finds %4)")
                .arg(d->namesWon)
                .arg(d->namesMatched)
                .arg(d->representativeWon)
                .arg(d->representativeMatched);
        return d->namesWon;
    case InstancesColumn:
        if (row >= m_instances.size() || role == Qt::ToolTipRole)
            return {};
        return raw ? QVariant(qint64(m_instances[row])) : QVariant(withThousandsSeparators(qint64(m_instances[row])));
    case TimeColumn:
        if (row >= m_time.size() || role == Qt::ToolTipRole)
            return {};
        return raw ? QVariant(qint64(m_time[row])) : QVariant(formatDuration(m_time[row]));
    case StatusColumn:
        return d ? ruleStatusText(*d) : QString();
    case CaseColumn:
    case ColumnCount:
        break;
    }
    return {};
}

QVariant RuleTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case IndexColumn:
        return tr("#");
    case PatternColumn:
        return tr("Pattern");
    case CategoryColumn:
        return tr("Category");
    case CaseColumn:
        return tr("Aa");
    case MatchColumn:
        return tr("Match");
    case NoteColumn:
        return tr("Note");
    case NamesColumn:
        return tr("Names");
    case InstancesColumn:
        return tr("Instances");
    case TimeColumn:
        return role == RawValueRole ? tr("Time (ns)") : tr("Time [%1]").arg(timeModeName(m_mode));
    case StatusColumn:
        return tr("Status");
    case ColumnCount:
        break;
    }
    return {};
}

Qt::ItemFlags RuleTableModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::ItemIsDropEnabled;
    Qt::ItemFlags f = Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsDragEnabled;
    switch (Column(index.column())) {
    case PatternColumn:
    case CategoryColumn:
    case MatchColumn:
    case NoteColumn:
        f |= Qt::ItemIsEditable;
        break;
    case CaseColumn:
        f |= Qt::ItemIsUserCheckable;
        break;
    default:
        break;
    }
    return f;
}

bool RuleTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    CategoryRule rule = m_rules.rules[std::size_t(index.row())];
    if (index.column() == CaseColumn && role == Qt::CheckStateRole)
        rule.caseInsensitive = value.toInt() == Qt::Checked;
    else if (role != Qt::EditRole)
        return false;
    else if (index.column() == PatternColumn)
        rule.pattern = value.toString();
    else if (index.column() == CategoryColumn)
        rule.category = value.toString().trimmed();
    else if (index.column() == MatchColumn)
        rule.name = value.toString() == QLatin1String("short") ? RuleNameKind::Short : RuleNameKind::Demangled;
    else if (index.column() == NoteColumn)
        rule.note = value.toString();
    else
        return false;
    if (rule == m_rules.rules[std::size_t(index.row())])
        return false;
    Q_EMIT editRequested(index.row(), rule);
    return true;
}

Qt::DropActions RuleTableModel::supportedDropActions() const
{
    return Qt::MoveAction;
}

QStringList RuleTableModel::mimeTypes() const
{
    return { QString::fromLatin1(kMimeType) };
}

QMimeData* RuleTableModel::mimeData(const QModelIndexList& indexes) const
{
    if (indexes.isEmpty())
        return nullptr;
    auto* data = new QMimeData;
    data->setData(QString::fromLatin1(kMimeType), QByteArray::number(indexes.first().row()));
    return data;
}

bool RuleTableModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int, const QModelIndex&) const
{
    return action == Qt::MoveAction && data && data->hasFormat(QString::fromLatin1(kMimeType));
}

bool RuleTableModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int, const QModelIndex& parent)
{
    if (!canDropMimeData(data, action, row, 0, parent))
        return false;
    bool ok = false;
    const int from = data->data(QString::fromLatin1(kMimeType)).toInt(&ok);
    if (!ok || from < 0 || from >= rowCount())
        return false;
    // Dropped between rows (row) or onto a row (parent): the rule goes before that row.
    int before = row >= 0 ? row : (parent.isValid() ? parent.row() : rowCount());
    int to = before > from ? before - 1 : before;
    to = std::clamp(to, 0, rowCount() - 1);
    if (to != from)
        Q_EMIT moveRequested(from, to);
    // The move happens through the editor (undo stack); the view must not remove anything itself.
    return false;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "rulelibrary.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

// Static libraries need an explicit reference to their embedded resources (outside any namespace).
static void initShippedRules()
{
    Q_INIT_RESOURCE(nsw_rules);
}

namespace nsw {

namespace {
void ensureResources()
{
    static const bool done = [] {
        initShippedRules();
        return true;
    }();
    (void)done;
}
} // namespace

void RuleLibrary::add(RuleSource source)
{
    m_sources.push_back(std::move(source));
}

int RuleLibrary::sourceOf(const QString& engine) const
{
    for (int i = int(m_sources.size()) - 1; i >= 0; --i)
        if (m_sources[std::size_t(i)].document.engine(engine))
            return i;
    return -1;
}

QStringList RuleLibrary::engines() const
{
    QStringList names;
    for (const RuleSource& s : m_sources)
        for (const RuleEngine& e : s.document.engines)
            if (!names.contains(e.name))
                names.append(e.name);
    return names;
}

QStringList RuleLibrary::models(const QString& engine) const
{
    const int s = sourceOf(engine);
    return s < 0 ? QStringList() : m_sources[std::size_t(s)].document.engine(engine)->modelNames();
}

const RuleList* RuleLibrary::find(const QString& engine, const QString& model) const
{
    const int s = sourceOf(engine);
    return s < 0 ? nullptr : m_sources[std::size_t(s)].document.engine(engine)->model(model);
}

const RuleList* RuleLibrary::find(const QString& engine, const QString& model, QString* error) const
{
    QStringList files;
    for (const RuleSource& s : m_sources)
        files.append(s.path);
    const QString where = files.isEmpty() ? QStringLiteral("rules") : files.join(QStringLiteral(", "));
    const int s = sourceOf(engine);
    if (s < 0) {
        if (error)
            *error = QStringLiteral("%1: no engine \"%2\" (engines: %3)")
                         .arg(where, engine, engines().join(QStringLiteral(", ")));
        return nullptr;
    }
    const RuleList* list = find(engine, model);
    if (!list && error)
        *error = QStringLiteral("%1: engine \"%2\" has no model \"%3\" (models: %4)")
                     .arg(m_sources[std::size_t(s)].path, engine, model, models(engine).join(QStringLiteral(", ")));
    return list;
}

QStringList RuleLibrary::shippedSetNames()
{
    return { QStringLiteral("vllm"), QStringLiteral("sglang"), QStringLiteral("trtllm"), QStringLiteral("pytorch"),
        QStringLiteral("tensorcores") };
}

RuleSource RuleLibrary::shippedSet(const QString& name)
{
    ensureResources();
    RuleSource source;
    source.kind = RuleSource::Shipped;
    source.path = QStringLiteral(":/rules/%1.json").arg(name);
    RuleError error;
    if (auto doc = RuleDocument::load(source.path, &error))
        source.document = std::move(*doc);
    else
        qWarning("%s", qPrintable(error.message()));
    return source;
}

RuleLibrary RuleLibrary::loadDefault(QStringList* errors)
{
    RuleLibrary library;
    for (const QString& name : shippedSetNames())
        library.add(shippedSet(name));
    const QDir dir(userRulesDir());
    const QStringList files = dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    for (const QString& f : files) {
        RuleError error;
        auto doc = RuleDocument::load(dir.filePath(f), &error);
        if (!doc) {
            if (errors)
                errors->append(error.message());
            continue;
        }
        library.add(RuleSource { RuleSource::User, dir.filePath(f), std::move(*doc) });
    }
    return library;
}

QString RuleLibrary::userRulesDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/rules");
}

const QStringList& representativeKernelNames()
{
    static const QStringList names = [] {
        ensureResources();
        QStringList list;
        QFile file(QStringLiteral(":/rules/representative-kernels.txt"));
        if (!file.open(QIODevice::ReadOnly))
            return list;
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
        for (const QString& line : lines)
            if (!line.trimmed().isEmpty() && !line.startsWith(QLatin1Char('#')))
                list.append(line);
        return list;
    }();
    return names;
}

} // namespace nsw

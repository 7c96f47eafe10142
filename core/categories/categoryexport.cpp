// SPDX-License-Identifier: GPL-3.0-or-later
#include "categoryexport.h"

#include "core/util/csv.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

#include <QFileInfo>
#include <algorithm>
#include <map>

namespace nsw {

namespace {
QString barName(const ProfileCategories& p, const CategoryBar& bar)
{
    return bar.device < 0 ? p.profile : p.profile + QLatin1Char(' ') + bar.label;
}

QString share(const CategoryBar& bar, TimeNs value)
{
    return QString::number(bar.share(value), 'f', 2);
}

QString seconds(TimeNs ns)
{
    return pythonFloatRepr(double(ns) / 1e9);
}

QString hexColor(std::uint32_t argb)
{
    return QStringLiteral("#%1").arg(argb & 0xFFFFFFu, 6, 16, QLatin1Char('0'));
}

struct Line
{
    QString bar;
    QString category;
    std::int64_t instances;
    TimeNs time;
    QString share;
};

/// Rows every tabular export shares: categories with time or instances, then the CPU segment.
std::vector<Line> lines(const std::vector<ProfileCategories>& profiles)
{
    std::vector<Line> out;
    for (const ProfileCategories& p : profiles)
        for (const CategoryBar& bar : p.breakdown.bars) {
            for (qsizetype c = 0; c < p.breakdown.categories.size(); ++c) {
                const std::size_t i = std::size_t(c);
                if (bar.time[i] == 0 && bar.instances[i] == 0)
                    continue;
                out.push_back(Line { barName(p, bar), p.breakdown.categories[c], bar.instances[i], bar.time[i],
                    share(bar, bar.time[i]) });
            }
            if (bar.hasCpu)
                out.push_back(Line { barName(p, bar), cpuCategory(), 0, bar.cpuNs, share(bar, bar.cpuNs) });
        }
    return out;
}
} // namespace

QString modelEngineLabel(const QString& engine, const QString& model, const QString& path, int index)
{
    QString file = QFileInfo(path).fileName();
    for (const QString& suffix : { QStringLiteral(".sqlite"), QStringLiteral(".nsys-rep") })
        if (file.endsWith(suffix))
            file.chop(suffix.size());
    return QStringLiteral("%1_%2_%3_%4").arg(model, engine, file).arg(index);
}

QString categoriesCsv(const std::vector<ProfileCategories>& profiles)
{
    QString out = QStringLiteral("Profile,Category,Instances,Time (ns),Share (%)\n");
    for (const Line& l : lines(profiles))
        out += csvLine({ l.bar, l.category, QString::number(l.instances), QString::number(l.time), l.share });
    return out;
}

QString categoriesTable(const std::vector<ProfileCategories>& profiles)
{
    QList<QStringList> rows;
    rows.append({ QStringLiteral("Profile"), QStringLiteral("Category"), QStringLiteral("Instances"),
        QStringLiteral("Time"), QStringLiteral("Share (%)") });
    for (const Line& l : lines(profiles))
        rows.append({ l.bar, l.category, l.category == cpuCategory() ? QString() : withThousandsSeparators(l.instances),
            formatDuration(l.time), l.share });
    std::vector<qsizetype> width(5, 0);
    for (const QStringList& r : rows)
        for (qsizetype c = 0; c < r.size(); ++c)
            width[std::size_t(c)] = std::max(width[std::size_t(c)], r[c].size());
    QString out;
    if (!profiles.empty())
        out += QStringLiteral("Time mode: %1\n\n").arg(timeModeDescription(profiles.front().breakdown.mode));
    for (const QStringList& r : rows) {
        QStringList cells;
        for (qsizetype c = 0; c < r.size(); ++c)
            cells.append(
                c >= 2 ? r[c].rightJustified(width[std::size_t(c)]) : r[c].leftJustified(width[std::size_t(c)]));
        out += cells.join(QStringLiteral("  ")).trimmed() + QLatin1Char('\n');
    }
    for (const ProfileCategories& p : profiles)
        for (const QString& w : p.breakdown.warnings)
            out += QStringLiteral("warning: %1: %2\n").arg(p.profile, w);
    return out;
}

nlohmann::ordered_json categoriesJson(const std::vector<ProfileCategories>& profiles, const QString& engine,
    const QString& model, const QStringList& ruleFiles)
{
    using Json = nlohmann::ordered_json;
    Json root;
    const TimeMode mode = profiles.empty() ? TimeMode::Global : profiles.front().breakdown.mode;
    root["engine"] = engine.toStdString();
    root["model"] = model.toStdString();
    Json files = Json::array();
    for (const QString& f : ruleFiles)
        files.push_back(f.toStdString());
    root["rules"] = files;
    root["timeMode"] = timeModeName(mode).toStdString();
    root["timeModeDescription"] = timeModeDescription(mode).toStdString();
    Json bars = Json::array();
    for (const ProfileCategories& p : profiles)
        for (const CategoryBar& bar : p.breakdown.bars) {
            Json b;
            b["profile"] = p.profile.toStdString();
            b["path"] = p.path.toStdString();
            if (bar.device >= 0)
                b["gpu"] = p.timeline->devices()[std::size_t(bar.device)];
            b["gpuTimeNs"] = bar.gpuTime;
            if (bar.hasCpu) {
                b["wallTimeNs"] = bar.wallNs;
                b["cpuTimeNs"] = bar.cpuNs;
            }
            if (!bar.warning.isEmpty())
                b["warning"] = bar.warning.toStdString();
            Json cats = Json::array();
            for (qsizetype c = 0; c < p.breakdown.categories.size(); ++c) {
                const std::size_t i = std::size_t(c);
                if (bar.time[i] == 0 && bar.instances[i] == 0)
                    continue;
                Json j;
                j["category"] = p.breakdown.categories[c].toStdString();
                j["instances"] = bar.instances[i];
                j["timeNs"] = bar.time[i];
                j["share"] = bar.share(bar.time[i]);
                j["color"] = hexColor(categoryColor(p.breakdown.categories[c])).toStdString();
                cats.push_back(j);
            }
            if (bar.hasCpu) {
                Json j;
                j["category"] = cpuCategory().toStdString();
                j["timeNs"] = bar.cpuNs;
                j["share"] = bar.share(bar.cpuNs);
                j["color"] = hexColor(categoryColor(cpuCategory())).toStdString();
                cats.push_back(j);
            }
            b["categories"] = cats;
            bars.push_back(b);
        }
    root["bars"] = bars;
    return root;
}

QString mappingCsv(const std::vector<ProfileCategories>& profiles, const QString& engine, const QString& model)
{
    struct Row
    {
        int profile;
        QString modelEngine;
        QString category;
        std::int64_t instances = 0;
        QString name;
        TimeNs elapsed = 0;
        TimeNs total = 0;
        int rule = -1;
        bool cpu = false;
    };
    std::vector<Row> rows;
    for (std::size_t pi = 0; pi < profiles.size(); ++pi) {
        const ProfileCategories& p = profiles[pi];
        const CategoryBreakdown& b = p.breakdown;
        const QString label = modelEngineLabel(engine, model, p.path, int(pi));
        const GroupTimes& sum = p.timeline->nameTimes(TimeMode::Sum);
        // Names that differ only by their short name are one row, as in the script (grouped by Name).
        std::map<std::pair<QString, int>, std::size_t> byName;
        const auto& names = p.timeline->names();
        for (std::size_t n = 0; n < names.size(); ++n) {
            if (b.nameCount[n] == 0)
                continue;
            const auto key = std::make_pair(names[n].demangled, b.ruleOfName[n]);
            auto it = byName.find(key);
            if (it == byName.end()) {
                it = byName.emplace(key, rows.size()).first;
                rows.push_back(Row { int(pi), label, b.categories[b.categoryOfName[n]], 0, names[n].demangled, 0, 0,
                    b.ruleOfName[n], false });
            }
            Row& row = rows[it->second];
            row.instances += b.nameCount[n];
            row.elapsed += b.nameTime[n];
            for (std::size_t d = 0; d < sum.deviceCount; ++d)
                row.total += sum.at(d, n);
        }
        for (const CategoryBar& bar : b.bars)
            if (bar.hasCpu && bar.device < 0)
                rows.push_back(Row { int(pi), label, QStringLiteral("CPU(non-GPU)"), 1, QStringLiteral("CPU(non-GPU)"),
                    bar.cpuNs, 0, -1, true });
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.category != b.category)
            return a.category < b.category;
        if (a.profile != b.profile)
            return a.profile < b.profile;
        if (a.elapsed != b.elapsed)
            return a.elapsed > b.elapsed;
        return a.name < b.name;
    });
    const QString mode = profiles.empty() ? QString() : timeModeName(profiles.front().breakdown.mode);
    QString out
        = QStringLiteral("Model_Engine,Category,Instances,Name,Elapsed Time (sec),Total Time (sec),Time Mode,Rule\n");
    for (const Row& r : rows)
        out += csvLine({ r.modelEngine, r.category, QString::number(r.instances), r.name, seconds(r.elapsed),
            r.cpu ? QString() : seconds(r.total), mode, r.rule >= 0 ? QString::number(r.rule + 1) : QString() });
    return out;
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracefolder.h"

#include "core/nsys/reportexport.h"
#include "core/nvlink/nvf1reader.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <set>

namespace nsw {

TraceFolder scanTraceFolder(const QString& folder)
{
    TraceFolder t;
    t.folder = QFileInfo(folder).absoluteFilePath();
    const QDir dir(folder);
    t.exports = profilesInFolder(folder);
    const QFileInfoList bins = dir.entryInfoList({ QStringLiteral("*.bin") }, QDir::Files, QDir::Name);
    for (const QFileInfo& f : bins) {
        const QString problem = checkNvf1Header(f.absoluteFilePath());
        if (!problem.isEmpty()) {
            t.skipped.append(problem);
            continue;
        }
        t.recordings.push_back({ f.absoluteFilePath(), suggestGpuFromFileName(f.fileName()) });
    }
    return t;
}

int suggestGpuFromFileName(const QString& fileName)
{
    const QString base = QFileInfo(fileName).completeBaseName();
    static const QRegularExpression named(
        QStringLiteral("(?:^|[^a-z])(?:gpu|cuda|device|dev|rank)[_\\-. ]?(\\d{1,3})(?!\\d)"),
        QRegularExpression::CaseInsensitiveOption);
    QRegularExpressionMatch m = named.match(base);
    if (m.hasMatch())
        return m.captured(1).toInt();
    static const QRegularExpression trailing(QStringLiteral("[_\\-.](\\d{1,2})$"));
    m = trailing.match(base);
    if (m.hasMatch())
        return m.captured(1).toInt();
    return -1;
}

QString defaultExport(const TraceFolder& folder)
{
    if (folder.exports.size() == 1)
        return folder.exports.first();
    QStringList profiles;
    for (const QString& e : folder.exports)
        if (QFileInfo(e).completeBaseName().endsWith(QLatin1String("_profile")))
            profiles.append(e);
    return profiles.size() == 1 ? profiles.first() : QString();
}

bool defaultRecordingChoices(const TraceFolder& folder, std::vector<RecordingChoice>& out)
{
    out.clear();
    if (folder.recordings.size() == 1) {
        const RecordingCandidate& r = folder.recordings.front();
        out.push_back({ r.path, r.suggestedGpu >= 0 ? r.suggestedGpu : 0 });
        return true;
    }
    std::set<int> seen;
    bool unambiguous = true;
    for (const RecordingCandidate& r : folder.recordings) {
        unambiguous = unambiguous && r.suggestedGpu >= 0 && seen.insert(r.suggestedGpu).second;
        out.push_back({ r.path, std::max(r.suggestedGpu, 0) });
    }
    return unambiguous;
}

std::vector<RecordingChoice> usableRecordings(const NvlinkRecorded& recorded, QStringList* warnings)
{
    std::vector<RecordingChoice> out;
    *warnings = recorded.warnings;
    for (const RecorderFile& f : recorded.files) {
        if (const QString problem = checkNvf1Header(f.path); !problem.isEmpty())
            warnings->append(QStringLiteral("no NVLink recording of GPU %1: %2").arg(f.gpu).arg(problem));
        else
            out.push_back({ f.path, f.gpu });
    }
    return out;
}

} // namespace nsw

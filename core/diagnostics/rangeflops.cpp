// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/rangeflops.h"

#include "core/util/userfile.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <cmath>

namespace nsw {

QString rangeFlopsProblem(const RangeFlops& range)
{
    if (range.pattern.trimmed().isEmpty())
        return QStringLiteral("no range name");
    if (!(range.flops > 0) || !std::isfinite(range.flops))
        return QStringLiteral("FLOPs must be a number > 0");
    if (range.bytes < 0 || !std::isfinite(range.bytes))
        return QStringLiteral("bytes must be a number >= 0");
    if (range.pattern.startsWith(QLatin1String("re:")) && !QRegularExpression(range.pattern.mid(3)).isValid())
        return QStringLiteral("not a valid regular expression");
    return {};
}

Result<std::vector<RangeFlops>> loadRangeFlops(const QString& path)
{
    using R = Result<std::vector<RangeFlops>>;
    QString reason;
    const std::optional<QByteArray> bytes = readUserFile(path, &reason);
    if (!bytes)
        return R::failure(ErrorKind::Input, QStringLiteral("%1: cannot read: %2").arg(path, reason));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return R::failure(ErrorKind::Input,
            QStringLiteral("%1: not a JSON object of range name -> FLOPs (%2)")
                .arg(path,
                    error.error != QJsonParseError::NoError ? error.errorString() : QStringLiteral("not an object")));
    std::vector<RangeFlops> out;
    const QJsonObject object = doc.object();
    for (auto it = object.begin(); it != object.end(); ++it) {
        RangeFlops range { it.key() };
        QString problem;
        if (it.value().isDouble()) {
            range.flops = it.value().toDouble();
        } else if (it.value().isObject()) {
            const QJsonObject o = it.value().toObject();
            range.flops = o.value(QStringLiteral("flops")).toDouble(-1);
            if (o.contains(QStringLiteral("bytes")) && !o.value(QStringLiteral("bytes")).isDouble())
                problem = QStringLiteral("bytes must be a number >= 0");
            range.bytes = o.value(QStringLiteral("bytes")).toDouble(0);
        } else {
            range.flops = -1;
        }
        if (problem.isEmpty())
            problem = rangeFlopsProblem(range);
        if (!problem.isEmpty())
            return R::failure(ErrorKind::Input,
                QStringLiteral("%1: \"%2\": %3 (as {\"name\": FLOPs} or {\"name\": {\"flops\": F, \"bytes\": B}})")
                    .arg(path, it.key(), problem));
        out.push_back(range);
    }
    if (out.empty())
        return R::failure(ErrorKind::Input, QStringLiteral("%1: no ranges").arg(path));
    return out;
}

Status saveRangeFlops(const QString& path, const std::vector<RangeFlops>& ranges)
{
    const auto fail = [&path](const QString& why) {
        return Status::failure(ErrorKind::Input, QStringLiteral("%1: %2").arg(path, why));
    };
    if (const QFileInfo info(path); info.exists() && !info.isFile())
        return fail(QStringLiteral("not a regular file: not written"));
    else if (info.exists() && !loadRangeFlops(path)) // a trace, a rule file: the user's other files stay as they are
        return fail(QStringLiteral("exists and is not a FLOPs-per-range file: not overwritten"));
    if (ranges.empty())
        return fail(QStringLiteral("no ranges to save"));
    QJsonObject object;
    QSet<QString> seen;
    for (const RangeFlops& r : ranges) {
        if (const QString problem = rangeFlopsProblem(r); !problem.isEmpty())
            return fail(QStringLiteral("\"%1\": %2").arg(r.pattern, problem));
        if (seen.contains(r.pattern))
            return fail(QStringLiteral("\"%1\" twice: a range has one FLOPs value").arg(r.pattern));
        seen.insert(r.pattern);
        if (r.bytes > 0)
            object.insert(
                r.pattern, QJsonObject { { QStringLiteral("flops"), r.flops }, { QStringLiteral("bytes"), r.bytes } });
        else
            object.insert(r.pattern, r.flops);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    file.write(QJsonDocument(object).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return fail(file.errorString());
    return success();
}

} // namespace nsw

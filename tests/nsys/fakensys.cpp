// SPDX-License-Identifier: GPL-3.0-or-later
#include "fakensys.h"

#include <QDir>
#include <QFile>
#include <QTextStream>

namespace nsw::test {

namespace {
/// Copies one of the scripts in tests/nsys/fake-nsys to @p path, executable.
bool installScript(const QString& name, const QString& path)
{
    if (!QFile::copy(QStringLiteral(NSW_SOURCE_DIR "/tests/nsys/fake-nsys/") + name, path))
        return false;
    QFile file(path);
    return file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
        | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
}
} // namespace

FakeNsys::FakeNsys()
{
    const QDir root(m_root.path());
    m_valid = m_root.isValid() && root.mkpath(QStringLiteral("bin")) && root.mkpath(QStringLiteral("host-linux-x64"))
        && root.mkpath(QStringLiteral("settings")) && root.mkpath(QStringLiteral("cache"))
        && installScript(QStringLiteral("nsys"), nsysPath())
        && installScript(QStringLiteral("QdstrmImporter"), importerPath());
    qputenv("NSYS_WORKBENCH_NSYS", nsysPath().toLocal8Bit());
    qputenv("NSYS_WORKBENCH_CACHE_DIR", cacheFolder().toLocal8Bit());
}

FakeNsys::~FakeNsys()
{
    qunsetenv("NSYS_WORKBENCH_NSYS");
    qunsetenv("NSYS_WORKBENCH_CACHE_DIR");
}

QString FakeNsys::nsysPath() const
{
    return m_root.filePath(QStringLiteral("bin/nsys"));
}

QString FakeNsys::importerPath() const
{
    return m_root.filePath(QStringLiteral("host-linux-x64/QdstrmImporter"));
}

QString FakeNsys::cacheFolder() const
{
    return m_root.filePath(QStringLiteral("cache"));
}

void FakeNsys::writeSetting(const QString& name, const QString& value)
{
    QFile file(m_root.filePath(QStringLiteral("settings/") + name));
    if (file.open(QIODevice::WriteOnly))
        file.write(value.toLocal8Bit());
}

void FakeNsys::setExportMode(const QString& mode)
{
    writeSetting(QStringLiteral("exportMode"), mode);
}

void FakeNsys::setExport(const QString& sqlitePath)
{
    writeSetting(QStringLiteral("export"), sqlitePath);
}

void FakeNsys::setProfileMode(const QString& mode)
{
    writeSetting(QStringLiteral("profileMode"), mode);
}

void FakeNsys::setVersion(const QString& version)
{
    writeSetting(QStringLiteral("version"), version);
}

void FakeNsys::setProfileExitCode(int code)
{
    writeSetting(QStringLiteral("profileExitCode"), QString::number(code));
}

QStringList FakeNsys::calls(const QString& subcommand) const
{
    QFile file(m_root.filePath(QStringLiteral("calls.log")));
    QStringList matching;
    if (!file.open(QIODevice::ReadOnly))
        return matching;
    for (const QString& line : QString::fromLocal8Bit(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (line.startsWith(subcommand))
            matching << line;
    return matching;
} // namespace

bool writeReportLookalike(const QString& path, const QByteArray& filler)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write("NVIDIA Tegra Profiler Report 1.\n" + filler) > 0;
}

bool writeStreamLookalike(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write("U3w[END]NVIDIA Nsight Systems Stream") > 0;
}

} // namespace nsw::test

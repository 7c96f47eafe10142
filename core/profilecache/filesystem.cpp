// SPDX-License-Identifier: GPL-3.0-or-later
#include "filesystem.h"

#include <QFile>
#include <QFileInfo>
#include <sys/statvfs.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

namespace nsw::profilecache {

namespace {
/// @p folder, or its nearest ancestor that exists.
QByteArray existingAncestor(const QString& folder)
{
    QFileInfo info(folder);
    while (!info.exists() && !info.isRoot() && info.absolutePath() != info.absoluteFilePath())
        info = QFileInfo(info.absolutePath());
    return QFile::encodeName(info.absoluteFilePath());
}
} // namespace

FolderSpace folderSpace(const QString& folder)
{
    FolderSpace space;
    struct statvfs st
    { };
    if (::statvfs(existingAncestor(folder).constData(), &st) != 0)
        return space;
    space.known = true;
    space.readOnly = (st.f_flag & ST_RDONLY) != 0;
    space.availableBytes = std::uint64_t(st.f_bavail) * std::uint64_t(st.f_frsize);
    return space;
}

QString networkFileSystemName(std::uint64_t type)
{
    struct Known
    {
        std::uint64_t magic;
        const char* name;
    };
    static constexpr Known kNetwork[] = {
        { 0x6969, "nfs" },
        { 0x517B, "smb" },
        { 0xFF534D42, "cifs" },
        { 0xFE534D42, "smb2" },
        { 0x73757245, "coda" },
        { 0x5346414F, "afs" },
        { 0x00C36400, "ceph" },
        { 0x01021997, "9p" },
        { 0x0BD00BD0, "lustre" },
        { 0x47504653, "gpfs" },
        { 0x01161970, "gfs2" },
        { 0x7461636F, "ocfs2" },
        { 0xAAD7AAEA, "panfs" },
    };
    for (const Known& k : kNetwork)
        if (k.magic == type)
            return QString::fromLatin1(k.name);
    return {};
}

QString networkFileSystemOf(const QString& folder)
{
#ifdef __linux__
    struct statfs st
    { };
    if (::statfs(existingAncestor(folder).constData(), &st) == 0)
        return networkFileSystemName(std::uint64_t(std::uint32_t(st.f_type)));
#endif
    return {};
}

} // namespace nsw::profilecache

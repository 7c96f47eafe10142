// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <cstdint>

namespace nsw::profilecache {

/// The file system a cache folder is on, as far as the cache cares.
struct FolderSpace
{
    bool known = false;
    bool readOnly = false;
    std::uint64_t availableBytes = 0;
};
/// Of @p folder, or of its nearest existing ancestor.
FolderSpace folderSpace(const QString& folder);

/// The name of the network file system (NFS, SMB/CIFS, Ceph, Lustre...) @p folder (or its nearest existing
/// ancestor) is on, or empty for a local one. Such a folder is not used: a file mapped from it may change or vanish
/// under the reader, which then faults instead of reading.
QString networkFileSystemOf(const QString& folder);
/// The name of the network file system with statfs(2) magic number @p type, or empty.
QString networkFileSystemName(std::uint64_t type);

} // namespace nsw::profilecache

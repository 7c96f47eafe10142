// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportvfs.h"

#include "directreader.h"

#include <QByteArray>
#include <QtGlobal>
#include <cstring>
#include <sqlite3.h>
#include <unistd.h>

namespace nsw::exportvfs {
namespace {

constexpr char kName[] = "nsw-export";

/// One main database file read directly, in the space SQLite gives its files (plain data: SQLite neither constructs
/// nor destroys it). The default VFS's file lives right after it and takes the locks; its pages are never read.
struct ExportFile
{
    sqlite3_file base;
    sqlite3_file* real;
    DirectReader* reader;
};
constexpr std::size_t kRealOffset = (sizeof(ExportFile) + 15) / 16 * 16;

sqlite3_vfs* s_default = nullptr;
sqlite3_vfs s_vfs;
sqlite3_io_methods s_methods;

ExportFile* exportFile(sqlite3_file* file)
{
    return reinterpret_cast<ExportFile*>(file);
}

sqlite3_file* real(sqlite3_file* file)
{
    return exportFile(file)->real;
}

int closeFile(sqlite3_file* file)
{
    delete exportFile(file)->reader;
    exportFile(file)->reader = nullptr;
    return real(file)->pMethods->xClose(real(file));
}

int readFile(sqlite3_file* file, void* out, int amount, sqlite3_int64 offset)
{
    switch (exportFile(file)->reader->read(static_cast<char*>(out), amount, offset)) {
    case DirectReader::Outcome::Whole:
        return SQLITE_OK;
    case DirectReader::Outcome::Short: // the rest zeros, as the default VFS does past the end of a file
        return SQLITE_IOERR_SHORT_READ;
    case DirectReader::Outcome::Error:
        break;
    }
    return SQLITE_IOERR_READ;
}

int refuseWrite(sqlite3_file*, const void*, int, sqlite3_int64)
{
    return SQLITE_READONLY;
}

int refuseTruncate(sqlite3_file*, sqlite3_int64)
{
    return SQLITE_READONLY;
}

int syncFile(sqlite3_file* file, int flags)
{
    return real(file)->pMethods->xSync(real(file), flags);
}

int fileSize(sqlite3_file* file, sqlite3_int64* size)
{
    *size = exportFile(file)->reader->size(); // as it was opened: the only size SQLite sees
    return SQLITE_OK;
}

int lockFile(sqlite3_file* file, int level)
{
    return real(file)->pMethods->xLock(real(file), level);
}

int unlockFile(sqlite3_file* file, int level)
{
    return real(file)->pMethods->xUnlock(real(file), level);
}

int checkReservedLock(sqlite3_file* file, int* out)
{
    return real(file)->pMethods->xCheckReservedLock(real(file), out);
}

int fileControl(sqlite3_file* file, int op, void* arg)
{
    return real(file)->pMethods->xFileControl(real(file), op, arg);
}

int sectorSize(sqlite3_file* file)
{
    return real(file)->pMethods->xSectorSize(real(file));
}

int deviceCharacteristics(sqlite3_file* file)
{
    return real(file)->pMethods->xDeviceCharacteristics(real(file));
}

int openFile(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* outFlags)
{
    const bool direct = name && (flags & SQLITE_OPEN_MAIN_DB) && (flags & SQLITE_OPEN_READONLY)
        && sqlite3_uri_boolean(name, "immutable", 0);
    if (!direct)
        return s_default->xOpen(s_default, name, file, flags, outFlags);
    std::unique_ptr<DirectReader> reader = DirectReader::open(name);
    if (!reader) // O_DIRECT refused (some file systems): read it the default way
        return s_default->xOpen(s_default, name, file, flags, outFlags);
    ExportFile* f = exportFile(file);
    *f = ExportFile { { nullptr }, reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + kRealOffset),
        nullptr };
    const int rc = s_default->xOpen(s_default, name, f->real, flags, outFlags);
    if (rc != SQLITE_OK)
        return rc; // our pMethods stays null: SQLite closes nothing
    f->reader = reader.release();
    f->base.pMethods = &s_methods;
    return SQLITE_OK;
}

const char* registerVfs()
{
    s_default = sqlite3_vfs_find(nullptr);
    if (!s_default)
        return nullptr;
    s_vfs = *s_default; // its other calls (delete, access, full path names, time) are the default VFS's own
    s_vfs.szOsFile = int(kRealOffset) + s_default->szOsFile;
    s_vfs.pNext = nullptr;
    s_vfs.zName = kName;
    s_vfs.xOpen = openFile;
    // Version 1: no shared memory (an immutable file has no WAL) and no xFetch (nothing is mapped).
    s_methods = sqlite3_io_methods { 1, closeFile, readFile, refuseWrite, refuseTruncate, syncFile, fileSize, lockFile,
        unlockFile, checkReservedLock, fileControl, sectorSize, deviceCharacteristics, nullptr, nullptr, nullptr,
        nullptr, nullptr, nullptr };
    return sqlite3_vfs_register(&s_vfs, 0) == SQLITE_OK ? kName : nullptr;
}

} // namespace

ReadMode modeFor(std::int64_t bytes)
{
    const QByteArray setting = qgetenv("NSW_SQLITE_READ");
    if (setting == "default")
        return ReadMode::Default;
    if (setting == "direct")
        return ReadMode::Direct;
    const std::int64_t memory = std::int64_t(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
    return memory > 0 && bytes > memory / 2 ? ReadMode::Direct : ReadMode::Default;
}

const char* name()
{
    static const char* const registered = registerVfs();
    return registered;
}

ReadMode modeOf(sqlite3* db)
{
    // Only files read directly carry our methods.
    sqlite3_file* file = nullptr;
    const bool ours = db && sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK && file
        && file->pMethods == &s_methods;
    return ours ? ReadMode::Direct : ReadMode::Default;
}

} // namespace nsw::exportvfs

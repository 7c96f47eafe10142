// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QTemporaryDir>

namespace nsw::test {

/// A stand-in for an Nsight Systems installation, laid out as NVIDIA's is (ROOT/bin/nsys,
/// ROOT/host-linux-x64/QdstrmImporter), made of shell scripts whose behaviour a test picks:
///   export: "ok" copies the export given to setExport() to --output, printing nsys's progress bar;
///           "fail" prints nsys's error for a damaged report and exits 1; "crash" dies by SIGSEGV;
///           "hang" prints progress and never ends.
///   profile: "report" writes NAME.nsys-rep; "stream" writes NAME.qdstrm (as Debian's nsys without its importer);
///            "none" writes nothing; the exit code is setProfileExitCode()'s.
/// `--version` prints setVersion()'s.
/// Every call appends its arguments to calls.log. NSYS_WORKBENCH_NSYS points at it while the object lives, and the
/// export cache goes to a folder of its own.
class FakeNsys
{
public:
    FakeNsys();
    ~FakeNsys();
    bool isValid() const { return m_valid; }
    QString nsysPath() const;
    QString importerPath() const;
    QString cacheFolder() const;
    void setExportMode(const QString& mode);
    void setExport(const QString& sqlitePath);
    void setProfileMode(const QString& mode);
    void setProfileExitCode(int code);
    /// What `nsys --version` prints after "version " (default "2099.1.2.3-fake").
    void setVersion(const QString& version);
    /// The lines of calls.log that start with @p subcommand ("export", "profile", "import", "--version").
    QStringList calls(const QString& subcommand) const;

private:
    void writeSetting(const QString& name, const QString& value);
    QTemporaryDir m_root;
    bool m_valid = false;
};

/// Writes a file that starts as an .nsys-rep does (its magic), with @p filler after it.
bool writeReportLookalike(const QString& path, const QByteArray& filler = "fake report body");
/// Writes a file that starts as a .qdstrm does.
bool writeStreamLookalike(const QString& path);

} // namespace nsw::test

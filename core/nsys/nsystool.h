// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/result.h"

#include <QString>
#include <QStringList>

namespace nsw {

/// An Nsight Systems command-line tool found on this machine.
struct NsysTool
{
    QString path; ///< the nsys executable
    QString version; ///< "2022.4.2.1", empty when `nsys --version` said nothing recognisable
    /// QdstrmImporter of the same installation, or empty. Debian's nsight-systems package ships it where its nsys
    /// does not look, so nsys leaves a .qdstrm that the workbench imports itself.
    QString importerPath;
};

/// Where nsys is looked for, in order: the NSYS_WORKBENCH_NSYS environment variable, the path set in
/// Preferences (CoreSettings::nsysPath, passed in by the window), PATH, /opt/nvidia/nsight-systems/<newest>/bin,
/// /usr/local/cuda/bin and /usr/local/cuda-<newest>/bin. A configured path that does not exist is listed (and reported)
/// all the same.
QStringList nsysCandidates();

/// The first candidate that runs; the error says which were tried and what to install.
Result<NsysTool> findNsys();

/// "2022.4.2.1" out of `nsys --version`'s "NVIDIA Nsight Systems version 2022.4.2.1-df9881f"; empty when absent.
QString parseNsysVersion(const QString& versionOutput);

/// The seconds an nsys export or import may take: NSYS_WORKBENCH_NSYS_TIMEOUT, else
/// CoreSettings::nsysTimeoutSeconds, else 1800.
int nsysTimeoutSeconds();

} // namespace nsw

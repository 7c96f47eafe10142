// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/nvf1records.h"

namespace nsw::nvf1 {

/// The general path: any record order, failed fields, gaps; one vector per series, sorted when out of order. Reads the
/// @p records whole records through @p read in blocks of about 1 MiB.
Nvf1ReadResult parseGeneral(const QString& name, int gpu, const Nvf1Header& header, qint64 fileBytes, qint64 records,
    qint64 tailBytes, const RecordReader& read, const CancelToken& cancel);

} // namespace nsw::nvf1

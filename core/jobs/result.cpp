// SPDX-License-Identifier: GPL-3.0-or-later
#include "result.h"

#include <QtGlobal>

namespace nsw {

void resultValueMissing(const QString& error)
{
    const QByteArray text = "the value of a failed result was read without checking it; its error: "
        + (error.isEmpty() ? QByteArray("(no message)") : error.toUtf8());
    Q_ASSERT_X(false, "nsw::Result", text.constData()); // debug builds stop here, in the debugger
    qFatal("nsw::Result: %s", text.constData());
}

} // namespace nsw

// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTest>
class T : public QObject
{
    Q_OBJECT
};
QTEST_GUILESS_MAIN(T)
#include "tst_tracegen_nvf1.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxfixture.h"

#include "profilebuilder.h"

#include <QSqlQuery>

namespace nsw::test {

ProfilePtr nvtxFixture()
{
    ProfileBuilder b;
    const ProcessIndex a = b.process(100, QStringLiteral("trainer"));
    const ProcessIndex pb = b.process(200, QStringLiteral("other"));
    const ThreadIndex t1 = b.thread(a, 101, QStringLiteral("main"));
    const ThreadIndex t2 = b.thread(a, 102, QStringLiteral("worker"));
    const ThreadIndex t3 = b.thread(pb, 201, QStringLiteral("main"));
    const int nccl = b.nvtxDomain(a, 5, QStringLiteral("NCCL"));
    const int unnamed = b.nvtxDomain(a, 7, QString());
    const auto pp = NvtxTable::kPushPop;

    b.nvtxRange(t1, 1000, 2000, QStringLiteral("step_1"));
    b.nvtxRange(t1, 1100, 1500, QStringLiteral("forward"));
    b.nvtxMark(t1, 1120, QStringLiteral("marker"));
    b.nvtxRange(t1, 1150, 1250, QStringLiteral("layer_1"));
    b.nvtxRange(t1, 1155, 1158, QStringLiteral("x"), pp, unnamed);
    b.nvtxRange(t1, 1260, 1400, QStringLiteral("layer_2"));
    b.nvtxRange(t1, 1600, 1700, QStringLiteral("ncclAllReduce"), pp, nccl);
    b.nvtxRange(t1, 3000, 4000, QStringLiteral("step_2"));
    b.nvtxRange(t1, 3100, 3500, QStringLiteral("forward"));
    b.nvtxRange(t1, 3150, 3260, QStringLiteral("layer_1"));
    b.nvtxRange(t1, 5000, 5600, QStringLiteral("async_io"), NvtxTable::kStartEnd, -1, t2);
    b.nvtxRange(t1, 7000, kNoTime, QStringLiteral("tail"));
    b.nvtxMark(t1, 8000, QStringLiteral("end"));
    b.nvtxRange(t2, 1000, 1300, QStringLiteral("worker"));
    b.nvtxRange(t3, 1000, 2000, QStringLiteral("step_1"));

    b.kernel(t1, 1156, 1157, 2000, 2100, QStringLiteral("k_x"));
    b.kernel(t1, 1200, 1210, 2100, 2300, QStringLiteral("gemm"));
    b.memOp(t1, 1220, 1230, 2300, 2320, 1, 4096);
    b.kernel(t1, 1300, 1310, 2300, 2350, QStringLiteral("gemm"));
    b.kernel(t1, 1450, 1460, 2350, 2400, QStringLiteral("relu"));
    b.kernel(t1, 1650, 1660, 2400, 2700, QStringLiteral("nccl_allreduce"));
    b.kernel(t1, 1800, 1810, 2700, 2750, QStringLiteral("optimizer"));
    b.kernel(t1, 3200, 3210, 4100, 4300, QStringLiteral("gemm"));
    b.kernel(t1, 3600, 3610, 4300, 4310, QStringLiteral("optimizer"));
    b.kernel(t1, 5100, 5110, 5200, 5300, QStringLiteral("copy_kernel"));
    b.kernel(t1, 6000, 6010, 6100, 6200, QStringLiteral("stray"));
    b.kernel(t1, 7100, 7110, 7200, 7400, QStringLiteral("final"));
    b.kernel(t2, 1100, 1110, 1500, 1600, QStringLiteral("k_worker"));
    b.kernel(t2, 1400, 1410, 1600, 1650, QStringLiteral("late"));
    b.kernel(t3, 1500, 1510, 1600, 1900, QStringLiteral("gemm"));
    b.kernelWithoutApi(pb, 3000, 3100, QStringLiteral("orphan"));
    return b.build(QStringLiteral("nvtx-fixture.sqlite"));
}

QSqlDatabase openReadOnly(const QString& path)
{
    const QString name = QStringLiteral("nvtx-sql-") + path;
    if (QSqlDatabase::contains(name))
        return QSqlDatabase::database(name);
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
    db.open();
    return db;
}

} // namespace nsw::test

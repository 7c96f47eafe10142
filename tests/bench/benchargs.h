// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <algorithm>
#include <vector>

namespace nsw::bench {

/// `bench_x [EXPORT] [--iterations N]`, as the single-export benchmarks take it.
struct BenchArgs
{
    QString path = QStringLiteral("/tmp/nsw-bench/big.sqlite");
    int iterations = 3;
};

inline BenchArgs parseBenchArgs(const QStringList& args)
{
    BenchArgs out;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--iterations") && i + 1 < args.size())
            out.iterations = std::max(1, args[++i].toInt());
        else
            out.path = args[i];
    }
    return out;
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace nsw::bench

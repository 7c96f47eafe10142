// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparefixture.h"

#include "profilebuilder.h"

namespace nsw::test {

namespace {
QString shortOf(const QString& name)
{
    QString s = name.left(name.indexOf(QLatin1Char('(')));
    s = s.left(s.indexOf(QLatin1Char('<')));
    return s.mid(s.lastIndexOf(QLatin1Char(' ')) + 1);
}

/// A kernel whose launch call starts at @p api (that decides its NVTX range) and that runs [start, start + ns).
void launch(ProfileBuilder& b, ThreadIndex t, TimeNs api, TimeNs start, TimeNs ns, const QString& name)
{
    b.kernel(t, api, api + 10, start, start + ns, name, 0, 7, shortOf(name));
}
} // namespace

ProfilePtr beforeProfile()
{
    ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100, QStringLiteral("python")), 100);
    for (int s = 0; s < 2; ++s) {
        const TimeNs base = TimeNs(s) * 1'000'000;
        b.nvtxRange(t, base, base + 1'000'000, QStringLiteral("step"));
        b.nvtxRange(t, base + 50, base + 900'000, QStringLiteral("layer_%1").arg(s + 1));
        launch(b, t, base + 100, base + 200'000, 100'000, kGemm128);
        launch(b, t, base + 200, base + 300'000, 50'000, kRelu);
    }
    launch(b, t, 950'000, 960'000, 40'000, kOld);
    launch(b, t, 2'000'500, 2'001'000, 10'000, kTail);
    b.profile().meta.analysisDurationNs = 2'000'000'000;
    return b.build(QStringLiteral("before.sqlite"));
}

ProfilePtr afterProfile()
{
    ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(200, QStringLiteral("python")), 200);
    for (int s = 0; s < 3; ++s) {
        const TimeNs base = TimeNs(s) * 1'000'000;
        b.nvtxRange(t, base, base + 1'000'000, QStringLiteral("step"));
        b.nvtxRange(t, base + 50, base + 900'000, QStringLiteral("layer_%1").arg(s + 1));
        launch(b, t, base + 100, base + 200'000, 150'000, kGemm256);
        if (s < 2)
            launch(b, t, base + 200, base + 400'000, 50'000, kRelu);
        else
            launch(b, t, base + 200, base + 400'000, 30'000, kNew);
    }
    launch(b, t, 3'000'500, 3'001'000, 10'000, kTail);
    b.profile().meta.analysisDurationNs = 4'000'000'000;
    return b.build(QStringLiteral("after.sqlite"));
}

RuleList fixtureRules()
{
    RuleList l;
    l.engine = QStringLiteral("e");
    l.model = QStringLiteral("m");
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral("gemm"), QStringLiteral("gemm")));
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral("relu"), QStringLiteral("act")));
    l.rules.push_back(CategoryRule::fromKey(QStringLiteral(".*"), QStringLiteral("misc")));
    return l;
}

} // namespace nsw::test

// SPDX-License-Identifier: GPL-3.0-or-later
// Times re-categorisation after a rule edit on a (large) export: classify the distinct names, add them up per time
// mode, and (with the widgets) redraw the category pane. Target: 200 ms on the 4M-kernel export.
//   bench_categories [EXPORT] [--rule-set NAME --engine E --model M] [--iterations N] [--no-pane]
#include "core/categories/categorybreakdown.h"
#include "core/categories/rulelibrary.h"
#include "core/controllers/categorycontroller.h"
#include "core/profile/profileloader.h"
#include "core/session/profilesession.h"
#include "core/session/workbench.h"
#include "widgets/categories/categoriespane.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <algorithm>
#include <cstdio>

using namespace nsw;

namespace {
constexpr double kTargetMs = 200.0;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

void print(const char* what, const std::vector<double>& ms)
{
    const double worst = ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end());
    std::printf("%-44s median %8.1f ms   worst %8.1f ms   target %.0f ms: %s\n", what, median(ms), worst, kTargetMs,
        worst <= kTargetMs ? "met" : "MISSED");
}
} // namespace

int main(int argc, char** argv)
{
    qputenv(
        "QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    QString path = QStringLiteral("/tmp/nsw-bench/big.sqlite");
    QString set = QStringLiteral("pytorch"), engine = QStringLiteral("pytorch"), model = QStringLiteral("training");
    int iterations = 10;
    bool pane = true;
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--rule-set") && i + 1 < args.size())
            set = args[++i];
        else if (args[i] == QLatin1String("--engine") && i + 1 < args.size())
            engine = args[++i];
        else if (args[i] == QLatin1String("--model") && i + 1 < args.size())
            model = args[++i];
        else if (args[i] == QLatin1String("--iterations") && i + 1 < args.size())
            iterations = args[++i].toInt();
        else if (args[i] == QLatin1String("--no-pane"))
            pane = false;
        else
            path = args[i];
    }

    QElapsedTimer timer;
    timer.start();
    LoadOptions options;
    options.parts = LoadKernels | LoadMemOps;
    const LoadResult loaded = ProfileLoader::load(path, options);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.errorMessage()));
        return 2;
    }
    const Profile& p = *loaded->profile;
    std::printf("%s: %zu kernels, %zu memory operations, loaded in %lld ms\n", qPrintable(path), p.kernels.size(),
        p.memops.size(), timer.elapsed());

    timer.restart();
    const auto timeline = CategoryTimeline::build(loaded->profile);
    std::printf("timeline (once per profile, in the background): %lld ms, %zu distinct names, %zu GPUs\n",
        timer.elapsed(), timeline->names().size(), timeline->devices().size());

    const RuleSource source = RuleLibrary::shippedSet(set);
    const RuleList* shipped = source.document.engine(engine) ? source.document.engine(engine)->model(model) : nullptr;
    if (!shipped) {
        std::fprintf(stderr, "no rule set %s/%s/%s\n", qPrintable(set), qPrintable(engine), qPrintable(model));
        return 1;
    }
    RuleMatchCache cache(NameSet { timeline->demangledNames(), timeline->shortNames() });
    for (const TimeMode mode : kAllTimeModes) {
        std::vector<double> ms;
        for (int i = 0; i < iterations; ++i) {
            RuleList edited = *shipped;
            // A new pattern each time, as while typing: the cache cannot answer it.
            edited.rules[0].pattern += QStringLiteral("|edit%1%2").arg(int(mode)).arg(i);
            timer.restart();
            const RuleEvaluation evaluation = evaluateRules(edited, cache, &representativeMatchCache());
            CategoryOptions o;
            o.mode = mode;
            const CategoryBreakdown b = categorize(*timeline, edited, evaluation, o);
            ms.push_back(double(timer.nsecsElapsed()) / 1e6);
            if (b.bars.empty())
                return 3;
        }
        print(qPrintable(QStringLiteral("classify + aggregate (%1)").arg(timeModeName(mode))), ms);
    }

    {
        // Real inference traces hold hundreds to thousands of distinct names (the inflated export only a few dozen):
        // classify 10,000 with every rule run cold (an engine/model switch), then with one rule edited.
        NameSet many;
        const QStringList& base = representativeKernelNames();
        for (int i = 0; many.demangled.size() < 10000; ++i) {
            const QString n = base[i % base.size()] + QStringLiteral(" /*%1*/").arg(i);
            many.demangled.append(n);
            many.shortNames.append(shortNameOf(n));
        }
        RuleMatchCache manyCache(many);
        timer.restart();
        evaluateRules(*shipped, manyCache, &representativeMatchCache());
        std::vector<double> cold { double(timer.nsecsElapsed()) / 1e6 };
        print("10,000 names, all rules (cold)", cold);
        std::vector<double> edit;
        for (int i = 0; i < iterations; ++i) {
            RuleList edited = *shipped;
            edited.rules[0].pattern += QStringLiteral("|many%1").arg(i);
            timer.restart();
            evaluateRules(edited, manyCache, &representativeMatchCache());
            edit.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
        print("10,000 names, one rule edited", edit);
    }

    if (pane) {
        // The pane's whole path: a rule edit through the controller, the recompute off the GUI thread, the redraw.
        Workbench workbench;
        LoadedProfile lp;
        lp.profile = loaded->profile;
        auto* session = new ProfileSession(lp);
        CategoryController::attachTimeline(session, timeline);
        workbench.addSession(session);
        CategoriesPane categories(&workbench);
        categories.resize(1200, 700);
        categories.show();
        CategoryController* controller = categories.controller();
        controller->select(engine, model);
        for (const TimeMode mode : kAllTimeModes) {
            categories.setTimeMode(mode);
            QSignalSpy shown(&categories, &CategoriesPane::chartUpdated);
            if (!shown.wait(60000))
                return 4;
            std::vector<double> ms;
            for (int i = 0; i < iterations; ++i) {
                RuleList edited = controller->rules();
                edited.rules[0].pattern += QStringLiteral("|pane%1%2").arg(int(mode)).arg(i);
                shown.clear();
                timer.restart();
                controller->setRules(edited);
                if (!shown.wait(60000))
                    return 4;
                ms.push_back(double(timer.nsecsElapsed()) / 1e6);
            }
            print(qPrintable(QStringLiteral("rule edit -> bars redrawn (%1)").arg(timeModeName(mode))), ms);
        }
    }
    return 0;
}

// Google Benchmark behind a C interface (see include/CGoogleBenchmark.h).
#include "CGoogleBenchmark.h"
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Entry {
    std::string name;
    strata_gb_benchmark spec;
};

std::vector<Entry> &entries() {
    static std::vector<Entry> e;
    return e;
}

void body(benchmark::State &state, const strata_gb_benchmark spec) {
    if (spec.setup) {
        if (const char *error = spec.setup(spec.context)) {
            state.SkipWithError(error);
            for (auto _ : state) {}   // required by 1.7: the loop must run once after SkipWithError
            return;
        }
    }
    if (spec.reset) {
        for (auto _ : state) {
            state.PauseTiming();
            spec.reset(spec.context);
            state.ResumeTiming();
            spec.run(spec.context);
        }
    } else {
        for (auto _ : state) spec.run(spec.context);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(spec.items_per_iteration));
    state.counters["per_item"] = benchmark::Counter(
        spec.items_per_iteration, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["items"] = benchmark::Counter(spec.items_per_iteration);
}

benchmark::TimeUnit unit(int u) {
    switch (u) {
    case STRATA_GB_US: return benchmark::kMicrosecond;
    case STRATA_GB_MS: return benchmark::kMillisecond;
    case STRATA_GB_S: return benchmark::kSecond;
    default: return benchmark::kNanosecond;
    }
}

/// Prints the console table as each benchmark finishes and keeps the JSON in memory.
class TeeReporter : public benchmark::BenchmarkReporter {
public:
    TeeReporter(std::ostream &json) {
        console_.SetOutputStream(&std::cout);
        console_.SetErrorStream(&std::cerr);
        json_.SetOutputStream(&json);
        json_.SetErrorStream(&std::cerr);
    }
    bool ReportContext(const Context &context) override {
        return console_.ReportContext(context) && json_.ReportContext(context);
    }
    void ReportRuns(const std::vector<Run> &runs) override {
        console_.ReportRuns(runs);
        json_.ReportRuns(runs);
        std::cout.flush();
    }
    void Finalize() override {
        console_.Finalize();
        json_.Finalize();
    }

private:
    benchmark::ConsoleReporter console_;
    benchmark::JSONReporter json_;
};

char *copy(const std::string &s) {
    char *out = static_cast<char *>(std::malloc(s.size() + 1));
    std::memcpy(out, s.data(), s.size() + 1);
    return out;
}

} // namespace

extern "C" void strata_gb_register(const strata_gb_benchmark *spec) {
    entries().push_back(Entry{spec->name, *spec});
    Entry &e = entries().back();
    e.spec.name = nullptr;   // the copy in e.name is the one kept
    auto *b = benchmark::RegisterBenchmark(e.name.c_str(), body, e.spec);
    b->Unit(unit(spec->time_unit));
    if (spec->iterations > 0) b->Iterations(spec->iterations);
}

extern "C" void strata_gb_add_context(const char *key, const char *value) {
    benchmark::AddCustomContext(key, value);
}

extern "C" int64_t strata_gb_run(int argc, const char **argv, char **json, char **unknown) {
    std::vector<char *> args;
    for (int i = 0; i < argc; i++) args.push_back(const_cast<char *>(argv[i]));
    args.push_back(nullptr);
    int n = argc;
    benchmark::Initialize(&n, args.data());
    std::string rest;
    for (int i = 1; i < n; i++) { if (!rest.empty()) rest += ' '; rest += args[i]; }
    *unknown = rest.empty() ? nullptr : copy(rest);
    if (!rest.empty()) { *json = copy("unrecognised arguments: " + rest); return -1; }
    std::ostringstream out;
    TeeReporter reporter(out);
    size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    *json = copy(out.str());
    return static_cast<int64_t>(ran);
}

extern "C" void strata_gb_do_not_optimize_double(double value) { benchmark::DoNotOptimize(value); }
extern "C" void strata_gb_clobber_memory(void) { benchmark::ClobberMemory(); }

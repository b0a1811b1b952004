#!/usr/bin/env python3
# Checks that a strata-bench report (Google Benchmark's JSON plus the `strata` block) reads the
# way the two services that take Google Benchmark JSON read it, by re-implementing their parsers:
#
#   python3 scripts/lib/export-check.py reports/latest.json
#
# - Bencher's `cpp_google` adapter (bencherdev/bencher, lib/bencher_adapter/src/adapters/cpp/
#   google.rs): serde structs `Google { context: Context { caches: Vec<JsonAny> }, benchmarks:
#   Vec<Benchmark { name: BenchmarkName, real_time: Decimal (rust_decimal::serde::float),
#   time_unit: Units }> }`, no `deny_unknown_fields` (unknown keys, `strata` included, are
#   skipped; a known key given twice is an error); every entry becomes a latency in ns
#   (real_time x unit), aggregates included (no run_type check); entries go into a HashMap by
#   name, so of several entries with one name the last wins. BenchmarkName: a non-empty string
#   of at most 1024 bytes. Units: ps, ns, μs, µs, us, ms, s, nothing after. `--average median`
#   makes this adapter return nothing.
# - github-action-benchmark's `googlecpp` tool (benchmark-action/github-action-benchmark,
#   src/extract.ts, extractGoogleCppResult): JSON.parse of the whole file, then only
#   `json.benchmarks.map(b => ({name: b.name, value: b.real_time, unit: b.time_unit + '/iter',
#   extra: 'iterations: ..\ncpu: ..\nthreads: ..'}))` (context and every other key unread, no
#   run_type check, names not made unique); no result at all is an error. Units are converted
#   between runs only within s/iter, ms/iter, us/iter, ns/iter (normalizeValueByUnit.ts), and a
#   name's previous value is found with `find` (its first entry of that name).
#
# Also checks Google Benchmark's own layout, which both rely on without checking: run_type
# iteration or aggregate; iterations named once per repetition_index; aggregates named
# run_name + "_" + aggregate_name, once each, never an iteration's name.
#
# Prints a JSON summary (what each service would record) on stdout; each problem on stderr.
# Exit status: 0 no problem, 1 problems, 2 unreadable file or usage.
import json, math, sys

BENCHER_UNITS = [("ps", 1e-3), ("ns", 1.0), ("\u03bcs", 1e3), ("\u00b5s", 1e3), ("us", 1e3), ("ms", 1e6), ("s", 1e9)]
DECIMAL_MAX = 79228162514264337593543950335.0   # rust_decimal::Decimal::MAX: from_f64 fails above
MAX_BENCHMARK_NAME_LEN = 1024
GAB_ITER_UNITS = ["s/iter", "ms/iter", "us/iter", "ns/iter"]
GOOGLE_TIME_UNITS = ["ns", "us", "ms", "s"]


class Refused(Exception):
    """What the service's own parser would fail with."""


class JSONObject(dict):
    """A JSON object that remembers which keys it had more than once (the last value is kept,
    as JSON.parse and Python keep it; serde refuses a known field given twice)."""
    duplicates = ()


def object_pairs(pairs):
    o = JSONObject(pairs)
    seen, dups = set(), set()
    for k, _ in pairs:
        (dups if k in seen else seen).add(k)
    o.duplicates = dups
    return o


def strict_json(text):
    """JSON as both services read it: no NaN or Infinity literals (JSON.parse and serde_json
    both refuse them), duplicate keys remembered."""
    def constant(name):
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, object_pairs_hook=object_pairs, parse_constant=constant)


def type_name(v):
    return {dict: "map", JSONObject: "map", list: "sequence", str: "string", bool: "boolean", type(None): "null"}.get(
        type(v), "floating point" if isinstance(v, float) else "integer")


# ---------------------------------------------------------------- Bencher, cpp_google

def serde_struct(value, where, fields):
    """A serde-derived struct from a JSON object: known fields required once, others ignored."""
    if not isinstance(value, dict):
        raise Refused(f"{where}: invalid type: {type_name(value)}, expected struct")
    for f in fields:
        if f in getattr(value, "duplicates", ()):
            raise Refused(f"{where}: duplicate field `{f}`")
        if f not in value:
            raise Refused(f"{where}: missing field `{f}`")


def bencher_units(where, v):
    if not isinstance(v, str):
        raise Refused(f"{where}: invalid type: {type_name(v)}, expected a standard unit abbreviation")
    for tag, nanos in BENCHER_UNITS:
        if v.startswith(tag):
            if v[len(tag):] == "":
                return nanos
            break
    raise Refused(f"{where}: failed to parse benchmark units: {v!r}")


def bencher_decimal(where, v):
    # rust_decimal::serde::float: any JSON number (serde_json hands integers over as u64/i64),
    # nothing else; Decimal::from_f64 fails beyond Decimal's range.
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise Refused(f"{where}: invalid type: {type_name(v)}, expected a Decimal type representing a fixed-point number")
    if not math.isfinite(float(v)) or abs(float(v)) > DECIMAL_MAX:
        raise Refused(f"{where}: invalid value: {v}, expected a Decimal type representing a fixed-point number")
    return float(v)


def bencher_cpp_google(doc):
    """name -> latency in ns, as AdapterCppGoogle records it (a HashMap: the last entry of a
    name wins). Raises Refused where serde (or the adapter) fails."""
    serde_struct(doc, "report", ["context", "benchmarks"])
    serde_struct(doc["context"], "context", ["caches"])
    caches = doc["context"]["caches"]
    if not isinstance(caches, list):
        raise Refused(f"context.caches: invalid type: {type_name(caches)}, expected a sequence")
    for i, c in enumerate(caches):
        # JsonAny {}: any map (its keys ignored), or an empty sequence.
        if not (isinstance(c, dict) or c == []):
            raise Refused(f"context.caches[{i}]: invalid type: {type_name(c)}, expected struct JsonAny")
    if not isinstance(doc["benchmarks"], list):
        raise Refused(f"benchmarks: invalid type: {type_name(doc['benchmarks'])}, expected a sequence")
    results = {}
    for i, b in enumerate(doc["benchmarks"]):
        where = f"benchmarks[{i}]"
        serde_struct(b, where, ["name", "real_time", "time_unit"])
        name = b["name"]
        if not isinstance(name, str):
            raise Refused(f"{where}.name: invalid type: {type_name(name)}, expected a string")
        if not (0 < len(name.encode("utf-8")) <= MAX_BENCHMARK_NAME_LEN):
            raise Refused(f"{where}.name: invalid benchmark name {name!r} (1 to {MAX_BENCHMARK_NAME_LEN} bytes)")
        value = bencher_decimal(f"{where}.real_time", b["real_time"]) * bencher_units(f"{where}.time_unit", b["time_unit"])
        results[name] = value            # HashMap::insert: the last entry of a name is what stays
    if not results:
        raise Refused("no benchmark results (AdapterResults::new returns None for an empty list)")
    return results


# ---------------------------------------------------- github-action-benchmark, googlecpp

def js_string(v):
    """`${v}` in JavaScript, for the values the report can hold."""
    if v is None: return "null"
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e21: return str(int(v))
    if isinstance(v, (dict, list)): return "[object Object]" if isinstance(v, dict) else ",".join(js_string(x) for x in v)
    return str(v)


def gab_googlecpp(doc):
    """The list extractGoogleCppResult returns. Raises Refused where it throws."""
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        got = "undefined" if isinstance(doc, dict) and "benchmarks" not in doc else type_name(doc.get("benchmarks") if isinstance(doc, dict) else doc)
        raise Refused(f"TypeError: json.benchmarks.map is not a function (benchmarks is {got})")
    out = []
    for i, b in enumerate(doc["benchmarks"]):
        if not isinstance(b, dict):
            raise Refused(f"TypeError: Cannot read properties of {js_string(b)} (reading 'name') at benchmarks[{i}]")
        out.append({"name": b.get("name"), "value": b.get("real_time"),
                    "unit": (js_string(b["time_unit"]) if "time_unit" in b else "undefined") + "/iter",
                    "extra": f"iterations: {js_string(b['iterations']) if 'iterations' in b else 'undefined'}\n"
                             f"cpu: {js_string(b['cpu_time']) if 'cpu_time' in b else 'undefined'} "
                             f"{js_string(b['time_unit']) if 'time_unit' in b else 'undefined'}\n"
                             f"threads: {js_string(b['threads']) if 'threads' in b else 'undefined'}"})
    if not out:
        raise Refused("No benchmark result was found in the output file")
    return out


def gab_problems(results):
    """What the action accepts but records as nonsense: a name that is not a non-empty string,
    a value that is not a finite number, a unit it cannot convert, 'undefined' in the extra."""
    problems = []
    for i, r in enumerate(results):
        where = f"benchmarks[{i}] ({r['name']!r})"
        if not isinstance(r["name"], str) or not r["name"]:
            problems.append(f"github-action-benchmark: {where}: name is not a non-empty string")
        if isinstance(r["value"], bool) or not isinstance(r["value"], (int, float)) or not math.isfinite(r["value"]):
            problems.append(f"github-action-benchmark: {where}: real_time {r['value']!r} is not a finite number")
        unit = r["unit"].strip().lower().replace("\u00b5s", "us").replace("\u03bcs", "us")
        if unit not in GAB_ITER_UNITS:
            problems.append(f"github-action-benchmark: {where}: unit {r['unit']!r} is not one of {', '.join(GAB_ITER_UNITS)}")
        if "undefined" in r["extra"] or "null" in r["extra"]:
            problems.append(f"github-action-benchmark: {where}: iterations, cpu_time or threads missing ({r['extra']!r})")
    return problems


# ------------------------------------------------------------ Google Benchmark's layout

def layout_problems(doc):
    problems = []
    iterations, aggregates = {}, {}
    for i, b in enumerate(doc.get("benchmarks", [])):
        name = b.get("name")
        where = f"benchmarks[{i}] ({name!r})"
        for key, kind in [("name", str), ("run_name", str), ("run_type", str), ("time_unit", str)]:
            if not isinstance(b.get(key), kind):
                problems.append(f"layout: {where}: {key} is not a string")
        for key in ["real_time", "cpu_time"]:
            v = b.get(key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                problems.append(f"layout: {where}: {key} {v!r} is not a finite number >= 0")
        for key in ["iterations", "threads", "repetitions"]:
            v = b.get(key)
            if isinstance(v, bool) or not isinstance(v, int) or v < (0 if key == "repetitions" else 1):
                problems.append(f"layout: {where}: {key} {v!r} is not a whole number")
        if b.get("time_unit") not in GOOGLE_TIME_UNITS:
            problems.append(f"layout: {where}: time_unit {b.get('time_unit')!r} is not one of {', '.join(GOOGLE_TIME_UNITS)}")
        if b.get("run_type") == "iteration":
            if "aggregate_name" in b:
                problems.append(f"layout: {where}: an iteration with an aggregate_name")
            key = (name, b.get("repetition_index"))
            if not isinstance(b.get("repetition_index"), int):
                problems.append(f"layout: {where}: an iteration without a repetition_index")
            elif key in iterations:
                problems.append(f"layout: {where}: repetition {key[1]} of {name!r} twice (benchmarks[{iterations[key]}])")
            iterations.setdefault(key, i)
        elif b.get("run_type") == "aggregate":
            agg = b.get("aggregate_name")
            if not isinstance(agg, str) or not agg:
                problems.append(f"layout: {where}: an aggregate without an aggregate_name")
            elif name != f"{b.get('run_name')}_{agg}":
                problems.append(f"layout: {where}: an aggregate not named run_name + '_' + aggregate_name ({b.get('run_name')!r}, {agg!r})")
            if name in aggregates:
                problems.append(f"layout: {where}: aggregate {name!r} twice (benchmarks[{aggregates[name]}])")
            aggregates.setdefault(name, i)
        else:
            problems.append(f"layout: {where}: run_type {b.get('run_type')!r} is neither iteration nor aggregate")
    for name in sorted(set(aggregates) & {n for n, _ in iterations}):
        problems.append(f"layout: aggregate {name!r} has an iteration's name")
    return problems


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print("usage: python3 scripts/lib/export-check.py REPORT.json", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        doc = strict_json(text)
    except (OSError, ValueError) as e:
        print(f"{path}: not readable as strict JSON: {e}", file=sys.stderr)
        return 2

    problems = []
    summary = {"file": path, "top_level_keys": sorted(doc) if isinstance(doc, dict) else []}
    unknown = sorted(k for k in summary["top_level_keys"] if k not in ("context", "benchmarks"))
    summary["ignored_top_level_keys"] = unknown
    bare = {k: v for k, v in doc.items() if k not in unknown} if isinstance(doc, dict) else doc

    benchmarks = doc.get("benchmarks") if isinstance(doc, dict) else None
    if isinstance(benchmarks, list) and all(isinstance(b, dict) for b in benchmarks):
        problems += layout_problems(doc)
        runs = [b.get("run_type") for b in benchmarks]
        summary["entries"] = len(benchmarks)
        summary["iterations"] = runs.count("iteration")
        summary["aggregates"] = runs.count("aggregate")
        summary["aggregate_names"] = {a: sum(1 for b in benchmarks if b.get("aggregate_name") == a)
                                      for a in sorted({b["aggregate_name"] for b in benchmarks if "aggregate_name" in b})}
        summary["time_units"] = {u: sum(1 for b in benchmarks if b.get("time_unit") == u)
                                 for u in sorted({str(b.get("time_unit")) for b in benchmarks})}

    try:
        bencher = bencher_cpp_google(doc)
        summary["bencher"] = {"benchmarks": len(bencher), "latency_ns": bencher,
                              "same_without_ignored_keys": bencher_cpp_google(bare) == bencher}
        if not summary["bencher"]["same_without_ignored_keys"]:
            problems.append("bencher: the keys it should ignore change what it reads")
    except Refused as e:
        problems.append(f"bencher cpp_google refuses the file: {e}")

    try:
        gab = gab_googlecpp(doc)
        names = {}
        for r in gab:
            names[r["name"]] = names.get(r["name"], 0) + 1
        summary["github_action_benchmark"] = {
            "results": len(gab),
            "units": {u: sum(1 for r in gab if r["unit"] == u) for u in sorted({r["unit"] for r in gab})},
            "names_more_than_once": sum(1 for c in names.values() if c > 1),
            "first": gab[0],
            "same_without_ignored_keys": gab_googlecpp(bare) == gab,
        }
        if not summary["github_action_benchmark"]["same_without_ignored_keys"]:
            problems.append("github-action-benchmark: the keys it should ignore change what it reads")
        problems += gab_problems(gab)
    except Refused as e:
        problems.append(f"github-action-benchmark googlecpp refuses the file: {e}")

    summary["problems"] = problems
    json.dump(summary, sys.stdout, indent=1, sort_keys=True)
    print()
    for p in problems[:50]:
        print(p, file=sys.stderr)
    if len(problems) > 50:
        print(f"... and {len(problems) - 50} more", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

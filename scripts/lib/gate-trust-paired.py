# Tallies scripts/gate-trust's paired trials: each trial directory holds `strata-bench ab`'s
# compare.json for one configuration (aa, work5, work10, cache5, cache10). With --scene-counts,
# only the scene's frame-cost rows (scripts/gate-trust scenes: compare of two count runs).
#   python3 scripts/lib/gate-trust-paired.py TRIALS_DIR SCENE [--scene-counts]
import glob, json, os, re, sys

d, scene = sys.argv[1], sys.argv[2]
scene_only = "--scene-counts" in sys.argv[3:]
SCENE_CYCLES = ("estimated-cycles-p50", "estimated-cycles-p99")
SCENE_INSTR = ("instructions-p50", "instructions-p99")
configs = ["aa", "work5", "work10", "cache5", "cache10"]
titles = {"aa": "A/A (same build)", "work5": "+5% work", "work10": "+10% work",
          "cache5": "+5% cache misses", "cache10": "+10% cache misses"}


def load(path):
    return json.load(open(path))["rows"]


def tally(config):
    trials = sorted(glob.glob(f"{d}/*-{config}/compare.json"), key=lambda p: int(re.match(r"(\d+)-", os.path.basename(os.path.dirname(p))).group(1)))
    out = {"trials": len(trials), "time_any": 0, "time_rows": 0, "time_hits": 0, "p99": 0, "p99_trials": 0,
           "count": 0, "count_trials": 0, "instr": 0, "inconclusive": 0, "bands": [], "count_figures": set(),
           "scene_trials": 0, "scene_cycles": 0, "scene_instr": 0, "scene_mallocs": 0}
    for t in trials:
        rows = load(t)
        time = [r for r in rows if r["metric"] == "time" and r.get("basis") == "paired"]
        hits = [r for r in time if r["verdict"] == "regression"]
        out["time_rows"] += len(time)
        out["time_hits"] += len(hits)
        out["time_any"] += 1 if hits else 0
        out["inconclusive"] += sum(1 for r in time if r["verdict"] == "inconclusive")
        out["bands"] += [r["band"] for r in time if r.get("band") is not None]
        p99 = [r for r in rows if r["metric"] == "p99" and r["name"] == f"scene/{scene}"]
        if p99:
            out["p99_trials"] += 1
            out["p99"] += 1 if p99[0]["verdict"] == "regression" else 0
        cycles = [r for r in rows if r["metric"] == "estimated-cycles"]
        if cycles:
            out["count_figures"].add(tuple(sorted((r["name"], r["metric"], r.get("baseline"), r.get("head"))
                                                  for r in rows if r["metric"] in ("estimated-cycles", "instructions"))))
            out["count_trials"] += 1
            out["count"] += 1 if any(r["verdict"] == "regression" for r in cycles) else 0
            out["instr"] += 1 if any(r["verdict"] == "regression" for r in rows if r["metric"] == "instructions") else 0
        # The scene's deterministic frame cost (per-frame p50 and p99, mallocs per frame).
        frame = [r for r in rows if r["name"] == f"scene/{scene}" and r["metric"] in SCENE_CYCLES + SCENE_INSTR + ("mallocs",)]
        if frame:
            out["count_figures"].add(tuple(sorted((r["name"], r["metric"], r.get("baseline"), r.get("head")) for r in frame)))
            out["scene_trials"] += 1
            out["scene_cycles"] += 1 if any(r["verdict"] == "regression" for r in frame if r["metric"] in SCENE_CYCLES) else 0
            out["scene_instr"] += 1 if any(r["verdict"] == "regression" for r in frame if r["metric"] in SCENE_INSTR) else 0
            out["scene_mallocs"] += 1 if any(r["verdict"] == "regression" for r in frame if r["metric"] == "mallocs") else 0
    return out


res = {c: tally(c) for c in configs}
if scene_only:
    print(f"| injected | scene/{scene}: estimated cycles p50 or p99 regression | instructions p50 or p99 regression | mallocs regression |")
    print("|---|---|---|---|")
    for c in configs:
        r = res[c]
        if r["scene_trials"] == 0:
            continue
        print(f"| {titles[c]} | {r['scene_cycles']}/{r['scene_trials']} | {r['scene_instr']}/{r['scene_trials']} | {r['scene_mallocs']}/{r['scene_trials']} |")
    same = all(len(res[c]["count_figures"]) <= 1 for c in configs)
    print("\nEach configuration's per-frame figures were " + ("identical in every trial (deterministic)." if same else "NOT identical between trials."))
    sys.exit(0)
print("| injected | paired A/B time: trials with a regression | benchmark verdicts that are regressions | inconclusive | scene p99 regression | estimated cycles regression | instructions regression |")
print("|---|---|---|---|---|---|---|")
for c in configs:
    r = res[c]
    if r["trials"] == 0:
        continue
    print(f"| {titles[c]} | {r['time_any']}/{r['trials']} | {r['time_hits']}/{r['time_rows']} | {r['inconclusive']}/{r['time_rows']} | "
          f"{r['p99']}/{r['p99_trials']} | {r['count']}/{r['count_trials']} | {r['instr']}/{r['count_trials']} |")
if any(res[c]["scene_trials"] for c in configs):
    print(f"\n| injected | scene/{scene} frame cost: estimated cycles p50 or p99 regression | instructions p50 or p99 regression |")
    print("|---|---|---|")
    for c in configs:
        r = res[c]
        if r["scene_trials"]:
            print(f"| {titles[c]} | {r['scene_cycles']}/{r['scene_trials']} | {r['scene_instr']}/{r['scene_trials']} |")
same = all(len(res[c]["count_figures"]) <= 1 for c in configs)
counted = ", ".join(f"{titles[c]} {res[c]['count_trials']}" for c in configs if res[c]["trials"])
print(f"\nCounts (trials counted: {counted}): each configuration's instruction and estimated-cycle figures were "
      + ("identical in every counted trial (deterministic)." if same else "NOT identical between trials: " +
         "; ".join(f"{titles[c]}: {len(res[c]['count_figures'])} distinct" for c in configs if len(res[c]["count_figures"]) > 1)))
bands = sorted(res["aa"]["bands"])
if bands:
    print(f"\nA/A noise bands (paired, per benchmark and trial): median ±{100 * bands[len(bands) // 2]:.1f}%, largest ±{100 * bands[-1]:.1f}%")

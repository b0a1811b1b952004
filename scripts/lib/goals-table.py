#!/usr/bin/env python3
# Issues 8's and 20's goals table from one strata-bench report (every figure from that one run):
#   python3 scripts/lib/goals-table.py reports/baseline.json
import json, sys

report = json.load(open(sys.argv[1]))["strata"]
bench = {b["name"]: b for b in report["benchmarks"]}
scenes = {s["name"]: s for s in report.get("scenes", [])}

def ns(name):
    b = bench.get(name)
    return b["median_ns_per_item"] if b and b.get("median_ns_per_item") else None

def floor_ratio(name):
    b = bench.get(name)
    if not b: return None
    f = bench.get(b["parameters"].get("floor", ""))
    if not f: return None
    # The floor's items are bytes; the workload's `bytes` parameter is its total per frame.
    per_anim_floor = f["median_ns_per_item"] * int(b["parameters"]["bytes"]) / int(b["parameters"]["n"])
    return b["median_ns_per_item"] / per_anim_floor

rows = []
def row(path, goal, measured, ratio, met):
    rows.append((path, goal, measured, ratio, "yes" if met else "no" if met is not None else "not measured"))

def f2(x): return "–" if x is None else (f"{x:,.2f}" if x < 100 else f"{x:,.0f}")

for w in ["opacity", "position", "colour"]:
    n6, n4 = ns(f"frame/{w}/shared/basic/1000000"), ns(f"frame/{w}/shared/basic/10000")
    fr = floor_ratio(f"frame/{w}/shared/basic/1000000")
    row(f"frame, {w}, shared timing, 1e6", "≤ 1.5x floor, ~1.5 ns", f"{f2(n6)} ns", f"{f2(fr)}x floor",
        None if fr is None else fr <= 1.5)
    # Issue 8 asked < 0.6 ns of every 1e4 row; issue 20 states colour's as < 1 ns.
    g = 1.0 if w == "colour" else 0.6
    row(f"frame, {w}, shared timing, 1e4", f"< {g:g} ns", f"{f2(n4)} ns", f"{f2(n4 / g if n4 else None)}x goal",
        None if n4 is None else n4 < g)
for w in ["opacity", "position"]:
    x = ns(f"frame/{w}/own/basic/100000")
    row(f"frame, {w}, own begin time and curve, 1e5", "< 2.5 ns", f"{f2(x)} ns", f"{f2(x / 2.5 if x else None)}x goal", None if x is None else x < 2.5)
x4, x6 = ns("frame/transform/shared/basic/10000"), ns("frame/transform/shared/basic/1000000")
row("frame, transform, in cache (1e4)", "< 3 ns", f"{f2(x4)} ns", f"{f2(x4 / 3 if x4 else None)}x goal", None if x4 is None else x4 < 3)
row("frame, transform, 1e6", "< 6 ns", f"{f2(x6)} ns", f"{f2(x6 / 6 if x6 else None)}x goal", None if x6 is None else x6 < 6)
for k in ["keyframe", "path"]:
    x = ns(f"frame/position/own/{k}/100000")
    row(f"frame, {k}, 1e5", "< 5 ns", f"{f2(x)} ns", f"{f2(x / 5 if x else None)}x goal", None if x is None else x < 5)
for w in ["opacity", "position", "transform"]:
    s, r = ns(f"frame/{w}/shared/basic/100000"), ns(f"frame/reference/{w}/shared/basic/100000")
    sp = r / s if s and r else None
    row(f"frame vs reference, {w}, 1e5", "≥ 50x faster", f"{f2(s)} vs {f2(r)} ns", f"{f2(sp)}x faster", None if sp is None else sp >= 50)
c, cr = ns("commit/implicit/10000"), ns("commit/reference/implicit/10000")
sp = cr / c if c and cr else None
row("one implicit change in a transaction, commit included (1e4 layers)", "< 10 ns, ≥ 20x reference",
    f"{f2(c)} ns (reference {f2(cr)} ns)", f"{f2(c / 10 if c else None)}x goal; {f2(sp)}x faster than the reference",
    None if c is None or sp is None else (c < 10 and sp >= 20))
# Issue 20's host-view row: a layer whose delegate answers NSNull (a UIView's layer outside
# an animation block); mallocs from the run's counted body.
h = ns("commit/host-view-nsnull/10000")
counts = {c["name"]: c for c in report.get("counts", [])}
hm = counts.get("commit/host-view-nsnull/1000", {}).get("mallocs_per_item")
row("host-view layer change, delegate answers NSNull (1e4 layers)", "< 30 ns, 0 mallocs",
    f"{f2(h)} ns, {'–' if hm is None else f'{hm:.3f}'} mallocs", f"{f2(h / 30 if h else None)}x goal",
    None if h is None or hm is None else (h < 30 and hm == 0))
for o in ["built-in", "miss", "mix-plain-layer"]:
    ch = ns(f"lookup/{o}/chain")
    for strat in ["interned", "cached"]:
        x = ns(f"lookup/{o}/{strat}")
        ratio = ch / x if ch and x else None
        row(f"lookup, {o}, {strat}", "< 1 ns, ≥ 30x chain", f"{f2(x)} ns", f"{f2(ratio)}x faster than chain",
            None if x is None else (x < 1 and ratio >= 30))
for w in ["opacity", "position"]:
    for n in [1000000]:
        a, b = ns(f"frame/{w}/shared/basic/1-thread/{n}"), ns(f"frame/{w}/shared/basic/2-threads/{n}")
        sp = a / b if a and b else None
        # What two threads add to a triad over the same bytes: the memory system's ceiling.
        by = bench.get(f"frame/{w}/shared/basic/2-threads/{n}", {}).get("parameters", {}).get("bytes")
        f1, f2t = ns(f"frame/floor/{by}"), ns(f"frame/floor-2-threads/{by}")
        triad = f1 / f2t if f1 and f2t else None
        # Issue 20's goal: what the memory system allows, at least 0.9x of the triad's own
        # speed-up on the same bytes (issue 8 had asked a flat 1.8x, beyond this machine's
        # triad for position); without the triad in the run, the flat 1.8x.
        if triad:
            row(f"2 cores, {w}, 1e6", "≥ 0.9x the triad's speed-up", f"{f2(a)} -> {f2(b)} ns",
                f"{f2(sp)}x (a triad over the same bytes: {f2(triad)}x): {f2(sp / triad if sp else None)}x the triad's", None if sp is None else sp >= 0.9 * triad)
        else:
            row(f"2 cores, {w}, 1e6", "≥ 1.8x", f"{f2(a)} -> {f2(b)} ns", f"{f2(sp)}x", None if sp is None else sp >= 1.8)
st = scenes.get("stress-100k")
if st:
    p99 = st.get("p99")
    row("scene stress-100k (10,000 changes, 100 subtree moves per frame)", "p99 ≤ 8.33 ms",
        f"p99 {f2(p99)} ms (render part p99 {f2(st.get('render_p99'))} ms)", f"{f2(p99 / 8.33 if p99 else None)}x budget",
        None if p99 is None else p99 <= 8.33)
app = scenes.get("app-10k")
if app and app.get("p99") is not None:
    p99 = app["p99"]
    row("scene app-10k, p99", "keep ≤ 0.2 ms", f"p99 {p99:.3f} ms (p50 {app.get('p50', 0):.3f} ms)", f"{f2(p99 / 0.2)}x budget", p99 <= 0.2)
m = app.get("memory") if app else None
if m:
    samples = m["samples"]
    growth = samples[-1]["store_bytes"] - samples[0]["store_bytes"]
    spread = max(x["store_bytes"] for x in samples) - min(x["store_bytes"] for x in samples)
    # The suite's own holdings (the player's recorded frames) are taken out of the resident
    # growth: they are not the engine's (reports before they were read hold none).
    harness = (samples[-1].get("harness_bytes") or 0) - (samples[0].get("harness_bytes") or 0)
    rss = samples[-1]["resident_bytes"] - samples[0]["resident_bytes"] - harness
    frames = samples[-1]["frame"] - samples[0]["frame"]
    row(f"memory: bytes per layer / per running animation; growth over {frames:,} frames of app-10k churn", "reported, flat",
        f"{m['bytes_per_layer']:.0f} B / {m['bytes_per_animation']:.0f} B; stores {growth:+,} B (readings within {spread:,} B), resident {rss / 1024:+,.0f} KiB"
        + (f" (less {harness / 1024:,.0f} KiB of the player's recording)" if harness else ""),
        f"{samples[0]['store_bytes'] / 2**20:.1f} MiB of stores", abs(growth) <= 65536 and rss <= 1 << 20)
else:
    row("memory: bytes per animation / layer, no growth over 100,000 frames", "reported, flat", "not reported", "", None)

# Issue 45's rows: each everyday pattern beside its plain path in the same run.
for shape in ["fan", "balanced", "chain"]:
    worst = None
    for n in [10000, 100000, 1000000]:
        t, p = ns(f"tree/frame-timed-root/{shape}/{n}"), ns(f"tree/frame-plain-root/{shape}/{n}")
        if t and p: worst = max(worst or 0, t / p)
    row(f"animations under a timed root (offset, paused), {shape}, 1e4-1e6", "≤ 2x no timed root",
        "–" if worst is None else f"{f2(ns(f'tree/frame-timed-root/{shape}/1000000'))} vs {f2(ns(f'tree/frame-plain-root/{shape}/1000000'))} ns at 1e6",
        f"{f2(worst)}x (worst size)", None if worst is None else worst <= 2)
for timing in ["shared", "own"]:
    worst = None
    for n in [1000, 10000, 100000]:
        g = ns(f"frame/position/{timing}/group/{n}")
        o, q = ns(f"frame/opacity/{timing}/basic/{n}"), ns(f"frame/position/{timing}/basic/{n}")
        if g and o and q: worst = max(worst or 0, g / (o + q))
    row(f"a group of opacity + position, {timing} timing, 1e3-1e5", "≤ 1.3x the two alone",
        f"{f2(ns(f'frame/position/{timing}/group/100000'))} ns at 1e5", f"{f2(worst)}x (worst size)",
        None if worst is None else worst <= 1.3)
worst = None
for n in [1000, 10000, 100000]:
    a, b = ns(f"commit/implicit-over-running/{n}"), ns(f"commit/implicit/{n}")
    if a and b: worst = max(worst or 0, a / b)
row("an implicit change interrupting a running animation, 1e3-1e5", "≤ 2x the plain implicit change",
    f"{f2(ns('commit/implicit-over-running/100000'))} ns at 1e5", f"{f2(worst)}x (worst size)", None if worst is None else worst <= 2)
worst = None
for n in [10000, 100000]:
    a, b = ns(f"snapshot/moves/{n}"), ns(f"snapshot/moves-none/{n}")
    if a and b: worst = max(worst or 0, a / b)
row("a frame moving 1 subtree per 1,000 layers (100 at 1e5), 1e4-1e5", "≤ 1.5x the update frame without moves",
    f"{f2(ns('snapshot/moves/100000'))} vs {f2(ns('snapshot/moves-none/100000'))} ns at 1e5", f"{f2(worst)}x (worst size)",
    None if worst is None else worst <= 1.5)
c4, c6 = ns("tree/convert-time/chain/10000"), ns("tree/convert-time/chain/1000000")
row("convertTime on a chain, 1e4 -> 1e6 deep (ten timed ancestors)", "linear or better",
    f"{f2(c4)} -> {f2(c6)} ns", f"{f2(c6 / c4 if c4 and c6 else None)}x for 100x the depth",
    None if not (c4 and c6) else c6 / c4 <= 100)

print("| path | goal | measured | ratio | met |")
print("|---|---|---:|---:|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")

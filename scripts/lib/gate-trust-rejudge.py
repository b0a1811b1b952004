# Re-judges scripts/gate-trust's kept trials (.build-trust/trials) at other noise floors:
#   python3 scripts/lib/gate-trust-rejudge.py BIN TRIALS_DIR "2% 10% 30%"
import json, os, subprocess, sys, glob, re
bin, d, floors = sys.argv[1], sys.argv[2], sys.argv[3].split()
trials = sorted({int(re.match(r"(\d+)-", os.path.basename(f)).group(1)) for f in glob.glob(f"{d}/*-aa-a.json")})
def judge(a, b, floor):
    out = f"{d}/rejudge.json"
    subprocess.run([bin, "compare", a, b, "--noise-floor", floor, "--json", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = json.load(open(out))["rows"]
    t = sum(1 for r in rows if r["metric"] == "time" and r["verdict"] == "regression" and not r["name"].startswith("frame/floor"))
    c = sum(1 for r in rows if r["metric"] == "instructions" and r["verdict"] == "regression")
    return t, c
print(f"{'noise floor':>11}  {'A/A false (time)':>16}  {'+5% caught (time)':>17}  {'+10% caught (time)':>18}  trials")
for floor in floors:
    aa = sum(1 for i in trials if judge(f"{d}/{i}-aa-a.json", f"{d}/{i}-aa-b.json", floor)[0] > 0)
    c5 = sum(1 for i in trials if judge(f"{d}/{i}-5-plain.json", f"{d}/{i}-5-slow.json", floor)[0] > 0)
    c10 = sum(1 for i in trials if judge(f"{d}/{i}-10-plain.json", f"{d}/{i}-10-slow.json", floor)[0] > 0)
    n = len(trials)
    print(f"{floor:>11}  {aa:>13}/{n}  {c5:>14}/{n}  {c10:>15}/{n}")
# How far medians moved between two runs of the same build (A/A), per benchmark.
def medians(f):
    return {x["name"]: x["median_ns_per_item"] for x in json.load(open(f))["strata"]["benchmarks"]}
moves = {}
for i in trials:
    a, b = medians(f"{d}/{i}-aa-a.json"), medians(f"{d}/{i}-aa-b.json")
    for k in a:
        if k in b and a[k] > 0 and not k.startswith("frame/floor"):
            moves.setdefault(k, []).append(abs(b[k] / a[k] - 1))
for k, m in moves.items():
    m.sort()
    print(f"A/A median move of {k}: typical {100 * m[len(m) // 2]:.1f}%, largest {100 * m[-1]:.1f}%")

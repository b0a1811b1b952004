#!/usr/bin/env python3
# Classifies LeakSanitizer's report (scripts/sanitize address). A leak whose allocation ran
# inside a test is charged to the tests (XCTest keeps every test-case object until exit;
# some tests make cycles on purpose); any other is charged to the first frame above the
# allocator and the Swift runtime: the project's code (Sources/, Benchmarks/), which fails
# the run (exit 1), or the toolchain's libraries (Foundation, libxml2 caches), listed. Swift weak-reference side tables are left out:
# a weak variable stores its side table's address tagged, which LeakSanitizer's scan does
# not recognise, so every side table of a layer reachable only through a leaked holder shows
# as a "direct" leak.
import collections, os, re, sys

# The project's files are those under this checkout, wherever it lives (a CI clone sits at
# any path): the repository root as given and as resolved.
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
roots = {root.rstrip("/") + "/", os.path.realpath(root).rstrip("/") + "/"}
# A test target's sources, inside the checkout: Tests/, or a test target's copies the
# SharedSources plugin makes in a build folder (.build*/plugins/outputs/<package>/<Target>Tests/).
test_source = re.compile(r"(Tests/|\.build[^/]*/plugins/outputs/[^/]+/[^/]*Tests/)")


def in_checkout(line):
    """The frame's path relative to the checkout, or None when it is elsewhere."""
    for r in roots:
        i = line.find(r)
        if i >= 0:
            return line[i + len(r):]
    return None


def test_frame(line):
    relative = in_checkout(line)
    return relative is not None and test_source.match(relative) is not None

text = open(sys.argv[1], errors="replace").read()
blocks = re.split(r"\n(?=(?:Direct|Indirect) leak of )", text)
runtime = ("asan_", "libswiftCore.so", "libc.so", "swift_slowAlloc", "swift_allocObject", "swift_allocBox",
           "posix_memalign", "malloc", "calloc", "realloc", "operator new")
charged = collections.defaultdict(lambda: [0, 0])
project = []
for b in blocks:
    m = re.match(r"(Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object", b)
    if not m:
        continue
    kind, size, objects = m.group(1), int(m.group(2)), int(m.group(3))
    frames = re.findall(r"#\d+ 0x[0-9a-f]+ in (\S+)(?: \(?(\S+?)[)+]| (\S+))?", b)
    names = [f[0] for f in frames]
    if any("formWeakReference" in n or "swift_weakAssign" in n or "swift_weakInit" in n for n in names):
        charged["Swift weak side tables (tagged pointers)"][0] += size
        charged["Swift weak side tables (tagged pointers)"][1] += objects
        continue
    lines = re.findall(r"#\d+ 0x[0-9a-f]+ in (.+)", b)
    site = "unknown"
    if any(test_frame(line) for line in lines):
        # Made while a test ran and kept by it: the test-case objects XCTest keeps until
        # exit, and cycles a test makes (a RecordingAction keeps the layer it ran on, while
        # the layer keeps the action).
        site = "made by the tests (test-case objects XCTest keeps, cycles of test objects)"
    else:
        for line in lines:
            # The allocator, the Swift runtime, and the standard library's generic code
            # (`$ss...`, often specialised into the caller's binary) are never the site.
            if any(r in line for r in runtime) or line.startswith("$ss"):
                continue
            # (Files another target's sources the SharedSources plugin compiles in are
            # the project's too: they sit under the build's plugins/outputs.)
            if in_checkout(line) is not None and any(d in line for d in ("/Sources/", "/Benchmarks/", "/plugins/outputs/")):
                site = "project: " + re.sub(r".*?/(Sources|Benchmarks|plugins/outputs)/", r"\1/", line.split()[-1])
            else:
                lib = re.search(r"\((\S+?\.so[^+)]*)", line)
                site = "toolchain: " + (lib.group(1).split("/")[-1] if lib else line.split()[0][:60])
            break
    charged[site][0] += size
    charged[site][1] += objects
    if site.startswith("project:"):
        project.append((kind, size, site, b[:3000]))
print("leaks by site (bytes, objects):")
for site, (size, objects) in sorted(charged.items(), key=lambda kv: -kv[1][0]):
    print(f"  {size:>9} {objects:>6}  {site}")
bad = [p for p in project if p[2].startswith("project:")]
if bad:
    print(f"{len(bad)} leak(s) charged to the project's code:")
    for kind, size, site, block in bad[:10]:
        print(f"--- {kind} {size} bytes at {site}\n{block}")
    sys.exit(1)
print("no leak charged to the project's code")

import StrataBench

/// Per-frame evaluation of N running animations: by value width, timing and kind, each
/// beside a memory-bandwidth floor (a triad over the bytes the kernel must touch, see
/// `FrameSpec.bytes`) measured in the same run. The reference engine runs the same
/// workloads in `ReferenceSuite`.
enum FrameSuite {
    static let sizes = [100, 1_000, 10_000, 100_000, 1_000_000]

    /// The workloads, widest matrix first: every width with shared timing; the timing
    /// variants on opacity and position; the other kinds on position.
    static func specs() -> [FrameSpec] {
        var specs: [FrameSpec] = []
        for w in FrameSpec.Width.allCases {
            // Gradients' colours are composed per layer (not yet in the SIMD lane tracks):
            // up to 1e5, where a frame stays near a tenth of a second.
            for n in sizes where w != .gradient || n <= 100_000 {
                specs.append(FrameSpec(width: w, timing: .shared, kind: .basic, n: n))
            }
        }
        for w in [FrameSpec.Width.opacity, .position] {
            for timing in [FrameSpec.Timing.linear, .own] {
                for n in sizes { specs.append(FrameSpec(width: w, timing: timing, kind: .basic, n: n)) }
            }
        }
        // One thread against two, side by side, where render() splits a track (65,536+).
        for w in [FrameSpec.Width.opacity, .position] {
            for n in [100_000, 1_000_000] {
                for threads in [1, 2] { specs.append(FrameSpec(width: w, timing: .shared, kind: .basic, n: n, threads: threads)) }
            }
        }
        // Springs: one shared solve per frame, and a solve per animation (8 at a time).
        for timing in [FrameSpec.Timing.shared, .own] {
            for n in sizes { specs.append(FrameSpec(width: .position, timing: timing, kind: .spring, n: n)) }
        }
        for kind in [FrameSpec.Kind.keyframe, .path, .group] {
            for n in sizes where kind == .keyframe || n <= 100_000 {
                specs.append(FrameSpec(width: .position, timing: .own, kind: kind, n: n))
            }
        }
        // Groups of equal timing: beside shared-timing opacity and position.
        for n in sizes where n <= 100_000 { specs.append(FrameSpec(width: .position, timing: .shared, kind: .group, n: n)) }
        return specs
    }

    /// CI's short run: small in-cache sizes of the main families.
    static func isQuick(_ s: FrameSpec) -> Bool {
        s.n == 1_000 && s.timing != .linear
            && (s.kind != .basic || s.width == .opacity || s.width == .position || s.width == .transform || s.width == .rotation)
    }

    static func cases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        var floors: [Int: Bool] = [:]   // bytes -> in the quick run
        for s in specs() {
            let quick = isQuick(s)
            cases.append(frameCase(s, engine: "strata", quick: quick, make: { try makeFrameWorkload(s) }))
            floors[s.bytes] = (floors[s.bytes] ?? false) || quick
        }
        for (bytes, quick) in floors.sorted(by: { $0.key < $1.key }) {
            cases.append(floorCase(bytes: bytes, quick: quick))
        }
        // Beside the two-thread frames: the same bytes streamed by two threads.
        for bytes in Set(specs().filter { $0.threads == 2 }.map(\.bytes)).sorted() {
            cases.append(twoThreadFloorCase(bytes: bytes))
        }
        return cases
    }
}

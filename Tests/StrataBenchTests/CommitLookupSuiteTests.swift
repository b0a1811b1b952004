import XCTest
import StrataBench
@_spi(Benchmarks) import Strata
@testable import StrataBenchSuites

/// The commit and lookup suites: every fixture builds and passes its own precondition at
/// small N, each iteration's body and reset leave the engine where they found it, and the
/// lookup SPI the lookup suite times gives the outcomes its case names claim. A fixture that
/// quietly measured the wrong thing (no animations started, a hit that is really a miss)
/// would pass any timing run, so these are checked with real values here.
final class CommitLookupSuiteTests: XCTestCase {
    /// `n` of a case, from its parameters (every case of both suites has one).
    private func n(_ c: BenchmarkCase) -> Int { Int(c.parameters["n"] ?? "") ?? Int.max }

    /// Builds `c`'s workload (a root and N layers), then twice a reset that leaves no
    /// animation (but `running`, the fixture's own) and a run that leaves `started` more
    /// running, then `more`, a last reset, and the release: no animation and no layer of the
    /// workload left.
    private func assertResetsAndRuns(_ c: BenchmarkCase, started: Int, baseLayers: Int, baseAnimations: Int,
                                     running: Int = 0, more: (Workload) -> Void = { _ in }) throws {
        do {
            let w = try c.make()
            let reset = try XCTUnwrap(w.reset, c.name)
            XCTAssertEqual(StrataEngine.layerCount - baseLayers, n(c) + 1, "\(c.name): root + N layers")
            for _ in 0..<2 {
                reset()
                XCTAssertEqual(StrataEngine.activeAnimationCount, baseAnimations + running, "\(c.name): reset left animations")
                w.run()
                XCTAssertEqual(StrataEngine.activeAnimationCount - baseAnimations - running, started, "\(c.name): animations one run starts")
            }
            more(w)
            reset()
        }
        XCTAssertEqual(StrataEngine.activeAnimationCount, baseAnimations, "\(c.name): animations left after release")
        XCTAssertEqual(StrataEngine.layerCount, baseLayers, "\(c.name): layers left alive after release")
    }

    // MARK: commit

    /// Every commit case at N ≤ 1000: the fixture builds (its precondition counts the
    /// animations one run starts), each run after a reset starts exactly N·P animations (none
    /// for disable-actions and host views), each reset retires them all, and releasing the
    /// workload releases every layer it made.
    func test_commitCasesBuildRunAndResetToTheSameState() throws {
        let baseLayers = StrataEngine.layerCount
        let baseAnimations = StrataEngine.activeAnimationCount
        let cases = CommitSuite.cases().filter { n($0) <= 1_000 && CommitSuite.Variant(rawValue: $0.parameters["variant"]!) != nil }
        XCTAssertEqual(cases.count, CommitSuite.Variant.allCases.count * 2)
        for c in cases {
            let variant = try XCTUnwrap(c.parameters["variant"].flatMap(CommitSuite.Variant.init(rawValue:)), c.name)
            let p = Int(c.parameters["properties"] ?? "") ?? 0
            XCTAssertEqual(p, variant.properties, c.name)
            XCTAssertEqual(c.items, n(c) * p, c.name)
            XCTAssertEqual(c.item, "change")
            XCTAssertEqual(c.parameters["suite"], "commit")
            XCTAssertTrue(c.hasReset, c.name)
            // implicit-over-running's layers each run an animation of their own throughout.
            try assertResetsAndRuns(c, started: variant.animates ? n(c) * p : 0, baseLayers: baseLayers, baseAnimations: baseAnimations,
                                    running: variant == .implicitOverRunning ? n(c) : 0)
        }
    }

    /// `commit/retire/N` and `commit/retire-churn/N` at N ≤ 1000: each reset starts N
    /// animations (churn: and N long ones), each run retires the N (none left but the long
    /// ones), and releasing the workload releases its layers and the long animations.
    func test_retireCasesStartAndRetireTheirAnimations() throws {
        let baseLayers = StrataEngine.layerCount
        let baseAnimations = StrataEngine.activeAnimationCount
        let cases = CommitSuite.cases().filter { n($0) <= 1_000 && $0.parameters["variant"]!.hasPrefix("retire") }
        XCTAssertEqual(cases.map(\.name), ["commit/retire/100", "commit/retire/1000", "commit/retire-churn/100", "commit/retire-churn/1000"])
        for c in cases {
            let churn = c.parameters["variant"] == "retire-churn"
            let held = churn ? n(c) : 0
            XCTAssertEqual(c.items, n(c), c.name)
            XCTAssertEqual(c.item, "animation", c.name)
            XCTAssertTrue(c.hasReset, c.name)
            do {
                let w = try c.make()
                let reset = try XCTUnwrap(w.reset, c.name)
                XCTAssertEqual(StrataEngine.layerCount - baseLayers, n(c) + held + 1, "\(c.name): root + the layers")
                for _ in 0..<2 {
                    reset()
                    XCTAssertEqual(StrataEngine.activeAnimationCount - baseAnimations, n(c) + held, "\(c.name): animations a reset starts")
                    w.run()
                    XCTAssertEqual(StrataEngine.activeAnimationCount - baseAnimations, held, "\(c.name): animations left after a run")
                }
            }
            XCTAssertEqual(StrataEngine.layerCount, baseLayers, "\(c.name): layers left alive after release")
            XCTAssertEqual(StrataEngine.activeAnimationCount, baseAnimations, "\(c.name): animations left after release")
        }
    }

    /// `commit/explicit-basic/N` and `commit/explicit-keyframe/N` at N ≤ 1000: each run adds
    /// one animation to each of the N layers under the case's key (the engine holds copies,
    /// not the fixture's objects), each reset removes them, a second run over running
    /// animations replaces them rather than adding more, and releasing the workload releases
    /// its layers.
    func test_explicitCasesAddOneAnimationALayer() throws {
        let baseLayers = StrataEngine.layerCount
        let baseAnimations = StrataEngine.activeAnimationCount
        let cases = CommitSuite.cases().filter { n($0) <= 1_000 && CommitSuite.Explicit(rawValue: $0.parameters["variant"]!) != nil }
        XCTAssertEqual(cases.map(\.name), ["commit/explicit-basic/100", "commit/explicit-basic/1000",
                                           "commit/explicit-keyframe/100", "commit/explicit-keyframe/1000"])
        for c in cases {
            XCTAssertEqual(c.items, n(c), c.name)
            XCTAssertEqual(c.item, "animation", c.name)
            XCTAssertTrue(c.hasReset, c.name)
            try assertResetsAndRuns(c, started: n(c), baseLayers: baseLayers, baseAnimations: baseAnimations) { w in
                w.run()
                XCTAssertEqual(StrataEngine.activeAnimationCount - baseAnimations, n(c), "\(c.name): a second run replaces under the key")
            }
        }
    }

    /// The variants the lead's counted bodies name exist, and the quick subset is small.
    func test_commitNamesAndQuickSubset() {
        let cases = CommitSuite.cases()
        let names = Set(cases.map(\.name))
        XCTAssertEqual(names.count, cases.count)
        // Each variant at each size, and the two retirement frames and two explicit adds at each size.
        XCTAssertEqual(cases.count, (CommitSuite.Variant.allCases.count + 2 + CommitSuite.Explicit.allCases.count) * CommitSuite.sizes.count)
        for counted in Suites.countedNames where counted.hasPrefix("commit/") {
            XCTAssertTrue(names.contains(counted), "counted body \(counted) is not a commit case")
        }
        let quick = cases.filter(\.quick)
        XCTAssertFalse(quick.isEmpty)
        XCTAssertLessThanOrEqual(quick.count, 4)
        XCTAssertTrue(quick.allSatisfy { n($0) <= 1_000 })
    }

    // MARK: lookup

    /// Every lookup case builds (its precondition: all strategies agree and give the claimed
    /// outcome) and runs; names are `lookup/<outcome>/<strategy>` with each outcome under
    /// every strategy, so the report finds the `chain` case of each.
    func test_lookupCasesBuildRunAndPairWithChain() throws {
        let cases = LookupSuite.cases()
        let names = cases.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertEqual(cases.count, LookupSuite.outcomes.count * ActionLookupStrategy.allCases.count)
        for c in cases {
            let outcome = try XCTUnwrap(c.parameters["outcome"], c.name)
            let strategy = try XCTUnwrap(c.parameters["strategy"], c.name)
            XCTAssertEqual(c.name, "lookup/\(outcome)/\(strategy)")
            XCTAssertEqual(c.parameters["n"], "\(LookupSuite.batch)")
            XCTAssertEqual(c.items, LookupSuite.batch)
            XCTAssertEqual(c.item, "lookup")
            XCTAssertFalse(c.hasReset)
            XCTAssertTrue(names.contains("lookup/\(outcome)/chain"), "\(c.name) has no chain case")
            let w = try c.make()
            XCTAssertNil(w.reset)
            w.run()
            w.run()
        }
        for counted in Suites.countedNames where counted.hasPrefix("lookup/") {
            XCTAssertTrue(names.contains(counted), "counted body \(counted) is not a lookup case")
        }
        let outcomes = Set(cases.compactMap { $0.parameters["outcome"] })
        XCTAssertEqual(outcomes, ["delegate-hit", "actions-hit", "style-hit", "default-action", "built-in",
                                  "nsnull-stop", "miss", "mix-plain-layer", "mix-view-layer"])
    }

    /// The SPI's tallies per fixture and strategy, as real numbers: (none, builtIn, action).
    func test_lookupSPIGivesTheClaimedOutcomeUnderEveryStrategy() {
        let all = LookupSuite.batch
        let expected: [String: SIMD4<Int>] = [
            "delegate-hit": [0, 0, all, 0],
            "actions-hit": [0, 0, all, 0],
            "style-hit": [0, 0, all, 0],
            "default-action": [0, 0, all, 0],
            "built-in": [0, all, 0, 0],
            "nsnull-stop": [all, 0, 0, 0],
            "miss": [all, 0, 0, 0],
            "mix-plain-layer": [0, all, 0, 0],
            "mix-view-layer": [all, 0, 0, 0],
        ]
        XCTAssertEqual(Set(expected.keys), Set(LookupSuite.outcomes.map(\.name)))
        for (name, make) in LookupSuite.outcomes {
            let f = make()
            let batch = LookupBatch(keys: f.keys)
            XCTAssertEqual(batch.count, all)
            for s in ActionLookupStrategy.allCases {
                XCTAssertEqual(batch.run(on: f.layer, strategy: s), expected[name], "\(name)/\(s)")
            }
            withExtendedLifetime(f.retained) {}
        }
    }

    /// The SPI answers what the public `action(forKey:)` answers under the same strategy, key
    /// by key: no action ↔ nil, built-in ↔ an implied CABasicAnimation for that key, action ↔
    /// the very object the delegate, dictionary, style or class returned. So the lookup timed
    /// is the engine's, not a lookalike.
    func test_lookupSPIMatchesThePublicLookupKeyByKey() {
        let saved = StrataEngine.actionLookupStrategy
        defer { StrataEngine.actionLookupStrategy = saved }
        for (name, make) in LookupSuite.outcomes {
            let f = make()
            for s in ActionLookupStrategy.allCases {
                StrataEngine.actionLookupStrategy = s
                for key in Set(f.keys) {
                    let tally = LookupBatch(keys: [key]).run(on: f.layer, strategy: s)
                    let action = f.layer.action(forKey: key)
                    switch tally {
                    case [1, 0, 0, 0]:
                        XCTAssertNil(action, "\(name)/\(s)/\(key)")
                    case [0, 1, 0, 0]:
                        XCTAssertEqual((action as? CABasicAnimation)?.keyPath, key, "\(name)/\(s)/\(key)")
                    case [0, 0, 1, 0]:
                        XCTAssertNotNil(action, "\(name)/\(s)/\(key)")
                        XCTAssertNil((action as? CABasicAnimation)?.keyPath, "\(name)/\(s)/\(key): the fixture's own action")
                    default:
                        XCTFail("\(name)/\(s)/\(key): tally \(tally)")
                    }
                }
            }
            withExtendedLifetime(f.retained) {}
        }
    }

    /// One layer whose keys end at different steps: the strategies agree key by key, and the
    /// SPI counts each outcome separately (a tally that lumped outcomes together would hide a
    /// strategy that found the wrong one).
    func test_lookupSPISeparatesOutcomesOnOneLayer() {
        let l = CALayer()
        l.actions = ["opacity": NSNull(), "position": CABasicAnimation()]
        let keys = ["opacity", "position", "bounds", "transform", "strataCustomKey", "doubleSided", "strokeEnd"]
        let batch = LookupBatch(keys: keys)
        for s in ActionLookupStrategy.allCases {
            // none: opacity (NSNull), the custom key, doubleSided (not animatable), strokeEnd
            // (a shape key on a plain layer); built-in: bounds, transform; action: position.
            XCTAssertEqual(batch.run(on: l, strategy: s), [4, 2, 1, 0], "\(s)")
        }
        // A host view's layer inside an animation block: the delegate's action, every key.
        let v = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        var inside: [SIMD4<Int>] = []
        View.animate(withDuration: 1, animations: {
            inside = ActionLookupStrategy.allCases.map { LookupBatch(keys: ["opacity", "position"]).run(on: v.layer, strategy: $0) }
        })
        XCTAssertEqual(inside, Array(repeating: [0, 0, 2, 0], count: 3))
        XCTAssertEqual(LookupBatch(keys: ["opacity", "position"]).run(on: v.layer, strategy: .cached), [2, 0, 0, 0])
    }

    /// A detached copy (a presentation layer) has no row in the engine: the SPI answers "no
    /// action" as `action(forKey:)` does, instead of reading outside the store.
    func test_lookupSPIOnADetachedCopyFindsNoAction() throws {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        let copy = try XCTUnwrap(root.presentation())
        XCTAssertNil(copy.action(forKey: "opacity"))
        for s in ActionLookupStrategy.allCases {
            XCTAssertEqual(LookupBatch(keys: ["opacity", "position"]).run(on: copy, strategy: s), [2, 0, 0, 0], "\(s)")
        }
    }

    /// The realistic mix is fixed and drawn close to its stated weights (opacity 40%, position
    /// 25%, bounds 15%, backgroundColor 10%, transform 10%).
    func test_realisticMixIsDeterministicAndWeighted() {
        let mix = LookupSuite.realisticMix()
        XCTAssertEqual(mix, LookupSuite.realisticMix())
        XCTAssertEqual(mix.count, LookupSuite.batch)
        let counts = Dictionary(grouping: mix, by: { $0 }).mapValues(\.count)
        let weights = ["opacity": 0.40, "position": 0.25, "bounds": 0.15, "backgroundColor": 0.10, "transform": 0.10]
        XCTAssertEqual(Set(counts.keys), Set(weights.keys))
        for (k, w) in weights {
            let share = Double(counts[k] ?? 0) / Double(mix.count)
            XCTAssertEqual(share, w, accuracy: 0.06, k)
        }
    }

    /// A fixture whose claimed outcome is not what the lookups give fails before timing.
    func test_lookupPreconditionRejectsAWrongClaim() {
        let f = LookupSuite.Fixture(layer: CALayer(), keys: LookupSuite.cycle(["opacity"]), expected: .action, retained: [])
        XCTAssertThrowsError(try LookupSuite.workload(f, strategy: .chain, outcome: "built-in-claimed-as-action"))
    }

    /// Names stay unique across both suites.
    func test_namesAreUniqueAcrossBothSuites() {
        let names = (CommitSuite.cases() + LookupSuite.cases()).map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
    }
}

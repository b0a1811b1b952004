import XCTest
import StrataScript
import StrataDifferential

/// The shrinker keeps a failing script failing while it drops operations and rounds numbers.
final class ShrinkerTests: XCTestCase {
    private func failsWhenOpacityAboveThird(_ s: Script) -> Bool {
        s.ops.contains {
            if case let .set(_, "opacity", .scalar(x)) = $0 { return x > 0.3 }
            return false
        }
    }

    func test_shrink_dropsOperationsAndRoundsNumbers() {
        let script = Script([.makeLayer(id: 3, shape: false), .frame(time: 1.234),
                             .set(layer: 3, keyPath: "opacity", value: .scalar(0.734)),
                             .read(layer: 3, keyPath: "opacity"), .frame(time: 2.5)])
        let shrunk = ScriptShrinker.shrink(script, fails: failsWhenOpacityAboveThird)
        XCTAssertEqual(shrunk.ops, [.set(layer: 0, keyPath: "opacity", value: .scalar(1))])
    }

    func test_generator_isDeterministicPerSeed_andMakesLargeTreesSometimes() {
        XCTAssertEqual(ScriptGenerator.script(seed: 42), ScriptGenerator.script(seed: 42))
        XCTAssertNotEqual(ScriptGenerator.script(seed: 42), ScriptGenerator.script(seed: 43))
        let largest = (1...200).map { seed in
            ScriptGenerator.script(seed: UInt64(seed)).ops.filter { if case .makeLayer = $0 { return true }; return false }.count
        }.max() ?? 0
        XCTAssertGreaterThanOrEqual(largest, 100, "some scripts build trees of hundreds of layers")
    }
}

/// The generator reaches issue 19's toolbox (springs, the layer classes and their keys,
/// host views and their animation blocks), and both engines agree on scripts that use them.
final class ToolboxGenerationTests: XCTestCase {
    override class func setUp() { Differential.silenceDiagnostics() }

    private func uses(_ ops: [Op], _ test: (Op) -> Bool) -> Bool {
        ops.contains { op in
            if test(op) { return true }
            switch op {
            case let .viewAnimate(b): return uses(b.ops, test)
            case let .performWithoutAnimation(inner): return uses(inner, test)
            case let .setCompletion(_, inner): return uses(inner, test)
            default: return false
            }
        }
    }

    func test_generatorReachesSpringsClassesAndViews_andTheEnginesAgree() {
        var springs = 0, gradients = 0, colorSets = 0, views = 0, blocks = 0, viewEvents = 0, repeated = 0, delayedTraces = 0, withDelay = 0
        for seed in 1...400 {
            let s = ScriptGenerator.script(seed: UInt64(seed))
            let spring = uses(s.ops) {
                if case let .add(_, _, a) = $0 { return a.spring != nil }
                return false
            }
            let gradient = uses(s.ops) { if case .makeClassLayer(_, "gradient") = $0 { return true }; return false }
            let colors = uses(s.ops) { if case .set(_, "colors", .colors) = $0 { return true }; return false }
            let view = uses(s.ops) { if case .makeView = $0 { return true }; return false }
            let block = uses(s.ops) { if case .viewAnimate = $0 { return true }; return false }
            springs += spring ? 1 : 0; gradients += gradient ? 1 : 0; colorSets += colors ? 1 : 0
            views += view ? 1 : 0; blocks += block ? 1 : 0
            let replicator = uses(s.ops) { if case .makeClassLayer(_, "replicator") = $0 { return true }; return false }
                && uses(s.ops) { if case .set(_, "instanceCount", _) = $0 { return true }; return false }
            guard spring || gradient || block || replicator else { continue }
            let (fast, reference) = Differential.traces(s)
            XCTAssertNil(TraceComparison.firstDifference(fast, reference), "seed \(seed)")
            viewEvents += fast.filter { if case let .event(e) = $0 { return e.hasPrefix("view ") }; return false }.count
            // A snapshot showing one layer more than once: a replicator's instances.
            let repeats = fast.contains {
                guard case let .snapshot(_, items) = $0 else { return false }
                return Set(items.map(\.layer)).count < items.count
            }
            repeated += repeats ? 1 : 0
            // Delayed instances: the same script with every instanceDelay 0 traces otherwise.
            if uses(s.ops, { if case .set(_, "instanceDelay", _) = $0 { return true }; return false }) {
                var undelayed = s
                undelayed.ops = s.ops.map {
                    if case let .set(l, "instanceDelay", _) = $0 { return .set(layer: l, keyPath: "instanceDelay", value: .scalar(0)) }
                    return $0
                }
                withDelay += 1
                if TraceComparison.firstDifference(fast, Differential.traces(undelayed).fast) != nil { delayedTraces += 1 }
            }
        }
        XCTAssertGreaterThan(delayedTraces, 8, "instance delays change what some snapshots show (\(withDelay) scripts set them)")
        XCTAssertGreaterThan(springs, 10, "scripts add CASpringAnimations")
        XCTAssertGreaterThan(gradients, 10, "scripts make gradient layers")
        XCTAssertGreaterThan(colorSets, 10, "scripts set gradient colours")
        XCTAssertGreaterThan(views, 10, "scripts make host views")
        XCTAssertGreaterThan(blocks, 5, "scripts run view animation blocks")
        XCTAssertGreaterThan(viewEvents, 5, "view blocks' completions run (traced) in both engines")
        XCTAssertGreaterThan(repeated, 5, "snapshots repeat replicators' sublayers (and the engines agree on them)")
    }

    /// Transform fields (Apple's key-value coding extensions, `transform.translation` and
    /// `transform.scale.xy` among them) and NSValue-wrapped values, in animations and sets.
    func test_generatorReachesTransformFieldsAndWrappedValues_andTheEnginesAgree() {
        var fieldsAnimated: Set<String> = [], fieldsSet: Set<String> = [], wrapped: [String: Int] = [:], scripts = 0
        func note(_ v: ScriptValue?) {
            guard case let .wrapped(inner)? = v else { return }
            let kind: String
            switch inner {
            case .point: kind = "point"
            case .size: kind = "size"
            case .rect: kind = "rect"
            case .transform: kind = "transform"
            default: kind = "other"
            }
            wrapped[kind, default: 0] += 1
        }
        func visit(_ a: ScriptAnimation) {
            if let k = a.keyPath, k.contains("ransform.") { fieldsAnimated.insert(k) }
            note(a.from); note(a.to); note(a.by)
            a.values?.forEach(note)
            a.children?.forEach(visit)
        }
        for seed in 1...400 {
            let s = ScriptGenerator.script(seed: UInt64(seed))
            var reaches = false
            _ = uses(s.ops) { op in
                switch op {
                case let .add(_, _, a):
                    visit(a)
                    if let k = a.keyPath, k.contains("ransform.") { reaches = true }
                case let .set(_, k, v):
                    if k.contains("ransform.") { fieldsSet.insert(k); reaches = true }
                    note(v)
                default: break
                }
                return false
            }
            // The engines compared on the first 80 that reach them (the reach counted over all
            // 400; the fuzzer compares them by the hundred thousand).
            guard reaches else { continue }
            scripts += 1
            guard scripts <= 80 else { continue }
            let (fast, reference) = Differential.traces(s)
            XCTAssertNil(TraceComparison.firstDifference(fast, reference), "seed \(seed)")
        }
        for k in ["transform.translation", "transform.scale.xy", "transform.rotation.x", "sublayerTransform.translation"] {
            XCTAssertTrue(fieldsAnimated.contains(k), "scripts animate \(k): \(fieldsAnimated.sorted())")
            XCTAssertTrue(fieldsSet.contains(k), "scripts set \(k)")
        }
        for kind in ["point", "size", "rect", "transform"] {
            XCTAssertGreaterThan(wrapped[kind, default: 0], 5, "scripts hand over NSValue-wrapped \(kind)s: \(wrapped)")
        }
        XCTAssertGreaterThan(scripts, 50)
    }
}

import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// Layer timing (SEMANTICS.md "Fidelity rules"): a layer's duration (0 = endless),
/// repeatCount, repeatDuration, autoreverses and fillMode fold its local time exactly as an
/// animation's, and its subtree's animations see the folded time.
///
/// Outside the layer's active time, fillMode backwards / both hold the start and forwards /
/// both hold the end; with `removed` (Apple: "does not appear until it begins and is removed
/// from the presentation when it is completed") the layer's timing is inactive and its
/// subtree's animations have no effect (their layers show model values), as a group's
/// children when the group has none. A layer whose timing is all defaults is the identity.
///
/// Each test has a timed `parent` and a default-timing `child` whose model opacity is 0.9;
/// the child runs a 2 s linear fade 0 -> 0.8 added at media time 0. Expected values come from
/// `Clock`, the rule written out here, independently of either engine.
final class LayerTimingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// The rule for one layer: its local time for its parent's time, and whether it is active.
    struct Clock {
        var beginTime = 0.0, speed = 1.0, timeOffset = 0.0
        var duration = 0.0, repeatCount = 0.0, repeatDuration = 0.0
        var autoreverses = false
        var fillMode = CAMediaTimingFillMode.removed

        func apply(to layer: CALayer) {
            layer.beginTime = beginTime
            layer.speed = Float(speed)
            layer.timeOffset = timeOffset
            layer.duration = duration
            layer.repeatCount = Float(repeatCount)
            layer.repeatDuration = repeatDuration
            layer.autoreverses = autoreverses
            layer.fillMode = fillMode
        }

        /// Folds `t` (a time inside one of the iterations) to the time within its iteration.
        private func within(_ t: Double, end: Bool) -> Double {
            guard duration > 0 else { return t }   // endless: nothing to fold
            let cycle = autoreverses ? 2 * duration : duration
            var r = t.truncatingRemainder(dividingBy: cycle)
            if r < 0 { r += cycle }
            if end && r == 0 && t > 0 { r = cycle }   // a whole number of cycles ends on the last value
            return autoreverses && r > duration ? cycle - r : r
        }

        func time(_ parent: Double) -> (time: Double, active: Bool) {
            let a = (parent - beginTime) * speed
            let cycle = duration == 0 ? Double.infinity : (autoreverses ? 2 : 1) * duration
            let activeDuration = repeatDuration > 0 ? repeatDuration : max(repeatCount, 1) * cycle
            let backwards = fillMode == .backwards || fillMode == .both
            let forwards = fillMode == .forwards || fillMode == .both
            if a < 0 { return backwards ? (within(timeOffset, end: false), true) : (a + timeOffset, false) }
            if a >= activeDuration {
                return forwards ? (within(activeDuration + timeOffset, end: true), true) : (a + timeOffset, false)
            }
            return (within(a + timeOffset, end: false), true)
        }
    }

    private let modelOpacity = 0.9

    /// root -> parent (timed by `clock`) -> child (default timing, model opacity 0.9); the
    /// child's fade added at media time 0.
    private func makeTree(_ clock: Clock) -> (renderer: CARenderer, parent: CALayer, child: CALayer) {
        let root = CALayer(), parent = CALayer(), child = CALayer()
        let renderer = CARenderer(layer: root)
        withActionsDisabled {
            clock.apply(to: parent)
            child.opacity = Float(modelOpacity)
            root.addSublayer(parent)
            parent.addSublayer(child)
        }
        renderer.renderFrame(atTime: 0)
        inTransaction {
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.0
            fade.toValue = 0.8
            fade.duration = 2
            child.add(fade, forKey: "fade")
        }
        return (renderer, parent, child)
    }

    /// The child's opacity at media time `t` by the rule: the fade began at the child's
    /// local time of the commit (media 0); inactive layer time or a time outside the fade's
    /// 2 s shows the model value.
    private func expectedOpacity(_ clock: Clock, at t: Double) -> Double {
        let begin = clock.time(0).time
        let now = clock.time(t)
        guard now.active else { return modelOpacity }
        let x = (now.time - begin) / 2
        guard x >= 0 && x < 1 else { return modelOpacity }
        return lerp(0, 0.8, x)
    }

    private func check(_ clock: Clock, at times: [Double], file: StaticString = #filePath, line: UInt = #line) throws {
        let (renderer, _, child) = makeTree(clock)
        for t in times {
            renderer.renderFrame(atTime: t)
            let shown = Double(try XCTUnwrap(child.presentation(), file: file, line: line).opacity)
            XCTAssertEqual(shown, expectedOpacity(clock, at: t), accuracy: 1e-5, "at media time \(t)", file: file, line: line)
        }
    }

    // MARK: folding

    func test_repeatCountFoldsTheSubtreesTimeIntoOneDuration() throws {
        var clock = Clock()
        clock.duration = 1
        clock.repeatCount = 2
        try check(clock, at: [0.25, 0.5, 0.99, 1.25, 1.75])
        // Spot-check the rule itself: 1.25 s into the parent is 0.25 s into its second iteration.
        XCTAssertEqual(expectedOpacity(clock, at: 1.25), lerp(0, 0.8, 0.25 / 2), accuracy: 1e-12)
    }

    func test_afterTheRepeatsARemovedLayerLeavesItsSubtreeAtTheModel() throws {
        var clock = Clock()
        clock.duration = 1
        clock.repeatCount = 2
        try check(clock, at: [1.5, 2, 2.5, 7])
        XCTAssertEqual(expectedOpacity(clock, at: 2.5), modelOpacity)
    }

    func test_fractionalRepeatCountEndsPartWayThroughAnIteration() throws {
        var clock = Clock()
        clock.duration = 1
        clock.repeatCount = 1.5
        clock.fillMode = .forwards
        try check(clock, at: [1.25, 1.49, 1.5, 3])
        XCTAssertEqual(clock.time(3).time, 0.5, accuracy: 1e-12, "held at 1.5 iterations")
    }

    func test_autoreversesMirrorsTheSubtreesTime() throws {
        var clock = Clock()
        clock.duration = 1
        clock.autoreverses = true
        clock.repeatCount = 2
        try check(clock, at: [0.5, 1.25, 1.9, 2.25, 3.5, 4.5])
        XCTAssertEqual(clock.time(1.25).time, 0.75, accuracy: 1e-12, "on the way back")
    }

    func test_repeatDurationBoundsTheActiveTime() throws {
        var clock = Clock()
        clock.duration = 1
        clock.repeatDuration = 2.5
        try check(clock, at: [0.5, 1.5, 2.25, 2.75])
        XCTAssertEqual(expectedOpacity(clock, at: 2.75), modelOpacity, "past the repeat duration")
    }

    func test_repeatDurationOfAnEndlessLayerStopsItsTime() throws {
        var clock = Clock()
        clock.repeatDuration = 1.5
        clock.fillMode = .forwards
        try check(clock, at: [0.5, 1.25, 1.75, 4])
        XCTAssertEqual(clock.time(4).time, 1.5, accuracy: 1e-12)
    }

    func test_timeOffsetAndSpeedApplyBeforeTheFold() throws {
        var clock = Clock()
        clock.duration = 1
        clock.repeatCount = .infinity
        clock.speed = 2
        clock.timeOffset = 0.25
        try check(clock, at: [0.1, 0.3, 0.45, 1.7])
    }

    // MARK: fill modes

    func test_fillForwardsHoldsTheEnd() throws {
        var clock = Clock()
        clock.duration = 1
        clock.fillMode = .forwards
        try check(clock, at: [0.5, 1, 1.5, 10])
        XCTAssertEqual(expectedOpacity(clock, at: 10), lerp(0, 0.8, 0.5), accuracy: 1e-12, "held at local time 1")
    }

    func test_removedLayerBeforeItsBeginTimeLeavesItsSubtreeAtTheModel() throws {
        var clock = Clock()
        clock.beginTime = 1
        clock.duration = 3
        // Committed while the parent is inactive: the fade begins at the unfolded local time -1.
        XCTAssertEqual(clock.time(0).time, -1, accuracy: 1e-12)
        try check(clock, at: [0.25, 0.75, 1.5, 1.9])
        XCTAssertEqual(expectedOpacity(clock, at: 0.75), modelOpacity)
    }

    func test_fillBackwardsHoldsTheStartBeforeTheBeginTime() throws {
        var clock = Clock()
        clock.beginTime = 1
        clock.duration = 3
        clock.fillMode = .backwards
        try check(clock, at: [0.25, 0.75, 1.5, 2.5])
        XCTAssertEqual(expectedOpacity(clock, at: 0.75), 0, accuracy: 1e-12, "held at local time 0, the fade's start")
    }

    func test_fillBothHoldsBothEnds() throws {
        var clock = Clock()
        clock.beginTime = 0.5
        clock.duration = 1
        clock.timeOffset = 0.25
        clock.fillMode = .both
        try check(clock, at: [0.25, 0.75, 1.25, 1.5, 3])
    }

    func test_aLayerWithOnlyABeginTimeIsInactiveBeforeIt() throws {
        var clock = Clock()
        clock.beginTime = 2
        try check(clock, at: [0.5, 1.5, 2.5, 3.5])
    }

    func test_nestedLayersFoldInTurn() throws {
        let root = CALayer(), outer = CALayer(), inner = CALayer(), child = CALayer()
        var outerClock = Clock(), innerClock = Clock()
        outerClock.duration = 1.5
        outerClock.repeatCount = .infinity
        innerClock.speed = 2
        innerClock.duration = 1
        innerClock.autoreverses = true
        innerClock.repeatCount = .infinity
        let renderer = CARenderer(layer: root)
        withActionsDisabled {
            outerClock.apply(to: outer)
            innerClock.apply(to: inner)
            child.opacity = Float(modelOpacity)
            root.addSublayer(outer)
            outer.addSublayer(inner)
            inner.addSublayer(child)
        }
        renderer.renderFrame(atTime: 0)
        inTransaction {
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.0
            fade.toValue = 0.8
            fade.duration = 2
            child.add(fade, forKey: "fade")
        }
        func local(_ t: Double) -> Double { innerClock.time(outerClock.time(t).time).time }
        let begin = local(0)
        for t in [0.2, 0.4, 0.7, 1.2, 1.6, 2.9] {
            renderer.renderFrame(atTime: t)
            let x = (local(t) - begin) / 2
            XCTAssertEqual(Double(try XCTUnwrap(child.presentation()).opacity), lerp(0, 0.8, x), accuracy: 1e-5, "at \(t)")
            XCTAssertEqual(child.convertTime(t, from: nil), local(t), accuracy: 1e-9, "convertTime at \(t)")
        }
    }

    // MARK: convertTime

    func test_convertTimeAgreesWithTheFold() throws {
        var clock = Clock()
        clock.beginTime = 0.5
        clock.speed = 2
        clock.timeOffset = 0.25
        clock.duration = 1
        clock.repeatCount = 3
        clock.autoreverses = true
        let (_, parent, child) = makeTree(clock)
        for t in [-1.0, 0, 0.6, 1.1, 1.9, 2.2, 3.3, 9] {
            XCTAssertEqual(parent.convertTime(t, from: nil), clock.time(t).time, accuracy: 1e-9, "parent at \(t)")
            XCTAssertEqual(child.convertTime(t, from: nil), clock.time(t).time, accuracy: 1e-9, "child at \(t)")
        }
        // Within the first iteration the conversion back to media time is its inverse.
        for t in [0.6, 0.8] {
            XCTAssertEqual(child.convertTime(child.convertTime(t, from: nil), to: nil), t, accuracy: 1e-9, "round trip of \(t)")
        }
    }

    // MARK: back to defaults, bad input

    func test_timingBackToDefaultsStopsFolding() throws {
        var clock = Clock()
        clock.duration = 1
        clock.repeatCount = .infinity
        let (renderer, parent, child) = makeTree(clock)
        renderer.renderFrame(atTime: 1.5)
        XCTAssertEqual(Double(try XCTUnwrap(child.presentation()).opacity), lerp(0, 0.8, 0.5 / 2), accuracy: 1e-5, "folded to 0.5")
        withActionsDisabled {
            parent.duration = 0
            parent.repeatCount = 0
        }
        renderer.renderFrame(atTime: 1.5)
        XCTAssertEqual(Double(try XCTUnwrap(child.presentation()).opacity), lerp(0, 0.8, 1.5 / 2), accuracy: 1e-5, "not folded")
        XCTAssertEqual(child.convertTime(1.5, from: nil), 1.5, accuracy: 1e-12)
        renderer.renderFrame(atTime: 2.5)
        XCTAssertEqual(animationKeys(of: child), [], "the fade now ends at local time 2")
    }

    func test_negativeOrNonFiniteLayerTimingIsRefused() {
        let layer = CALayer()
        withActionsDisabled {
            layer.duration = 2
            layer.repeatCount = 3
            layer.repeatDuration = 4
        }
        let cases: [(String, StrataDiagnosticCode, () -> Void)] = [
            ("duration -1", .invalidArgument, { layer.duration = -1 }),
            ("repeatCount -1", .invalidArgument, { layer.repeatCount = -1 }),
            ("repeatDuration -0.5", .invalidArgument, { layer.repeatDuration = -0.5 }),
            ("duration nan", .nonFiniteValue, { layer.duration = .nan }),
            ("repeatDuration inf", .nonFiniteValue, { layer.repeatDuration = .infinity }),
            ("repeatCount nan", .nonFiniteValue, { layer.repeatCount = .nan }),
        ]
        for (what, code, change) in cases {
            let diagnostics = StrataDiagnostics.capture(change)
            XCTAssertEqual(diagnostics.map(\.code), [code], what)
            XCTAssertFalse(diagnostics.first?.message.isEmpty ?? true, what)
        }
        XCTAssertEqual(layer.duration, 2)
        XCTAssertEqual(layer.repeatCount, 3)
        XCTAssertEqual(layer.repeatDuration, 4)
        XCTAssertTrue(StrataDiagnostics.capture { layer.repeatCount = .infinity }.isEmpty, "an endless repeat is allowed")
    }
}

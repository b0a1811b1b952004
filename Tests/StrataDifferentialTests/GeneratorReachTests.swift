import XCTest
import StrataScript

/// The generator reaches the patterns the engine keeps off its plain path, so differential
/// fuzzing compares them against the reference engine: animations under a layer with timing
/// of its own, groups, and subtrees moved between parents (issue 45). Counted over 2,000
/// generated scripts; a generator change that stopped producing one of them fails here.
final class GeneratorReachTests: XCTestCase {
    /// What one script does, walked in order (completion blocks and view blocks included, in
    /// place: an approximation of when they run, enough to count reach).
    private struct Reach {
        /// The layer timing fields the generator sets (`ScriptGenerator.layerTiming`).
        static let timingKeys: Set = ["duration", "repeatCount", "repeatDuration", "autoreverses", "fillMode",
                                      "beginTime", "speed", "timeOffset"]
        var parent: [Int: Int] = [:]
        var timed: Set<Int> = []
        var underTimed = 0, groups = 0, moves = 0, movesAcrossTime = 0, membersOfGroupTiming = 0

        /// A member with the group's timing and none of its own (the engine runs it on the
        /// group's entry).
        static func hasGroupTiming(_ m: ScriptAnimation) -> Bool {
            m.kind != .group && m.beginTime == 0 && m.duration == 0 && m.speed == 1 && m.timeOffset == 0
                && m.repeatCount == 0 && m.repeatDuration == 0 && !m.autoreverses && m.fillMode == "removed"
                && m.timingFunction == nil && m.spring == nil && !m.cumulative
        }

        mutating func countMembers(_ a: ScriptAnimation) {
            for m in a.children ?? [] {
                if Self.hasGroupTiming(m) { membersOfGroupTiming += 1 }
                countMembers(m)
            }
        }

        func hasTimedAncestor(_ l: Int) -> Bool {
            var x = parent[l]
            while let p = x { if timed.contains(p) { return true }; x = parent[p] }
            return false
        }

        func timedOnPath(_ l: Int?) -> Bool {
            guard let l else { return false }
            return timed.contains(l) || hasTimedAncestor(l)
        }

        mutating func walk(_ ops: [Op]) {
            for op in ops {
                switch op {
                case let .addSublayer(p, c), let .insertSublayer(p, c, _):
                    // Refused by both engines (a layer under itself or its descendant).
                    var x: Int? = p, cycle = false
                    while let y = x { if y == c { cycle = true; break }; x = parent[y] }
                    if cycle { continue }
                    if let old = parent[c] {
                        moves += 1
                        if timedOnPath(old) != timedOnPath(p) { movesAcrossTime += 1 }
                    }
                    parent[c] = p
                case let .removeFromSuperlayer(l):
                    parent[l] = nil
                case let .set(l, key, value):
                    if Self.timingKeys.contains(key) {
                        let isDefault: Bool
                        switch value {
                        case let .scalar(v): isDefault = v == (key == "speed" ? 1 : 0)
                        case let .bool(b): isDefault = !b
                        default: isDefault = false
                        }
                        if isDefault { timed.remove(l) } else { timed.insert(l) }
                    } else if hasTimedAncestor(l) || timed.contains(l) {
                        underTimed += 1
                    }
                case let .add(l, _, a):
                    if a.kind == .group { groups += 1; countMembers(a) }
                    if hasTimedAncestor(l) || timed.contains(l) { underTimed += 1 }
                case let .setCompletion(_, inner): walk(inner)
                case let .performWithoutAnimation(inner): walk(inner)
                case let .viewAnimate(block): walk(block.ops)
                default: break
                }
            }
        }
    }

    func test_generatedScriptsReachTimedAncestorsGroupsAndMoves() {
        let n = 2_000
        var withTimed = 0, withGroup = 0, withMove = 0, withCrossing = 0, all = 0, withGroupTiming = 0
        for seed in 0..<UInt64(n) {
            var r = Reach()
            r.walk(ScriptGenerator.script(seed: 45_000_000 + seed).ops)
            if r.underTimed > 0 { withTimed += 1 }
            if r.groups > 0 { withGroup += 1 }
            if r.moves > 0 { withMove += 1 }
            if r.movesAcrossTime > 0 { withCrossing += 1 }
            if r.membersOfGroupTiming > 0 { withGroupTiming += 1 }
            if r.underTimed > 0 && r.groups > 0 && r.moves > 0 { all += 1 }
        }
        print("generator reach over \(n) scripts: a change or animation under a timed layer \(withTimed), a group \(withGroup), a move \(withMove), a move into or out of a timed subtree \(withCrossing), all three \(all), a member of its group's timing \(withGroupTiming)")
        // Each in a fair share of scripts: a fuzzing minute runs about 14,000.
        XCTAssertGreaterThan(withTimed, n / 10)
        XCTAssertGreaterThan(withGroup, n / 10)
        XCTAssertGreaterThan(withMove, n / 10)
        XCTAssertGreaterThan(withCrossing, n / 40)   // 35 of 2,000 when written, 83 once moves aimed at timed layers
        XCTAssertGreaterThan(withGroupTiming, n / 10)
    }
}

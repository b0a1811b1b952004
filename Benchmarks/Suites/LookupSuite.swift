import Foundation
import StrataBench
@_spi(Benchmarks) import Strata

/// Action lookup alone: every strategy on identical interned keys, for each outcome of the
/// chain, plus realistic key mixes. One iteration looks up a batch of 256 keys; the report
/// quotes each strategy against `chain` on the same outcome.
enum LookupSuite {
    static let strategies: [ActionLookupStrategy] = [.chain, .interned, .cached]
    static let batch = 256
    /// Animatable properties, cycled through for the single-outcome cases.
    static let animatable = ["opacity", "position", "bounds", "backgroundColor", "transform"]

    /// One fixture: the layer to look up on, the keys, and the outcome every lookup must give
    /// (`nil` for mixes: then only the strategies' agreement is checked).
    struct Fixture {
        let layer: CALayer
        let keys: [String]
        let expected: LookupBatch.Outcome?
        let retained: [AnyObject]
    }

    /// The outcomes, in the chain's order.
    static let outcomes: [(name: String, make: () -> Fixture)] = [
        ("delegate-hit", {
            let d = ActionDelegate(returning: CABasicAnimation())
            let l = CALayer()
            l.delegate = d
            return Fixture(layer: l, keys: cycle(animatable), expected: .action, retained: [d])
        }),
        ("actions-hit", {
            let l = CALayer()
            let a = CABasicAnimation()
            l.actions = Dictionary(uniqueKeysWithValues: animatable.map { ($0, a as CAAction) })
            return Fixture(layer: l, keys: cycle(animatable), expected: .action, retained: [])
        }),
        ("style-hit", {
            let l = CALayer()
            let a = CABasicAnimation()
            l.style = ["actions": Dictionary(uniqueKeysWithValues: animatable.map { ($0, a) })]
            return Fixture(layer: l, keys: cycle(animatable), expected: .action, retained: [])
        }),
        ("default-action", {
            Fixture(layer: DefaultActionLayer(), keys: cycle(animatable), expected: .action, retained: [])
        }),
        ("built-in", {
            Fixture(layer: CALayer(), keys: cycle(animatable), expected: .builtIn, retained: [])
        }),
        ("nsnull-stop", {
            let v = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            return Fixture(layer: v.layer, keys: cycle(animatable), expected: LookupBatch.Outcome.none, retained: [v])
        }),
        ("miss", {
            // Custom keys, a built-in key with no implied animation, and a shape-only key on
            // a plain layer: every step asked, nothing found.
            Fixture(layer: CALayer(), keys: cycle(["strataCustomA", "doubleSided", "strataCustomB", "strokeEnd", "name"]),
                    expected: LookupBatch.Outcome.none, retained: [])
        }),
        ("mix-plain-layer", {
            Fixture(layer: CALayer(), keys: realisticMix(), expected: .builtIn, retained: [])
        }),
        ("mix-view-layer", {
            let v = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            return Fixture(layer: v.layer, keys: realisticMix(), expected: LookupBatch.Outcome.none, retained: [v])
        }),
    ]

    static func cases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for (outcome, make) in outcomes {
            for strategy in strategies {
                cases.append(BenchmarkCase(
                    "lookup/\(outcome)/\(strategy.rawValue)", items: batch, item: "lookup",
                    quick: ["built-in", "delegate-hit", "mix-view-layer"].contains(outcome),
                    parameters: ["suite": "lookup", "strategy": strategy.rawValue, "outcome": outcome, "n": "\(batch)"],
                    make: { try workload(make(), strategy: strategy, outcome: outcome) }))
            }
        }
        return cases
    }

    /// Checks that every strategy agrees and gives the expected outcome, then times `strategy`.
    static func workload(_ f: Fixture, strategy: ActionLookupStrategy, outcome: String) throws -> Workload {
        let lookups = LookupBatch(keys: f.keys)
        let tallies = strategies.map { lookups.run(on: f.layer, strategy: $0) }
        try BenchmarkError.check(tallies.allSatisfy { $0 == tallies[0] },
                                 "lookup/\(outcome): strategies disagree: \(zip(strategies, tallies).map { "\($0.0): \($0.1)" })")
        if let e = f.expected {
            try BenchmarkError.check(tallies[0][e.rawValue] == f.keys.count,
                                     "lookup/\(outcome): expected \(f.keys.count) x \(e), got \(tallies[0]) (none, builtIn, action)")
        }
        let layer = f.layer
        return Workload(retaining: [layer] + f.retained) {
            blackHole(lookups.run(on: layer, strategy: strategy))
        }
    }

    /// `keys` repeated to fill a batch.
    static func cycle(_ keys: [String]) -> [String] { (0..<batch).map { keys[$0 % keys.count] } }

    /// A deterministic batch drawn like an app's changes: opacity 40%, position 25%, bounds
    /// 15%, backgroundColor 10%, transform 10%.
    static func realisticMix() -> [String] {
        var x: UInt64 = 0x9E37_79B9
        return (0..<batch).map { _ in
            x = x &* 6364136223846793005 &+ 1442695040888963407
            let r = Int((x >> 33) % 100)
            switch r {
            case ..<40: return "opacity"
            case ..<65: return "position"
            case ..<80: return "bounds"
            case ..<90: return "backgroundColor"
            default: return "transform"
            }
        }
    }
}

/// A delegate that answers every key with the same action.
final class ActionDelegate: NSObject, CALayerDelegate {
    let action: CAAction
    init(returning action: CAAction) { self.action = action }
    func action(for layer: CALayer, forKey event: String) -> CAAction? { action }
}

/// A layer class whose `defaultAction(forKey:)` answers every animatable key.
final class DefaultActionLayer: CALayer {
    static let animation = CABasicAnimation()
    override class func defaultAction(forKey event: String) -> CAAction? {
        LookupSuite.animatable.contains(event) ? animation : nil
    }
}

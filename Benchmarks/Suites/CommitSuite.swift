import Foundation
import StrataBench
import Strata

/// One transaction changing P properties over N layers: begin, the changes (each an action
/// lookup plus a model write plus, when an action runs, an animation record), commit. The
/// reset (timer paused) renders far ahead so every animation has finished and been removed,
/// and each iteration starts from the same state; values toggle so every change is real.
enum CommitSuite {
    static let sizes = [100, 1_000, 10_000, 100_000]

    typealias Variant = CommitVariant

    static func cases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for v in Variant.allCases {
            for n in sizes {
                cases.append(commitCase(v, n: n, engine: "strata",
                                        quick: n == 1_000 && [.implicit, .hostView, .actionsDictionary].contains(v)))
            }
        }
        return cases
    }
}

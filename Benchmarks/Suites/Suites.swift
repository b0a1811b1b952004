import StrataBench

/// Every benchmark of the fast engine, by suite. `quick` selects CI's short run.
public enum Suites {
    /// The suites in the order they run and are listed.
    public static let names = ["commit", "lookup", "frame", "tree", "snapshot", "program"]

    /// Bodies whose instructions (callgrind) and mallocs are counted: small fixed workloads,
    /// so the counts are cheap under valgrind and exact from run to run.
    public static let countedNames = [
        "frame/opacity/shared/basic/1000",
        "frame/position/own/basic/1000",
        "frame/transform/shared/basic/1000",
        "frame/rotation/shared/basic/1000",
        "frame/position/own/keyframe/1000",
        "frame/position/own/path/1000",
        "frame/position/own/spring/1000",
        "commit/implicit/1000",
        "commit/host-view-nsnull/1000",
        "commit/actions-dictionary/1000",
        "commit/implicit-over-running/1000",
        "commit/explicit-basic/1000",
        "commit/explicit-keyframe/1000",
        "commit/retire/1000",
        "commit/retire-churn/1000",
        "lookup/built-in/chain",
        "lookup/built-in/interned",
        "lookup/built-in/cached",
        "lookup/miss/interned",
        "lookup/mix-view-layer/chain",
        "lookup/mix-view-layer/interned",
        "snapshot/full/balanced/1000",
        "snapshot/update/balanced/10/1000",
        "snapshot/moves/10000",
    ] + ProgramSuite.names

    /// The cases of `suite` (one of `names`).
    public static func cases(_ suite: String) -> [BenchmarkCase] {
        switch suite {
        case "commit": return CommitSuite.cases()
        case "lookup": return LookupSuite.cases()
        case "frame": return FrameSuite.cases()
        case "tree": return TreeSuite.cases()
        case "snapshot": return SnapshotSuite.cases()
        case "program": return ProgramSuite.cases()
        default: return []
        }
    }
}

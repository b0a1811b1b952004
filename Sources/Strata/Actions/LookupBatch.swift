/// Lookup alone, for the benchmark suite: the same strategy code the engine runs on a
/// property change, over keys interned once outside the timed region. Not API: reached
/// with `@_spi(Benchmarks) import Strata`.
@_spi(Benchmarks)
public struct LookupBatch {
    /// What one lookup found, as the benchmark counts it.
    public enum Outcome: Int, CaseIterable {
        /// NSNull, or nothing anywhere: no action.
        case none
        /// The property's built-in implicit animation (no object allocated).
        case builtIn
        /// An action object (delegate, actions, style or defaultAction(forKey:)).
        case action
    }

    /// The keys, interned once at construction (outside any timed region).
    private let keys: [PropertyID]

    /// Interns `keys` (String keys, as Core Animation passes them) once.
    public init(keys: [String]) {
        precondition(keys.count < 1 << 21, "LookupBatch: at most 2^21 - 1 keys (its tally packs three counts in 64 bits)")
        self.keys = keys.map { KeyInterner.id($0) }
    }

    /// Number of keys in the batch.
    public var count: Int { keys.count }

    /// Looks every key up on `layer` with `strategy` (chosen once, outside the loop) and
    /// returns how many lookups gave each outcome, indexed by `Outcome.rawValue` (lane 3 is
    /// always 0). The tally is the checksum: the suite compares it across strategies before
    /// timing, and it keeps the lookups from being optimised away.
    ///
    /// A detached copy (a presentation layer: no row in any store) finds no action, as
    /// `action(forKey:)` answers for it, rather than reading outside the store.
    @inline(never)
    public func run(on layer: CALayer, strategy: ActionLookupStrategy) -> SIMD4<Int> {
        guard layer.row >= 0 else {
            var tally = SIMD4<Int>()
            tally[Outcome.none.rawValue] = keys.count
            return tally
        }
        // One packed counter (21 bits per outcome), not three: the loop's calls (the slow
        // steps) left no register for three, so they lived on the stack and each lookup's
        // increment was a load and a store the next one waited on (store forwarding, about 5
        // cycles): the harness, not the lookup, set the pace of the fast outcomes. Nor lanes
        // of a SIMD4 (a lane update is a store and a reload of the vector).
        var packed: UInt64 = 0
        @inline(__always) func count(_ o: ActionOutcome) {
            switch o {
            case .none: packed &+= 1
            case .builtIn: packed &+= 1 &<< 21
            case .action: packed &+= 1 &<< 42
            }
        }
        switch strategy {
        case .chain:
            let s = ChainLookup()
            for k in keys { count(s.lookup(layer, k)) }
        case .interned:
            let s = InternedLookup()
            for k in keys { count(s.lookup(layer, k)) }
        case .cached:
            let s = CachedLookup()
            for k in keys { count(s.lookup(layer, k)) }
        }
        let field: UInt64 = (1 << 21) - 1
        return SIMD4(Int(packed & field), Int((packed >> 21) & field), Int(packed >> 42), 0)
    }

    /// The tally lane of an engine outcome.
    @inline(__always)
    static func index(_ o: ActionOutcome) -> Int {
        switch o {
        case .none: return Outcome.none.rawValue
        case .builtIn: return Outcome.builtIn.rawValue
        case .action: return Outcome.action.rawValue
        }
    }
}

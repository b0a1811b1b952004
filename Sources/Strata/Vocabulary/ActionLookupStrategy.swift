/// The three ways of walking the same lookup chain, benchmarked side by side. (The reference
/// engine always walks the literal chain; there the setting is stored and read back only.)
public enum ActionLookupStrategy: String, CaseIterable, Sendable {
    /// The literal delegate -> actions -> style -> defaultAction -> built-in walk on String
    /// keys, every step asked (what classic implementations do).
    case chain
    /// The same walk on interned ids; per-layer flag bits skip the empty steps.
    case interned
    /// Memoised results per (layer class, key) for layers with no delegate, actions or style,
    /// invalidated by a generation counter; the interned walk otherwise.
    case cached
}

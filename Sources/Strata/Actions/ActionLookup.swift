import Foundation

/// What a lookup found.
enum ActionOutcome {
    /// Nothing, or NSNull: no action runs.
    case none
    /// The built-in implicit action of the property (step 5), run without allocating an
    /// animation object.
    case builtIn(BuiltInAction)
    /// An action object from the delegate, `actions`, `style` or `defaultAction(forKey:)`.
    case action(CAAction)
}

/// One lookup strategy. Every strategy gives the same outcome for the same layer and key;
/// they differ only in cost.
protocol ActionLookup {
    /// The outcome for `key` on `layer`: a layer whose class overrides `action(forKey:)` is
    /// asked through it, unless the base `action(forKey:)` is walking the chain for this very
    /// layer and key (`EngineContext.chainWalk`).
    func lookup(_ layer: CALayer, _ key: PropertyID) -> ActionOutcome
}

/// A layer whose class overrides `action(forKey:)`: its answer (nil and NSNull meaning no
/// action); nil when the base `action(forKey:)` is walking the chain for this layer and key.
@inline(never)
func overrideOutcome(_ layer: CALayer, _ key: PropertyID) -> ActionOutcome? {
    if let w = layer.engine.chainWalk, w.row == layer.row, w.key == key { return nil }
    return stepOutcome(layer.action(forKey: KeyInterner.name(key))) ?? ActionOutcome.none
}

/// The outcome of one step: `nil` continues, NSNull stops with no action.
@inline(__always)
func stepOutcome(_ a: CAAction?) -> ActionOutcome? {
    guard let a else { return nil }
    return a is NSNull ? ActionOutcome.none : .action(a)
}

/// Step 5: the built-in implicit action of a key on a layer, by bit tests on literal masks:
/// no table load, no lazy-global check. The common answer first: one test rather than three,
/// laid out straight through (`_fastPath`: the hit took two taken branches, 17.5 instructions
/// a lookup in the suite's loop, now 15.5). Past the built-in ids, the well-known keyed ones
/// (`KeyInterner`, below 64) take one more bit test, and only the two keyed values that
/// animate make a call; any other id (a custom key) has no action.
@inline(__always)
func builtInOutcome(_ layer: CALayer, _ key: PropertyID, flags: UInt16) -> ActionOutcome {
    let r = UInt32(bitPattern: key.raw)
    guard _fastPath(r < UInt32(PropertyTable.count)) else {
        return r < 64 && KeyInterner.implicitKeyedBits & (1 &<< UInt64(r)) != 0 ? keyedOutcome() : .none
    }
    // Each branch shifts its own bit: one shift before the test cost a hit an instruction
    // (the old bit test, `bt`, was lost).
    let bit = UInt64(1) << UInt64(r)
    if _fastPath(PropertyTable.basicBits & bit != 0) { return .builtIn(.basic) }
    if PropertyTable.noActionBits & bit != 0 { return .none }
    if PropertyTable.shapeOnlyBits & bit != 0 && flags & LayerFlags.isShape == 0 { return .none }
    return .builtIn(PropertyTable.transitionBits & bit != 0 ? .transition : .basic)
}

/// Step 5 for CALayer's animatable keyed values (`contentsCenter`, `rasterizationScale`):
/// they animate implicitly (`ToolboxImplicitAction`). Out of line: the built-in keys' step
/// stays small. (Before, every id past the built-in ones came here to be compared with the
/// two ids: the call made a miss about twice a built-in hit, 2.05 against 1.00 ns.)
@inline(never)
func keyedOutcome() -> ActionOutcome {
    .action(ToolboxImplicitAction.shared)
}

/// Step 3 of the interned walk: the layer's style's actions, flattened into one table by
/// interned key at the first lookup after `style` is set. Walking the style (as `chain` still
/// does) casts its "actions" dictionary to `[AnyHashable: Any]`, a copy of the whole
/// dictionary, at every lookup: lookup/style-hit/interned measured 3,070 ns walked, 70 ns with
/// the table.
func styleOutcome(_ layer: CALayer, _ key: PropertyID, _ name: String) -> ActionOutcome? {
    guard let style = layer.style else { return nil }
    let state = layer.objects
    if case .unbuilt = state.styleActions { state.styleActions = StyleActions(style) }
    if case .table(let table) = state.styleActions { return stepOutcome(table[key.raw]) }
    return styleOutcome(style, name)
}

/// A style's actions as the interned walk reads them. `table`: by interned key (as
/// `internedActions`), each key's first action in the walk's order (`style["actions"]`, then
/// the nested `style["style"]`'s, 64 levels at most). `walk`: a table cannot stand for the
/// style (a key that is not a Swift `String`, or a Foundation dictionary, a reference its
/// holder can still change, at "actions" or "style"), so every lookup walks it.
enum StyleActions {
    case unbuilt
    case walk
    case table([Int32: CAAction])

    init(_ style: [AnyHashable: Any]) {
        @inline(__always) func isReference(_ v: Any) -> Bool { type(of: v) is AnyClass }
        var table: [Int32: CAAction] = [:]
        var level: [AnyHashable: Any]? = style
        var depth = 0
        while let st = level, depth < 64 {
            if let raw = st["actions"] {
                if isReference(raw) { self = .walk; return }
                // As the walk: a value that is not a dictionary, or not an action, is passed over.
                for (k, v) in raw as? [AnyHashable: Any] ?? [:] {
                    // A Swift `String` exactly: a Foundation string key may hash apart
                    // from the `String` the walk looks up, so such styles are walked.
                    guard type(of: k.base) == String.self, let name = k.base as? String else { self = .walk; return }
                    let key = KeyInterner.id(name).raw
                    if table[key] == nil, let action = v as? CAAction { table[key] = action }
                }
            }
            guard let next = st["style"] else { break }
            if isReference(next) { self = .walk; return }
            level = next as? [AnyHashable: Any]
            depth += 1
        }
        self = .table(table)
    }
}

/// Step 3, walked: `style["actions"][key]`, then `style["style"]` recursively (bounded depth,
/// so a style that contains itself cannot loop forever).
func styleOutcome(_ style: [AnyHashable: Any]?, _ name: String) -> ActionOutcome? {
    var s = style
    var depth = 0
    while let st = s, depth < 64 {
        if let actions = st["actions"] as? [AnyHashable: Any], let a = actions[name] {
            if let action = a as? CAAction { return stepOutcome(action) }
        }
        s = st["style"] as? [AnyHashable: Any]
        depth += 1
    }
    return nil
}

struct ChainLookup: ActionLookup {
    func lookup(_ layer: CALayer, _ key: PropertyID) -> ActionOutcome {
        // The class's own action(forKey:) first, when it overrides it; the flags are read
        // again for the built-in step (a value held across the steps' calls cost more).
        if _slowPath(layer.engine.layers.flags[Int(layer.row)] & LayerFlags.overridesAction != 0),
           let o = overrideOutcome(layer, key) { return o }
        let name = KeyInterner.name(key)
        if let d = layer.delegate, let o = stepOutcome(d.action(for: layer, forKey: name)) { return o }
        if let actions = layer.actions, let o = stepOutcome(actions[name]) { return o }
        if let o = styleOutcome(layer.style, name) { return o }
        if let o = stepOutcome(type(of: layer).defaultAction(forKey: name)) { return o }
        return builtInOutcome(layer, key, flags: layer.engine.layers.flags[Int(layer.row)])
    }
}

struct InternedLookup: ActionLookup {
    @inline(__always)
    func lookup(_ layer: CALayer, _ key: PropertyID) -> ActionOutcome {
        let f = layer.engine.layers.flags[Int(layer.row)]
        if _fastPath(f & LayerFlags.lookupSteps == 0) { return builtInOutcome(layer, key, flags: f) }
        if Self.hostViewAnswersNSNull(layer, f) { return .none }
        return walk(layer, key, f)
    }

    /// The walk's first answer for a view's layer, inline: a host view whose layer's class
    /// keeps `action(forKey:)`, outside any animation block, answers NSNull (`walk` says why).
    /// The layer of every view is this case.
    @inline(__always)
    static func hostViewAnswersNSNull(_ layer: CALayer, _ f: UInt16) -> Bool {
        f & (LayerFlags.hostView | LayerFlags.overridesAction) == LayerFlags.hostView && View.answersNSNull(layer)
    }

    /// The chain from step 1, after the class's own `action(forKey:)` when it overrides it.
    @inline(never)
    func walk(_ layer: CALayer, _ key: PropertyID, _ f: UInt16) -> ActionOutcome {
        if f & LayerFlags.overridesAction != 0, let o = overrideOutcome(layer, key) { return o }
        // A host view outside any animation block answers NSNull for every key: the answer
        // is known without the call, its key name, the NSNull it allocates or loading the weak
        // delegate (a view that is gone clears the flag: `View.deinit`).
        if f & LayerFlags.hostView != 0 && View.answersNSNull(layer) { return .none }
        let name = KeyInterner.name(key)
        if f & LayerFlags.hasDelegate != 0, let d = layer.delegate,
           let o = stepOutcome(d.action(for: layer, forKey: name)) { return o }
        if f & LayerFlags.hasActions != 0, let o = stepOutcome(layer.internedActions[key.raw]) { return o }
        if f & LayerFlags.hasStyle != 0, let o = styleOutcome(layer, key, name) { return o }
        if f & LayerFlags.customClass != 0,
           let o = stepOutcome(type(of: layer).defaultAction(forKey: name)) { return o }
        return builtInOutcome(layer, key, flags: f)
    }
}

/// Memo of `defaultAction(forKey:)` + built-in outcomes per (layer class, key).
final class ActionCache {
    /// Bumped by `CALayer.invalidateActionCache()`; entries of older generations are stale.
    @exclusivity(unchecked) var generation: UInt64 = 0
    @exclusivity(unchecked) private var memo: [ObjectIdentifier: (UInt64, [Int32: ActionOutcome])] = [:]

    func outcome(_ layer: CALayer, _ key: PropertyID, flags: UInt16) -> ActionOutcome {
        let cls = ObjectIdentifier(type(of: layer))
        if let (gen, table) = memo[cls], gen == generation, let o = table[key.raw] { return o }
        let name = KeyInterner.name(key)
        let o = stepOutcome(type(of: layer).defaultAction(forKey: name)) ?? builtInOutcome(layer, key, flags: flags)
        var entry = memo[cls].flatMap { $0.0 == generation ? $0.1 : nil } ?? [:]
        entry[key.raw] = o
        memo[cls] = (generation, entry)
        return o
    }
}

struct CachedLookup: ActionLookup {
    @inline(__always)
    func lookup(_ layer: CALayer, _ key: PropertyID) -> ActionOutcome {
        let context = layer.engine
        let f = context.layers.flags[Int(layer.row)]
        // A plain layer first, in one test, as the interned walk does (two, nested, measured
        // 1.24 ns a built-in lookup against its 0.97). A class that overrides
        // `action(forKey:)` is a custom class (`CALayer.register`): `lookupSteps` covers it.
        if _fastPath(f & LayerFlags.lookupSteps == 0) { return builtInOutcome(layer, key, flags: f) }
        if InternedLookup.hostViewAnswersNSNull(layer, f) { return .none }
        if f & (LayerFlags.hasDelegate | LayerFlags.hasActions | LayerFlags.hasStyle | LayerFlags.overridesAction) == 0 {
            return context.actionCache.outcome(layer, key, flags: f)
        }
        return InternedLookup().walk(layer, key, f)
    }
}

extension ActionLookupStrategy {
    /// Runs this strategy's walk (a switch, not an existential call). Transparent, not
    /// `@inline(__always)`: with the three strategies' step 5 inlined, the optimiser kept it
    /// out of line in the setters all the same (commit/implicit/1000: 642.6 instructions a
    /// change, against 612.6 inlined).
    @_transparent
    func outcome(_ layer: CALayer, _ key: PropertyID) -> ActionOutcome {
        switch self {
        case .interned: return InternedLookup().lookup(layer, key)
        case .cached: return CachedLookup().lookup(layer, key)
        case .chain: return ChainLookup().lookup(layer, key)
        }
    }

    /// The chain itself, for the base `action(forKey:)`: the layer's own override is not
    /// asked for this layer and key (it is the caller), whatever the chain's steps do.
    func chainOutcome(_ layer: CALayer, _ key: PropertyID) -> ActionOutcome {
        let context = layer.engine
        let outer = context.chainWalk
        context.chainWalk = (layer.row, key)
        defer { context.chainWalk = outer }
        return outcome(layer, key)
    }
}

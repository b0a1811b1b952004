/// The layer objects' side of an engine: the state the faces keep per engine (presentation
/// copies, display work) and the moments the owner tells them of. The faces implement it
/// (`Layers/LayerObjects.swift`) and make it with the engine's first layer; the owner holds it
/// as this protocol, so it names no layer object. Every row belongs to a layer made after it,
/// so whatever the owner asks about a row, it asks an existing side.
protocol LayerSide: AnyObject {
    /// What is presented is about to change, or rows are about to be freed: live copies take
    /// their values now. `dying`: a row whose layer is going away (its copies keep no
    /// reference to it), or `EngineContext.everyRowDying`.
    func presentedValuesWillChange(dying: Int32, in engine: EngineContext)
    /// The outermost transaction is about to commit: layers marked for display draw (their
    /// drawing joins the commit).
    func outermostCommitWillPop(_ engine: EngineContext)
    /// A frame ends: layers drawing animated keys draw.
    func frameWillEnd()
    /// The engine's thread ends: let go of everything kept (a kept copy refers to its
    /// engine and would keep it alive).
    func engineWillEnd(_ engine: EngineContext)
    /// The outermost commit: object properties and custom keys changed in it (`ChangeLog.objects`,
    /// row and key) become the values the layers show, but where an animation drives the
    /// property (what it showed stays until a frame evaluates it).
    func commitObjects(_ objects: [(row: Int32, key: Int32)], in engine: EngineContext)
    /// The last animation of object property `property` of `row` was removed: the layer
    /// shows its model value at once.
    func objectAnimationRemoved(row: Int32, _ property: PropertyID, in engine: EngineContext)
    /// The last animation of custom key `key` of `row` was removed: the model value shows.
    func customAnimationRemoved(row: Int32, key: Int32, in engine: EngineContext)
    /// An object property's animated value is dropped at this frame (its replacement was
    /// removed before it ran): the committed value shows.
    func animatedObjectRefreshed(row: Int32, _ property: PropertyID, in engine: EngineContext)
    /// The sublayers a going layer held (`EngineContext.orphans`) are let go, one at a time
    /// (releasing them from inside their parent's deinit would recurse once per level and
    /// overflow the stack on a deep tree).
    func releaseOrphans(_ engine: EngineContext)
}

extension EngineContext {
    /// `dying` for "layers released on other threads may be gone": no copy refers to its
    /// model layer afterwards.
    static let everyRowDying: Int32 = -2

    /// What is presented is about to change (or rows are about to be freed): every live copy
    /// held outside the engine takes its values (see `LayerSide`). One load when there are
    /// none.
    @inline(__always)
    func freezeLiveCopies(dying: Int32 = -1) {
        if _slowPath(hasLiveCopies) { layerSide.unsafelyUnwrapped.presentedValuesWillChange(dying: dying, in: self) }
    }
}

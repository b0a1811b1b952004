/// The layer objects' side of an engine: the state the faces keep per engine (presentation
/// copies, display work) and the moments the owner tells them of. The faces implement it
/// (`Layers/LayerObjects.swift`) and make it on first use; the owner holds it as this
/// protocol, so it names no layer object, and asks it only when it exists (an engine whose
/// layers never made a copy or drew keeps none).
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

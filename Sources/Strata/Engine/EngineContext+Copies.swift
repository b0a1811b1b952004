import Foundation

/// Presentation copies the engine keeps track of: frozen before what they show changes,
/// recycled when nobody holds them.
extension EngineContext {
    /// Keeps a new presentation copy until the engine next changes what is presented.
    /// Copies nobody else holds are taken back on the way (every 4,096 new ones at most),
    /// so a loop reading `presentation()` of every layer holds a bounded number.
    @inline(__always)
    func registerLiveCopy(_ copy: CALayer) {
        liveCopies.push(copy)
        if _slowPath(liveCopies.count >= liveCopiesSweepAt) { sweepLiveCopies() }
    }

    @inline(never)
    private func sweepLiveCopies() {
        var i = 0
        while i < liveCopies.count {
            if liveCopies.isUnique(at: i) { recycle(liveCopies.remove(at: i)) } else { i += 1 }
        }
        // Held copies stay; the next sweep waits until as many new ones came.
        liveCopiesSweepAt = max(4_096, 2 * liveCopies.count)
    }

    /// Up to 4,096 copies of each of the engine's own classes that nobody held are kept for
    /// the next `presentation()` calls (custom subclasses' copies are let go: their
    /// `init(layer:)` must run; so are copies whose holder set a delegate, actions or style).
    private func recycle(_ copy: consuming CALayer) {
        let cls = type(of: copy)
        guard copy.presentedRow >= 0, !copy.copyChanged else { return }
        if cls == CALayer.self {
            if recycledLayers.count < 4_096 { recycledLayers.push(copy) }
        } else if cls == CAShapeLayer.self {
            if recycledShapeLayers.count < 4_096 { recycledShapeLayers.push(copy) }
        }
    }

    /// A copy kept by `recycle`, or nil.
    @inline(__always)
    func recycledCopy(shape: Bool) -> CALayer? {
        shape ? recycledShapeLayers.pop() : recycledLayers.pop()
    }

    /// `dying` for "layers released on other threads may be gone": no copy refers to its
    /// model layer afterwards.
    static let everyRowDying: Int32 = -2

    /// What is presented is about to change (or rows are about to be freed): every live copy
    /// held outside the engine takes its values now; the others are kept for reuse. `dying`:
    /// a row whose layer is going away (its copies keep no reference to it).
    @inline(__always)
    func freezeLiveCopies(dying: Int32 = -1) {
        if _slowPath(!liveCopies.isEmpty) { freezeLiveCopiesNow(dying: dying) }
    }

    /// Lets go of every copy the engine keeps (its thread is ending): copies held elsewhere
    /// take their values first. A copy refers to its engine, so kept ones would keep it alive.
    func releaseKeptCopies() {
        freezeLiveCopies()
        while recycledLayers.pop() != nil {}
        while recycledShapeLayers.pop() != nil {}
    }

    @inline(never)
    private func freezeLiveCopiesNow(dying: Int32) {
        while var c = liveCopies.pop() {
            if isKnownUniquelyReferenced(&c) {
                recycle(c)
            } else {
                c.freezePresentation(modelAlive: dying != EngineContext.everyRowDying && c.presentedRow != dying)
            }
        }
        liveCopiesSweepAt = 4_096
    }
}

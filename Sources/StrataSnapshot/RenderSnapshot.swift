import Foundation
import StrataGeometry

extension RenderSnapshot {
    /// Opacities, alphas and border widths at or below this draw nothing: the layer is
    /// culled, the background, border or shadow not flagged. An animation that ends at 0 can
    /// land a rounding error away from it (a paced keyframe curve gives 2.8e-17), which is no
    /// visible layer, and both engines must agree on what is drawn.
    @inlinable public static var invisible: Float { 1e-9 }
}

/// What a render item carries besides its columns' values.
public struct RenderItemFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The layer clips its sublayers (and contents) to its bounds and corner radius: items
    /// whose `clips` entry names this item are clipped by it.
    public static let masksToBounds = RenderItemFlags(rawValue: 1 << 0)
    /// A `CAShapeLayer`: its `shapeIndices` entry indexes the shape columns.
    public static let shape = RenderItemFlags(rawValue: 1 << 1)
    /// A background colour with alpha above `RenderSnapshot.invisible`.
    public static let background = RenderItemFlags(rawValue: 1 << 2)
    /// A border: width and its colour's alpha above `RenderSnapshot.invisible`.
    public static let border = RenderItemFlags(rawValue: 1 << 3)
    /// A shadow: opacity and its colour's alpha above `RenderSnapshot.invisible`.
    public static let shadow = RenderItemFlags(rawValue: 1 << 4)
    /// The layer has `contents` (what they are is the layer's: `RenderSnapshot` carries no
    /// images).
    public static let contents = RenderItemFlags(rawValue: 1 << 5)
    /// The layer has a `mask` layer.
    public static let mask = RenderItemFlags(rawValue: 1 << 6)
    /// The layer has a `shadowPath`.
    public static let shadowPath = RenderItemFlags(rawValue: 1 << 7)
    /// The world transform has perspective (`RenderTransform.isAffine` is false): a 2-D
    /// drawing of its affine part is approximate.
    public static let perspective = RenderItemFlags(rawValue: 1 << 8)
}

/// The render-ready frame: every visible layer of a tree after `render()`, as
/// struct-of-arrays columns a GPU renderer can upload as they are, and the order to draw them in.
///
/// **Items and slots.** Each visible layer is one item, held in a *slot*: its row of every
/// column. `drawOrder` lists the `count` items' slots in painter's order; the columns hold
/// `slotCount` rows (at least `count`). A slot keeps its item from one snapshot to the next
/// while the layer stays visible, so a renderer can upload only what changed. Slots that hold
/// no item (a subtree the tree moved or removed since the last full pass) have a
/// `layerIndices` entry of -1 and no flags; `drawOrder` never lists them. After a full pass
/// the order is the slots themselves (`drawOrder[k] == k`).
///
/// **Order.** A layer is drawn before its sublayers; sublayers in ascending `zPosition`,
/// ties in sublayer order. The item at draw position `k` (slot `drawOrder[k]`) has a subtree
/// of `subtreeSizes[drawOrder[k]]` items: draw positions `k ..< k + subtreeSizes[slot]`. Its
/// parent item is the slot `parents[slot]` (-1 for the root).
///
/// **Culling.** A layer is left out, with its whole subtree, when it is hidden, when its
/// presentation opacity is 0 or below (or within `invisible` of 0), when it is not double-sided and faces away (its
/// sublayers are flattened into its plane), when it has not been committed yet, and when its
/// world geometry is not finite (reported through `nonFiniteLayers`).
///
/// **Geometry.** `transforms[s]` maps the layer's bounds coordinates (`bounds[s]`: x, y,
/// width, height) to the target (the root layer's superlayer space): anchor point, position,
/// zPosition, transform, and every ancestor's, with each ancestor's `sublayerTransform`
/// applied about its anchor point. `opacities[s]` is the product of the layer's and its
/// ancestors' opacities. `clips[s]` names the slot of the nearest ancestor item that masks to
/// bounds (its bounds and corner radius, in its own space), or -1; that item's own `clips`
/// entry continues the chain.
///
/// **Lifetime.** The columns are spans over memory the snapshot owns. They stay valid, and
/// unchanged, until the snapshot is taken again (the next `snapshot()` of its renderer);
/// keep the `RenderSnapshot` object to keep the memory. Colours are straight RGBA in 0...1;
/// a nil colour is (0, 0, 0, 0).
///
///     renderer.render()
///     let frame = renderer.snapshot()
///     for slot in frame.drawOrder.lazy.map(Int.init) where frame.flags[slot].contains(.background) {
///         draw(frame.bounds[slot], frame.transforms[slot], frame.backgroundColors[slot] * frame.opacities[slot])
///     }
public final class RenderSnapshot {
    /// Items (visible layers) in the frame: the length of `drawOrder`.
    @exclusivity(unchecked) public package(set) var count = 0
    /// Rows of the item columns (`layerIndices` to `shapeIndices`): slots, at least `count`.
    /// Slots `drawOrder` does not list hold no item.
    @exclusivity(unchecked) public package(set) var slotCount = 0
    /// Shape layers among them (rows of the shape columns).
    @exclusivity(unchecked) public package(set) var shapeCount = 0
    /// Media time of the frame the snapshot shows.
    public package(set) var time: Double = 0
    /// Snapshots taken into this object so far (1 after the first).
    public package(set) var sequence = 0
    /// Whether this snapshot was a full pass (tree, order and every item recomputed) rather
    /// than an update of the items that changed since the last one.
    public package(set) var wasFullPass = true
    /// Items whose values were computed for this snapshot (all of them after a full pass).
    public package(set) var recomputedItems = 0
    /// Items an update took out of the order or put in (subtrees the tree moved, removed or
    /// added since the last snapshot, spliced without a full pass); 0 after a full pass.
    @exclusivity(unchecked) public package(set) var splicedItems = 0
    /// Layers left out because their world geometry was not finite (NaN or beyond Float).
    public package(set) var nonFiniteLayers = 0
    /// Bytes the last full pass read and wrote (input columns, tree, output columns): what a
    /// bandwidth floor for it must stream.
    public package(set) var fullPassBytes = 0

    @exclusivity(unchecked) package var _layerIndices = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) package var _parents = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) package var _subtreeSizes = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) package var _drawOrder = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) package var _clips = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) package var _transforms = SnapshotBuffer<RenderTransform>()
    @exclusivity(unchecked) package var _opacities = SnapshotBuffer<Float>()
    @exclusivity(unchecked) package var _bounds = SnapshotBuffer<SIMD4<Float>>()
    @exclusivity(unchecked) package var _cornerRadii = SnapshotBuffer<Float>()
    @exclusivity(unchecked) package var _backgroundColors = SnapshotBuffer<SIMD4<Float>>()
    @exclusivity(unchecked) package var _borderColors = SnapshotBuffer<SIMD4<Float>>()
    @exclusivity(unchecked) package var _borderWidths = SnapshotBuffer<Float>()
    @exclusivity(unchecked) package var _shadowColors = SnapshotBuffer<SIMD4<Float>>()
    /// (offset width, offset height, radius, opacity)
    @exclusivity(unchecked) package var _shadows = SnapshotBuffer<SIMD4<Float>>()
    @exclusivity(unchecked) package var _flags = SnapshotBuffer<RenderItemFlags>()
    @exclusivity(unchecked) package var _shapeIndices = SnapshotBuffer<Int32>()

    @exclusivity(unchecked) package var _shapeItems = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) package var _fillColors = SnapshotBuffer<SIMD4<Float>>()
    @exclusivity(unchecked) package var _strokeColors = SnapshotBuffer<SIMD4<Float>>()
    /// (lineWidth, strokeStart, strokeEnd, miterLimit)
    @exclusivity(unchecked) package var _strokes = SnapshotBuffer<SIMD4<Float>>()
    @exclusivity(unchecked) package var _lineDashPhases = SnapshotBuffer<Float>()
    /// Each shape's path (nil: none), by shape index.
    @exclusivity(unchecked) package var _paths: [CGPath?] = []

    /// Answers `layerIndices`: the engine's object that made the snapshot.
    package weak var source: AnyObject?

    /// An empty snapshot; engines fill it.
    package init() {}

    /// Room for `n` items, keeping the first `keep`.
    package func reserveItems(_ n: Int, keeping keep: Int) {
        _layerIndices.reserve(n, keeping: keep); _parents.reserve(n, keeping: keep)
        _subtreeSizes.reserve(n, keeping: keep); _clips.reserve(n, keeping: keep)
        _drawOrder.reserve(n, keeping: keep)
        _transforms.reserve(n, keeping: keep); _opacities.reserve(n, keeping: keep)
        _bounds.reserve(n, keeping: keep); _cornerRadii.reserve(n, keeping: keep)
        _backgroundColors.reserve(n, keeping: keep); _borderColors.reserve(n, keeping: keep)
        _borderWidths.reserve(n, keeping: keep); _shadowColors.reserve(n, keeping: keep)
        _shadows.reserve(n, keeping: keep); _flags.reserve(n, keeping: keep)
        _shapeIndices.reserve(n, keeping: keep)
    }

    /// Room for `n` shapes, keeping the first `keep`.
    package func reserveShapes(_ n: Int, keeping keep: Int) {
        _shapeItems.reserve(n, keeping: keep); _fillColors.reserve(n, keeping: keep)
        _strokeColors.reserve(n, keeping: keep); _strokes.reserve(n, keeping: keep)
        _lineDashPhases.reserve(n, keeping: keep)
        if _paths.count < n { _paths.append(contentsOf: repeatElement(nil, count: n - _paths.count)) }
    }

    /// The first `count` slots in draw order (what a full pass makes): `drawOrder[k] == k`,
    /// and `slotCount == count`.
    package func orderSlotsAsDrawn() {
        // (The order's buffer may be smaller than the other columns': a splice swaps it.)
        _drawOrder.reserve(count, keeping: 0)
        let o = _drawOrder.base
        for k in 0..<count { o[k] = Int32(truncatingIfNeeded: k) }
        slotCount = count
        splicedItems = 0
    }

    /// Bytes one item's columns take (a full pass writes this much per item).
    package static let bytesPerItem = 6 * MemoryLayout<Int32>.stride + MemoryLayout<RenderTransform>.stride
        + 3 * MemoryLayout<Float>.stride + 5 * MemoryLayout<SIMD4<Float>>.stride + MemoryLayout<RenderItemFlags>.stride

    /// Bytes one shape's columns take.
    package static let bytesPerShape = MemoryLayout<Int32>.stride + 3 * MemoryLayout<SIMD4<Float>>.stride
        + MemoryLayout<Float>.stride

    // MARK: the columns

    /// The items' slots in painter's order (`count` entries): draw `drawOrder[0]` first.
    public var drawOrder: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: _drawOrder.base, count: count) }
    /// The engine's index of each slot's layer (its row in Strata's layer store), -1 for a
    /// slot holding no item; the engine's `layer(at:)` turns a slot into its layer.
    public var layerIndices: UnsafeBufferPointer<Int32> { span(_layerIndices.base) }
    /// Each item's parent item (its slot), -1 for the root.
    public var parents: UnsafeBufferPointer<Int32> { span(_parents.base) }
    /// Items in each item's subtree, itself included: the item at draw position `k` has
    /// its subtree at draw positions `k ..< k + subtreeSizes[drawOrder[k]]`.
    public var subtreeSizes: UnsafeBufferPointer<Int32> { span(_subtreeSizes.base) }
    /// The slot of the nearest ancestor item that masks to bounds (clipping this item), or -1.
    public var clips: UnsafeBufferPointer<Int32> { span(_clips.base) }
    /// World transforms (single precision, `CATransform3D` convention).
    public var transforms: UnsafeBufferPointer<RenderTransform> { span(_transforms.base) }
    /// World opacities: the product of the layer's and its ancestors' (each clamped to 0...1).
    public var opacities: UnsafeBufferPointer<Float> { span(_opacities.base) }
    /// Bounds in the layer's own space: (x, y, width, height).
    public var bounds: UnsafeBufferPointer<SIMD4<Float>> { span(_bounds.base) }
    public var cornerRadii: UnsafeBufferPointer<Float> { span(_cornerRadii.base) }
    public var backgroundColors: UnsafeBufferPointer<SIMD4<Float>> { span(_backgroundColors.base) }
    public var borderColors: UnsafeBufferPointer<SIMD4<Float>> { span(_borderColors.base) }
    public var borderWidths: UnsafeBufferPointer<Float> { span(_borderWidths.base) }
    public var shadowColors: UnsafeBufferPointer<SIMD4<Float>> { span(_shadowColors.base) }
    /// Shadows: (offset width, offset height, radius, opacity).
    public var shadows: UnsafeBufferPointer<SIMD4<Float>> { span(_shadows.base) }
    public var flags: UnsafeBufferPointer<RenderItemFlags> { span(_flags.base) }
    /// Each item's row in the shape columns, or -1.
    public var shapeIndices: UnsafeBufferPointer<Int32> { span(_shapeIndices.base) }

    /// The item of each shape.
    public var shapeItems: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: _shapeItems.base, count: shapeCount) }
    public var fillColors: UnsafeBufferPointer<SIMD4<Float>> { UnsafeBufferPointer(start: _fillColors.base, count: shapeCount) }
    public var strokeColors: UnsafeBufferPointer<SIMD4<Float>> { UnsafeBufferPointer(start: _strokeColors.base, count: shapeCount) }
    /// Strokes: (lineWidth, strokeStart, strokeEnd, miterLimit).
    public var strokes: UnsafeBufferPointer<SIMD4<Float>> { UnsafeBufferPointer(start: _strokes.base, count: shapeCount) }
    public var lineDashPhases: UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: _lineDashPhases.base, count: shapeCount) }
    /// The path of shape `s` (nil when the shape layer has none).
    public func path(ofShape s: Int) -> CGPath? { s >= 0 && s < shapeCount ? _paths[s] : nil }

    @inline(__always)
    private func span<T>(_ base: UnsafeMutablePointer<T>) -> UnsafeBufferPointer<T> {
        UnsafeBufferPointer(start: base, count: slotCount)
    }

    /// The item in slot `i` gathered into one value (for tools and tests; renderers read the
    /// columns). `item(drawOrder[k])` is the k-th item drawn.
    public func item(_ i: Int) -> RenderItem {
        precondition(i >= 0 && i < slotCount, "RenderSnapshot.item(\(i)): \(slotCount) slots")
        let s = Int(_shapeIndices[i])
        return RenderItem(
            layerIndex: Int(_layerIndices[i]), parent: Int(_parents[i]), subtreeSize: Int(_subtreeSizes[i]),
            clip: Int(_clips[i]), transform: _transforms[i], opacity: _opacities[i], bounds: _bounds[i],
            cornerRadius: _cornerRadii[i], backgroundColor: _backgroundColors[i], borderColor: _borderColors[i],
            borderWidth: _borderWidths[i], shadowColor: _shadowColors[i],
            shadowOffset: SIMD2(_shadows[i].x, _shadows[i].y), shadowRadius: _shadows[i].z,
            shadowOpacity: _shadows[i].w, flags: _flags[i],
            shape: s >= 0 ? RenderShape(fillColor: _fillColors[s], strokeColor: _strokeColors[s],
                                        lineWidth: _strokes[s].x, strokeStart: _strokes[s].y,
                                        strokeEnd: _strokes[s].z, miterLimit: _strokes[s].w,
                                        lineDashPhase: _lineDashPhases[s], path: _paths[s]) : nil)
    }
}

extension RenderSnapshot {
    /// Each slot's draw position, -1 for a slot holding no item (`slotCount` entries).
    public func drawPositions() -> [Int32] {
        var at = [Int32](repeating: -1, count: slotCount)
        for (k, slot) in drawOrder.enumerated() { at[Int(slot)] = Int32(k) }
        return at
    }

    /// The items in draw order, each `parent` and `clip` a draw position rather than a slot:
    /// what a full pass's slots are. Two snapshots of one frame give equal arrays however
    /// their slots were given out (for tools and tests: renderers read the columns).
    public func itemsInDrawOrder() -> [RenderItem] {
        let at = drawPositions()
        return drawOrder.map { slot in
            var it = item(Int(slot))
            if it.parent >= 0 { it.parent = Int(at[it.parent]) }
            if it.clip >= 0 { it.clip = Int(at[it.clip]) }
            return it
        }
    }
}

/// One item of a `RenderSnapshot`, gathered from its columns.
public struct RenderItem: Equatable {
    public var layerIndex: Int
    /// The parent item's slot, -1 for the root.
    public var parent: Int
    /// Items in the subtree, this one included.
    public var subtreeSize: Int
    public var clip: Int
    public var transform: RenderTransform
    public var opacity: Float
    public var bounds: SIMD4<Float>
    public var cornerRadius: Float
    public var backgroundColor: SIMD4<Float>
    public var borderColor: SIMD4<Float>
    public var borderWidth: Float
    public var shadowColor: SIMD4<Float>
    public var shadowOffset: SIMD2<Float>
    public var shadowRadius: Float
    public var shadowOpacity: Float
    public var flags: RenderItemFlags
    public var shape: RenderShape?
}

/// A shape layer's drawing parameters in a `RenderSnapshot`.
public struct RenderShape: Equatable {
    public var fillColor: SIMD4<Float>
    public var strokeColor: SIMD4<Float>
    public var lineWidth: Float
    public var strokeStart: Float
    public var strokeEnd: Float
    public var miterLimit: Float
    public var lineDashPhase: Float
    public var path: CGPath?
}

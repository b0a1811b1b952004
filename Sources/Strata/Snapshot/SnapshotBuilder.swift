import Foundation
import Synchronization

/// Builds a renderer's `RenderSnapshot` from the layer store's presentation columns.
///
/// A **full pass** walks the tree in painter's order (`buildOrder`: one item per visible
/// layer, culling hidden, transparent and uncommitted subtrees), then computes every item's
/// values (`computeItems`: geometry, then style), on two threads for large trees, then
/// drops items the geometry culled (back faces, non-finite values).
///
/// An **update** keeps last snapshot's items and recomputes only what changed: the layers
/// the animation tracks write this frame, and those whose presentation changed otherwise
/// (`LayerStore.changedRows`: commits, snaps, object values). A changed layer's item is
/// recomputed with the geometry of its whole subtree (contiguous in painter's order). Any
/// change the update cannot absorb (the tree, a layer hidden or shown, a zPosition, a face
/// turned, a dropped log) makes it a full pass.
///
/// - Complexity: full pass O(n) in the tree's visible layers (plus sorting siblings with
///   distinct zPositions); update O(animated + changed + their subtrees + n / 64).
final class SnapshotBuilder {
    unowned let engine: EngineContext
    let output = RenderSnapshot()
    /// This builder's claim on the layer store's change log (unique per builder).
    let token: UInt64

    /// What the items were built from: a different root, tree version or dropped log
    /// means a full pass.
    @exclusivity(unchecked) private var root: Int32 = -1
    @exclusivity(unchecked) private var treeVersion: UInt64 = .max
    @exclusivity(unchecked) private var dropped = -1
    @exclusivity(unchecked) private var layerCapacity = 0

    /// Row -> item (or `notInTree`, `culled`): rows beyond `itemOfRow`'s size are not in the tree.
    @exclusivity(unchecked) private var itemOfRow = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) private var itemOfRowCount = 0
    /// Rows culled by the order pass or the geometry (their `itemOfRow` entry is `culled`).
    @exclusivity(unchecked) private var culledRows: [Int32] = []
    /// Parent items (ascending) of layers the geometry culled (facing away, not finite):
    /// whether such a layer shows depends on its ancestors, so an update that recomputes
    /// one of them becomes a full pass.
    @exclusivity(unchecked) private var geometryCulledParents: [Int32] = []
    /// zPosition each item was ordered by.
    @exclusivity(unchecked) private var orderZ = SnapshotBuffer<Float>()
    /// Items to recompute in an update: one bit per item.
    @exclusivity(unchecked) private var marks = SnapshotBuffer<UInt64>()
    @exclusivity(unchecked) private var stack: [Int64] = []
    @exclusivity(unchecked) private var siblings: [(z: Double, order: Int32, row: Int32)] = []
    /// Items the last `computeItems` call flagged for removal (worker's and caller's).
    @exclusivity(unchecked) private var culledByWorker = 0
    /// Items of the last order with each `SnapshotHint` bit (for the pass's byte count).
    @exclusivity(unchecked) private var hintedItems = SnapshotBuffer<Int>(capacity: 8)

    static let notInTree: Int32 = -1
    static let culled: Int32 = -2
    /// Internal flag bit: the geometry culled the item (removed before the snapshot is seen).
    static let cullBit: UInt32 = 1 << 31
    /// Items from which a full pass splits its values across two threads.
    static let splitThreshold = 32_768

    private static let tokens = Atomic<UInt64>(0)

    init(engine: EngineContext) {
        self.engine = engine
        token = SnapshotBuilder.tokens.wrappingAdd(1, ordering: .relaxed).newValue
        output.source = self
    }

    /// The snapshot of `rootLayer`'s tree as presented now, at media time `time`.
    func snapshot(root rootLayer: CALayer?, time: Double) -> RenderSnapshot {
        let layers = engine.layers
        let rootRow = rootLayer?.row ?? -1
        let owned = layers.snapshotOwner == token
        let full = !owned || rootRow != root || layers.treeVersion != treeVersion
            || layers.changedRowsDropped != dropped || layers.capacity != layerCapacity
        output.time = time
        output.sequence += 1
        if full || !update() {
            layers.snapshotOwner = token
            layers.changedRows.removeAll(keepingCapacity: true)
            dropped = layers.changedRowsDropped
            fullPass(rootRow)
        } else {
            layers.changedRows.removeAll(keepingCapacity: true)
        }
        return output
    }

    // MARK: full pass

    private func fullPass(_ rootRow: Int32) {
        let layers = engine.layers
        root = rootRow
        treeVersion = layers.treeVersion
        layerCapacity = layers.capacity
        let inputs = SnapshotInputs(layers)
        buildOrder(rootRow, inputs)
        let n = output.count
        output.wasFullPass = true
        output.recomputedItems = n
        output.fullPassBytes = inputs.fullPassBytes(items: n, shapes: output.shapeCount, hinted: hintedItems.base)
        var culled = 0
        if engine.renderThreads > 1 && n >= SnapshotBuilder.splitThreshold {
            // Two threads: the worker takes the upper half. The ancestors of its first item
            // lie below it and are its items' only dependencies there: computed first.
            let mid = n / 2
            var chain: [Int] = []
            var a = Int(output._parents[mid])
            while a >= 0 { chain.append(a); a = Int(output._parents[a]) }
            for a in chain.reversed() { culled &+= computeItems(a..<(a + 1), inputs, skipAncestorsOf: -1) }
            let worker = engine.renderWorker ?? { let w = RenderWorker(); engine.renderWorker = w; return w }()
            worker.start(snapshot: self, items: mid..<n)
            culled &+= computeItems(0..<mid, inputs, skipAncestorsOf: mid)
            worker.wait()
            culled &+= culledByWorker
        } else {
            culled = computeItems(0..<n, inputs, skipAncestorsOf: -1)
        }
        gatherPaths(inputs)
        output.nonFiniteLayers = 0
        if culled > 0 { removeCulledItems() }
    }

    /// The worker's half of a split full pass.
    func computeOnWorker(_ items: Range<Int>) {
        culledByWorker = computeItems(items, SnapshotInputs(engine.layers), skipAncestorsOf: -1)
    }

    /// Painter's order: a depth-first walk from the root, each layer before its sublayers,
    /// sublayers by ascending zPosition (stable); hidden, transparent and uncommitted layers
    /// are culled with their subtrees. Writes rows, parents, subtree ends, local opacities,
    /// shape indices and the row -> item map.
    private func buildOrder(_ rootRow: Int32, _ inputs: SnapshotInputs) {
        let layers = engine.layers
        let out = output
        // Forget the last order's map.
        for i in 0..<out.count { itemOfRow[Int(out._layerIndices[i])] = SnapshotBuilder.notInTree }
        for r in culledRows where Int(r) < itemOfRowCount { itemOfRow[Int(r)] = SnapshotBuilder.notInTree }
        culledRows.removeAll(keepingCapacity: true)
        geometryCulledParents.removeAll(keepingCapacity: true)
        if itemOfRowCount < layers.capacity {
            itemOfRow.reserve(layers.capacity, keeping: itemOfRowCount)
            (itemOfRow.base + itemOfRowCount).initialize(repeating: SnapshotBuilder.notInTree, count: layers.capacity - itemOfRowCount)
            itemOfRowCount = layers.capacity
        }
        var n = 0, shapes = 0
        out.count = 0
        guard rootRow >= 0 else { out.shapeCount = 0; return }
        let flags = inputs.flags, firstChild = layers.firstChild.base, lastChild = layers.lastChild.base
        let prev = layers.prevSibling.base, next = layers.nextSibling.base
        let hints = inputs.hints
        var capacity = out._layerIndices.capacity
        for b in 0..<8 { hintedItems[b] = 0 }
        stack.removeAll(keepingCapacity: true)
        stack.append(Int64(rootRow) << 32 | Int64(UInt32(bitPattern: -1)))
        while let top = stack.popLast() {
            let r = Int(top >> 32), parentItem = Int32(truncatingIfNeeded: top)
            let f = flags[r], h = hints[r]
            let opacity = inputs.opacity.map { $0[r] } ?? 1
            let hidden = hinted(inputs.hidden, h, SnapshotHint.clipping).map { $0[r] >= 0.5 } ?? false
            // `!(opacity > 0)` also culls NaN.
            if f & LayerFlags.committed == 0 || hidden || !(opacity > 0) {
                itemOfRow[r] = SnapshotBuilder.culled
                culledRows.append(Int32(r))
                continue
            }
            if n == capacity {
                out.reserveItems(2 * n, keeping: n)
                orderZ.reserve(2 * n, keeping: n)
                capacity = out._layerIndices.capacity
            }
            let i = n
            n += 1
            out._layerIndices[i] = Int32(r)
            out._parents[i] = parentItem
            out._subtreeEnds[i] = Int32(i + 1)
            itemOfRow[r] = Int32(i)
            orderZ[i] = Float(hinted(inputs.zPosition, h, SnapshotHint.zPosition).map { $0[r] } ?? 0)
            if h != 0 { for b in 0..<8 where h & (1 << UInt8(b)) != 0 { hintedItems[b] += 1 } }
            if f & LayerFlags.isShape != 0 {
                if shapes == out._shapeItems.capacity { out.reserveShapes(2 * shapes, keeping: shapes) }
                out._shapeItems[shapes] = Int32(i)
                out._shapeIndices[i] = Int32(shapes)
                shapes += 1
            } else {
                out._shapeIndices[i] = -1
            }
            // Sublayers, pushed last first so the first pops first.
            let me = Int64(i) & 0xffff_ffff
            var c = lastChild[r]
            guard c >= 0 else { continue }
            if let z = inputs.zPosition, hasDistinctZ(firstChild[r], next, z, hints) {
                siblings.removeAll(keepingCapacity: true)
                var k: Int32 = 0
                var s = firstChild[r]
                while s >= 0 {
                    siblings.append((hints[Int(s)] & SnapshotHint.zPosition != 0 ? z[Int(s)] : 0, k, s))
                    k += 1
                    s = next[Int(s)]
                }
                siblings.sort { $0.z != $1.z ? $0.z < $1.z : $0.order < $1.order }
                for e in siblings.reversed() { stack.append(Int64(e.row) << 32 | me) }
            } else {
                while c >= 0 { stack.append(Int64(c) << 32 | me); c = prev[Int(c)] }
            }
        }
        out.count = n
        out.shapeCount = shapes
        if shapes > 0 { out.reserveShapes(shapes, keeping: shapes) }
        // Subtree ends: a child's subtree ends where its parent's may (pre-order).
        var i = n - 1
        while i > 0 {
            let p = Int(out._parents[i])
            if out._subtreeEnds[p] < out._subtreeEnds[i] { out._subtreeEnds[p] = out._subtreeEnds[i] }
            i -= 1
        }
    }

    /// Do the sublayers starting at `first` have zPositions that are not all equal? (Those
    /// without the zPosition hint are at 0.)
    @inline(__always)
    private func hasDistinctZ(_ first: Int32, _ next: UnsafeMutablePointer<Int32>, _ z: UnsafeMutablePointer<Double>,
                              _ hints: UnsafeMutablePointer<UInt8>) -> Bool {
        var z0: Double? = nil
        var s = first
        while s >= 0 {
            let v = hints[Int(s)] & SnapshotHint.zPosition != 0 ? z[Int(s)] : 0
            if let z0 { if v != z0 { return true } } else { z0 = v }
            s = next[Int(s)]
        }
        return false
    }

    /// `column` for a row whose hints have `bit`; nil (the defaults) otherwise.
    @inline(__always)
    private func hinted(_ column: UnsafeMutablePointer<Double>?, _ h: UInt8, _ bit: UInt8) -> UnsafeMutablePointer<Double>? {
        h & bit != 0 ? column : nil
    }

    // MARK: item values

    /// Computes items `range`: geometry (world transform, opacity, clip, bounds), then style
    /// (colours, border, shadow, shape values, flags). Items before `mid` whose subtree
    /// reaches past it (the ancestors of item `mid`) are skipped: already computed. Returns
    /// the items the geometry culled.
    @discardableResult
    func computeItems(_ range: Range<Int>, _ inputs: SnapshotInputs, skipAncestorsOf mid: Int) -> Int {
        let culled = geometry(range, inputs, skipAncestorsOf: mid)
        style(range, inputs)
        return culled
    }

    /// World transforms, opacities, clips and bounds of `range`, in order (a parent item
    /// precedes its children, so its values are ready). Returns the items culled.
    @inline(never)
    private func geometry(_ range: Range<Int>, _ inputs: SnapshotInputs, skipAncestorsOf mid: Int) -> Int {
        let out = output
        let rows = out._layerIndices.base, parents = out._parents.base, ends = out._subtreeEnds.base
        let world = out._transforms.base, opacities = out._opacities.base, clips = out._clips.base
        let bounds = out._bounds.base, flags = out._flags.base, hints = inputs.hints
        var culled = 0
        var cachedParent = -1
        var parentSpace = RenderTransform.identity
        for i in range {
            if i < mid && Int(ends[i]) > mid { continue }
            let r = Int(rows[i]), p = Int(parents[i]), h = hints[r]
            var space = RenderTransform.identity
            var parentOpacity: Float = 1
            var clip: Int32 = -1
            if p >= 0 {
                if p != cachedParent {
                    parentSpace = childSpace(p, Int(rows[p]), inputs)
                    cachedParent = p
                }
                space = parentSpace
                parentOpacity = opacities[p]
                let pr = Int(rows[p])
                let masks = hinted(inputs.masksToBounds, hints[pr], SnapshotHint.clipping).map { $0[pr] >= 0.5 } ?? false
                clip = masks ? Int32(p) : clips[p]
            }
            let b: SIMD4<Double> = inputs.bounds.map { SIMD4($0[4 * r], $0[4 * r + 1], $0[4 * r + 2], $0[4 * r + 3]) } ?? .zero
            let a: SIMD2<Double> = hinted(inputs.anchorPoint, h, SnapshotHint.anchor).map { SIMD2($0[2 * r], $0[2 * r + 1]) } ?? SIMD2(0.5, 0.5)
            let pos: SIMD2<Double> = inputs.position.map { SIMD2($0[2 * r], $0[2 * r + 1]) } ?? .zero
            let az = hinted(inputs.anchorPointZ, h, SnapshotHint.anchor).map { $0[r] } ?? 0
            let z = hinted(inputs.zPosition, h, SnapshotHint.zPosition).map { $0[r] } ?? 0
            // The anchor point in the layer's bounds space.
            let ox = b.x + a.x * b.z, oy = b.y + a.y * b.w
            var m: RenderTransform
            if let t = hinted(inputs.transform, h, SnapshotHint.transform) {
                // T(-anchor) · transform · T(position, z), then the parent's space.
                let q = t + 16 * r
                var r1 = SIMD4(q[0], q[1], q[2], q[3]), r2 = SIMD4(q[4], q[5], q[6], q[7])
                var r3 = SIMD4(q[8], q[9], q[10], q[11]), r4 = SIMD4(q[12], q[13], q[14], q[15])
                r4 -= ox * r1 + oy * r2 + az * r3
                // · T(position, z): each row moves by its w (perspective rows too).
                let move = SIMD4(pos.x, pos.y, z, 0)
                r1 += r1.w * move; r2 += r2.w * move; r3 += r3.w * move; r4 += r4.w * move
                let local = RenderTransform(row1: SIMD4<Float>(r1), row2: SIMD4<Float>(r2), row3: SIMD4<Float>(r3), row4: SIMD4<Float>(r4))
                m = local.concatenating(space)
            } else {
                // A translation: rows 1-3 are the parent's.
                let tx = Float(pos.x - ox), ty = Float(pos.y - oy), tz = Float(z - az)
                m = space
                var r4 = space.row4
                r4.addProduct(SIMD4(repeating: tx), space.row1)
                r4.addProduct(SIMD4(repeating: ty), space.row2)
                r4.addProduct(SIMD4(repeating: tz), space.row3)
                m.row4 = r4
            }
            let own = inputs.opacity.map { $0[r] } ?? 1
            let clamped = own < 0 ? 0 : (own > 1 ? 1 : own)
            let fb = SIMD4<Float>(b)
            world[i] = m
            opacities[i] = parentOpacity * Float(clamped)
            clips[i] = clip
            bounds[i] = fb
            var f = flags[i].rawValue & ~(RenderItemFlags.perspective.rawValue | SnapshotBuilder.cullBit)
            if !m.isAffine { f |= RenderItemFlags.perspective.rawValue }
            // NaN or infinite anywhere propagates into the sum.
            let s = m.row1 + m.row2 + m.row3 + m.row4 + fb
            if !(s.x + s.y + s.z + s.w).isFinite {
                f |= SnapshotBuilder.cullBit
                culled += 1
            } else if let ds = hinted(inputs.doubleSided, h, SnapshotHint.clipping), ds[r] < 0.5, SnapshotBuilder.facesAway(m) {
                f |= SnapshotBuilder.cullBit
                culled += 1
            }
            flags[i] = RenderItemFlags(rawValue: f)
        }
        return culled
    }

    /// The space item p's sublayers are placed in: its world transform, with its
    /// sublayerTransform applied about its anchor point when it has one.
    @inline(__always)
    private func childSpace(_ p: Int, _ row: Int, _ inputs: SnapshotInputs) -> RenderTransform {
        let w = output._transforms[p]
        guard let st = hinted(inputs.sublayerTransform, inputs.hints[row], SnapshotHint.sublayerTransform) else { return w }
        let q = st + 16 * row
        var r1 = SIMD4(q[0], q[1], q[2], q[3]), r2 = SIMD4(q[4], q[5], q[6], q[7])
        var r3 = SIMD4(q[8], q[9], q[10], q[11]), r4 = SIMD4(q[12], q[13], q[14], q[15])
        if r1 == SIMD4(1, 0, 0, 0) && r2 == SIMD4(0, 1, 0, 0) && r3 == SIMD4(0, 0, 1, 0) && r4 == SIMD4(0, 0, 0, 1) { return w }
        let b: SIMD4<Double> = inputs.bounds.map { SIMD4($0[4 * row], $0[4 * row + 1], $0[4 * row + 2], $0[4 * row + 3]) } ?? .zero
        let ah = inputs.hints[row]
        let a: SIMD2<Double> = hinted(inputs.anchorPoint, ah, SnapshotHint.anchor).map { SIMD2($0[2 * row], $0[2 * row + 1]) } ?? SIMD2(0.5, 0.5)
        let az = hinted(inputs.anchorPointZ, ah, SnapshotHint.anchor).map { $0[row] } ?? 0
        let o = SIMD4(b.x + a.x * b.z, b.y + a.y * b.w, az, 0)
        // T(-o) · S · T(o): the fourth row moves by -o through S; every row then by its w · o.
        r4 -= o.x * r1 + o.y * r2 + o.z * r3
        r1 += r1.w * o; r2 += r2.w * o; r3 += r3.w * o; r4 += r4.w * o
        let s = RenderTransform(row1: SIMD4<Float>(r1), row2: SIMD4<Float>(r2), row3: SIMD4<Float>(r3), row4: SIMD4<Float>(r4))
        return s.concatenating(w)
    }

    /// Does a layer with world transform `m` show its back? Its unit square, mapped and
    /// divided by w, turns the other way round (by more than 1e-4 of its size: an edge-on
    /// or collapsed layer faces front); a layer at or behind the viewer (w at most 1e-5 at a
    /// corner) faces away. The margins keep single- and double-precision matrices, which
    /// differ in rounding, on the same side.
    static func facesAway(_ m: RenderTransform) -> Bool {
        let o = SIMD4<Double>(m.row4), x = SIMD4<Double>(m.row1 + m.row4), y = SIMD4<Double>(m.row2 + m.row4)
        guard o.w > 1e-5, x.w > 1e-5, y.w > 1e-5 else { return true }
        let ox = o.x / o.w, oy = o.y / o.w
        let ux = x.x / x.w - ox, uy = x.y / x.w - oy
        let vx = y.x / y.w - ox, vy = y.y / y.w - oy
        return ux * vy - uy * vx < -1e-4 * ((ux * ux + uy * uy) * (vx * vx + vy * vy)).squareRoot()
    }

    /// Colours, border, corner radius, shadow, flags and shape values of `range`.
    @inline(never)
    private func style(_ range: Range<Int>, _ inputs: SnapshotInputs) {
        let out = output
        let rows = out._layerIndices.base, flags = out._flags.base, shapeIndex = out._shapeIndices.base
        let background = out._backgroundColors.base, borderColors = out._borderColors.base
        let borderWidths = out._borderWidths.base, corners = out._cornerRadii.base
        let shadowColors = out._shadowColors.base, shadows = out._shadows.base
        let layerFlags = inputs.flags, hints = inputs.hints
        for i in range {
            let r = Int(rows[i]), h = hints[r]
            var f = flags[i].rawValue & (RenderItemFlags.perspective.rawValue | SnapshotBuilder.cullBit)
            let bg = SnapshotBuilder.color(inputs.backgroundColor, r, nilColor: true)
            background[i] = bg
            if bg.w > 0 { f |= RenderItemFlags.background.rawValue }
            let border = h & SnapshotHint.border != 0, shadow = h & SnapshotHint.shadow != 0
            let bw = Float((border ? inputs.borderWidth : nil).map { $0[r] } ?? 0)
            let bc = SnapshotBuilder.color(border ? inputs.borderColor : nil, r, nilColor: false)
            borderWidths[i] = bw
            borderColors[i] = bc
            if bw > 0 && bc.w > 0 { f |= RenderItemFlags.border.rawValue }
            corners[i] = Float((border ? inputs.cornerRadius : nil).map { $0[r] } ?? 0)
            let sc = SnapshotBuilder.color(shadow ? inputs.shadowColor : nil, r, nilColor: false)
            let so = Float((shadow ? inputs.shadowOpacity : nil).map { $0[r] } ?? 0)
            let off: SIMD2<Float> = (shadow ? inputs.shadowOffset : nil).map { SIMD2(Float($0[2 * r]), Float($0[2 * r + 1])) } ?? SIMD2(0, -3)
            shadowColors[i] = sc
            shadows[i] = SIMD4(off.x, off.y, Float((shadow ? inputs.shadowRadius : nil).map { $0[r] } ?? 3), so)
            if so > 0 && sc.w > 0 { f |= RenderItemFlags.shadow.rawValue }
            if let m = hinted(inputs.masksToBounds, h, SnapshotHint.clipping), m[r] >= 0.5 { f |= RenderItemFlags.masksToBounds.rawValue }
            let lf = layerFlags[r]
            if lf & LayerFlags.hasObjects != 0, let h = engine.layers.handle[r] {
                let layer = h.takeUnretainedValue()
                if layer.presentedObject(.contents) != nil { f |= RenderItemFlags.contents.rawValue }
                if layer.presentedObject(.mask) != nil { f |= RenderItemFlags.mask.rawValue }
                if layer.presentedObject(.shadowPath) != nil { f |= RenderItemFlags.shadowPath.rawValue }
            }
            let s = Int(shapeIndex[i])
            if s >= 0 {
                f |= RenderItemFlags.shape.rawValue
                let sh = h & SnapshotHint.shape != 0
                out._fillColors[s] = SnapshotBuilder.color(sh ? inputs.fillColor : nil, r, nilColor: false, default: SIMD4(0, 0, 0, 1))
                out._strokeColors[s] = SnapshotBuilder.color(sh ? inputs.strokeColor : nil, r, nilColor: true)
                out._strokes[s] = SIMD4(Float((sh ? inputs.lineWidth : nil).map { $0[r] } ?? 1),
                                        Float((sh ? inputs.strokeStart : nil).map { $0[r] } ?? 0),
                                        Float((sh ? inputs.strokeEnd : nil).map { $0[r] } ?? 1),
                                        Float((sh ? inputs.miterLimit : nil).map { $0[r] } ?? 10))
                out._lineDashPhases[s] = Float((sh ? inputs.lineDashPhase : nil).map { $0[r] } ?? 0)
            }
            flags[i] = RenderItemFlags(rawValue: f)
        }
    }

    /// A colour column's value at row r in single precision; nil (NaN lanes) is (0, 0, 0, 0).
    /// An unmaterialised column holds the default: nil when `nilColor`, else `default`.
    @inline(__always)
    static func color(_ col: UnsafeMutablePointer<Double>?, _ r: Int, nilColor: Bool,
                      default d: SIMD4<Float> = SIMD4(0, 0, 0, 1)) -> SIMD4<Float> {
        guard let col else { return nilColor ? .zero : d }
        let c = SIMD4(col[4 * r], col[4 * r + 1], col[4 * r + 2], col[4 * r + 3])
        return c.x.isNaN ? .zero : SIMD4<Float>(c)
    }

    /// Each shape's path, on the calling thread (paths are objects).
    private func gatherPaths(_ inputs: SnapshotInputs) {
        let out = output
        for s in 0..<out.shapeCount {
            let r = Int(out._layerIndices[Int(out._shapeItems[s])])
            let path = engine.layers.handle[r]?.takeUnretainedValue().presentedObject(.path) as? CGPath
            if out._paths[s] !== path { out._paths[s] = path }
        }
    }

    /// Removes the items the geometry culled, with their subtrees, and renumbers the rest.
    @inline(never)
    private func removeCulledItems() {
        let out = output
        let n = out.count
        var newIndex = [Int32](repeating: -1, count: n)
        var keep = 0, shapes = 0, nonFinite = 0
        var i = 0
        while i < n {
            if out._flags[i].rawValue & SnapshotBuilder.cullBit != 0 {
                let r = Int(out._layerIndices[i])
                let m = out._transforms[i]
                let s = m.row1 + m.row2 + m.row3 + m.row4 + out._bounds[i]
                if !(s.x + s.y + s.z + s.w).isFinite { nonFinite += 1 }
                itemOfRow[r] = SnapshotBuilder.culled
                culledRows.append(Int32(r))
                let p = Int(out._parents[i])
                if p >= 0 { geometryCulledParents.append(newIndex[p]) }
                // The subtree goes too (flattened into the culled layer's plane).
                let end = Int(out._subtreeEnds[i])
                for j in (i + 1)..<max(end, i + 1) { itemOfRow[Int(out._layerIndices[j])] = SnapshotBuilder.notInTree }
                i = end
                continue
            }
            newIndex[i] = Int32(keep)
            i += 1
            keep += 1
        }
        for i in 0..<n where newIndex[i] >= 0 {
            let j = Int(newIndex[i])
            let p = Int(out._parents[i]), c = Int(out._clips[i])
            out._layerIndices[j] = out._layerIndices[i]
            out._parents[j] = p >= 0 ? newIndex[p] : -1
            out._clips[j] = c >= 0 ? newIndex[c] : -1
            out._transforms[j] = out._transforms[i]; out._opacities[j] = out._opacities[i]
            out._bounds[j] = out._bounds[i]; out._cornerRadii[j] = out._cornerRadii[i]
            out._backgroundColors[j] = out._backgroundColors[i]; out._borderColors[j] = out._borderColors[i]
            out._borderWidths[j] = out._borderWidths[i]; out._shadowColors[j] = out._shadowColors[i]
            out._shadows[j] = out._shadows[i]; out._flags[j] = out._flags[i]
            orderZ[j] = orderZ[i]
            let s = Int(out._shapeIndices[i])
            if s >= 0 {
                out._shapeItems[shapes] = Int32(j)
                out._fillColors[shapes] = out._fillColors[s]; out._strokeColors[shapes] = out._strokeColors[s]
                out._strokes[shapes] = out._strokes[s]; out._lineDashPhases[shapes] = out._lineDashPhases[s]
                out._paths[shapes] = out._paths[s]
                out._shapeIndices[j] = Int32(shapes)
                shapes += 1
            } else {
                out._shapeIndices[j] = -1
            }
            itemOfRow[Int(out._layerIndices[j])] = Int32(j)
        }
        out.count = keep
        out.shapeCount = shapes
        geometryCulledParents.sort()
        for s in shapes..<out._paths.count where out._paths[s] != nil { out._paths[s] = nil }
        // Subtree ends again, over the kept items.
        for j in 0..<keep { out._subtreeEnds[j] = Int32(j + 1) }
        var j = keep - 1
        while j > 0 {
            let p = Int(out._parents[j])
            if out._subtreeEnds[p] < out._subtreeEnds[j] { out._subtreeEnds[p] = out._subtreeEnds[j] }
            j -= 1
        }
        out.nonFiniteLayers = nonFinite
        if nonFinite > 0 {
            StrataDiagnostics.emit(.nonFiniteValue,
                "render snapshot: \(nonFinite) layer(s) have non-finite world geometry (NaN, or beyond single precision); left out of the frame with their sublayers")
        }
    }

    // MARK: update

    /// Recomputes the items whose layers changed since the last snapshot. False when a
    /// change needs a full pass (the caller then does one).
    private func update() -> Bool {
        let layers = engine.layers
        let out = output
        let n = out.count
        let words = (n + 63) >> 6
        marks.reserve(words, keeping: 0)
        let bits = marks.base
        bits.initialize(repeating: 0, count: words)
        let inputs = SnapshotInputs(layers)
        var needFull = false
        for row in layers.changedRows { mark(row, bits, inputs, &needFull) }
        let anim = engine.animations
        for t in 0..<anim.tracks.count {
            let track = anim.tracks[t]
            let rows = track.layer.base
            for s in 0..<track.count { mark(rows[s], bits, inputs, &needFull) }
        }
        for t in 0..<anim.keyframeTracks.count {
            let track = anim.keyframeTracks[t]
            for s in 0..<track.count { mark(track.layer[s], bits, inputs, &needFull) }
        }
        for id in anim.derivedRecords { mark(anim.records[Int(id)].layer, bits, inputs, &needFull) }
        for id in anim.objectRecords { mark(anim.records[Int(id)].layer, bits, inputs, &needFull) }
        if needFull { return false }
        // Marked items in order; each with its subtree's geometry (skipping marks inside a
        // subtree already done).
        var done = 0, recomputed = 0
        let ends = out._subtreeEnds.base
        for w in 0..<words {
            var word = bits[w]
            while word != 0 {
                let i = w << 6 | word.trailingZeroBitCount
                word &= word - 1
                let end = Int(ends[i])
                if i >= done {
                    if geometry(i..<end, inputs, skipAncestorsOf: -1) > 0 { return false }
                    if !geometryCulledParents.isEmpty && holdsCulledLayer(i..<end) { return false }
                    recomputed += end - i
                    done = end
                }
                style(i..<(i + 1), inputs)
                if !sameOrder(i, inputs) { return false }
            }
        }
        if out.shapeCount > 0 { gatherPaths(inputs) }
        out.wasFullPass = false
        out.recomputedItems = recomputed
        return true
    }

    /// A changed row: its item marked for the update; a culled row that may show now needs
    /// a full pass.
    @inline(__always)
    private func mark(_ row: Int32, _ bits: UnsafeMutablePointer<UInt64>, _ inputs: SnapshotInputs, _ needFull: inout Bool) {
        guard Int(row) < itemOfRowCount else { return }
        let it = itemOfRow[Int(row)]
        if it >= 0 {
            bits[Int(it) >> 6] |= 1 << UInt64(Int(it) & 63)
        } else if it == SnapshotBuilder.culled && !needFull && !stillCulled(Int(row), inputs) {
            needFull = true
        }
    }

    /// Is a layer the geometry culled a child of an item in `items`?
    private func holdsCulledLayer(_ items: Range<Int>) -> Bool {
        // First parent at or after the range's start (the list is ascending).
        var lo = 0, hi = geometryCulledParents.count
        while lo < hi {
            let m = (lo + hi) / 2
            if Int(geometryCulledParents[m]) < items.lowerBound { lo = m + 1 } else { hi = m }
        }
        return lo < geometryCulledParents.count && Int(geometryCulledParents[lo]) < items.upperBound
    }

    /// Is a culled row's layer still culled by what the order pass looks at?
    private func stillCulled(_ r: Int, _ inputs: SnapshotInputs) -> Bool {
        let opacity = inputs.opacity.map { $0[r] } ?? 1
        let hidden = hinted(inputs.hidden, inputs.hints[r], SnapshotHint.clipping).map { $0[r] >= 0.5 } ?? false
        return inputs.flags[r] & LayerFlags.committed == 0 || hidden || !(opacity > 0)
    }

    /// Does item i still sit where the order pass put it (shown, same zPosition)?
    private func sameOrder(_ i: Int, _ inputs: SnapshotInputs) -> Bool {
        let r = Int(output._layerIndices[i])
        if stillCulled(r, inputs) { return false }
        return Float(hinted(inputs.zPosition, inputs.hints[r], SnapshotHint.zPosition).map { $0[r] } ?? 0) == orderZ[i]
    }
}

extension CALayer {
    /// An object property's value as presented: the animated value while an animation
    /// drives it, else the committed one.
    func presentedObject(_ p: PropertyID) -> Any? {
        if let animated = animatedObjects[p.raw] { return animated }
        return committedObjects[p.raw]
    }
}

import Foundation
import Synchronization

extension SnapshotBuilder {
    // MARK: item values

    /// Computes items `range` in order: geometry and style (see `kernel`). Returns the
    /// items culled, flagged with `cullBit`.
    @discardableResult
    @inline(never)
    func computeItems(_ range: Range<Int>, _ inputs: SnapshotInputs, _ columns: ItemColumns, ready: Readiness? = nil) -> Int {
        kernel(range, list: nil, inputs, columns, ready: ready, style: true)
    }

    /// `computeItems` for the items listed (in draw order), whose parents are all computed.
    @inline(never)
    func computeItems(_ items: UnsafeBufferPointer<Int>, _ inputs: SnapshotInputs, _ columns: ItemColumns) -> Int {
        kernel(0..<items.count, list: items, inputs, columns, ready: nil, style: true)
    }

    /// The geometry alone of `range` (an update's descendants of a changed layer: their
    /// style is theirs, unchanged); flags keep their style bits.
    @inline(never)
    func geometryOnly(_ range: Range<Int>, _ inputs: SnapshotInputs, _ columns: ItemColumns) -> Int {
        kernel(range, list: nil, inputs, columns, ready: nil, style: false)
    }

    /// `geometryOnly` for the items listed, in draw order (a spliced order's subtree).
    @inline(never)
    func geometryOnly(_ items: UnsafeBufferPointer<Int>, _ inputs: SnapshotInputs, _ columns: ItemColumns) -> Int {
        kernel(0..<items.count, list: items, inputs, columns, ready: nil, style: false)
    }

    /// What a layer's sublayers inherit: the space they are placed in, the opacity, and the
    /// clip item (the layer itself when it masks to bounds).
    struct ParentContext {
        var space: RenderTransform
        var opacity: Float
        var clip: Int32
    }

    /// One item's geometry from its parent's context.
    struct ItemGeometry {
        var world: RenderTransform
        var opacity: Float
        var bounds: SIMD4<Float>
        var z: Double
    }

    static let identity = RenderTransform(row1: SIMD4(1, 0, 0, 0), row2: SIMD4(0, 1, 0, 0), row3: SIMD4(0, 0, 1, 0), row4: SIMD4(0, 0, 0, 1))

    /// Row r's world transform (T(-anchor) · transform · T(position, z) · the parent's space),
    /// opacity (the parent's times its own, clamped), bounds and z.
    @inline(__always)
    func geometry(_ r: Int, _ h: UInt8, _ parent: ParentContext, _ inputs: SnapshotInputs) -> ItemGeometry {
        var b = SIMD4<Double>.zero
        if let q = inputs.bounds { b = SIMD4(q[4 * r], q[4 * r + 1], q[4 * r + 2], q[4 * r + 3]) }
        var pos = SIMD2<Double>.zero
        if let q = inputs.position { pos = SIMD2(q[2 * r], q[2 * r + 1]) }
        var a = SIMD2<Double>(0.5, 0.5), az = 0.0, z = 0.0
        if h & (SnapshotHint.anchor | SnapshotHint.zPosition) != 0 {
            if h & SnapshotHint.anchor != 0 {
                if let q = inputs.anchorPoint { a = SIMD2(q[2 * r], q[2 * r + 1]) }
                if let q = inputs.anchorPointZ { az = q[r] }
            }
            if h & SnapshotHint.zPosition != 0, let q = inputs.zPosition { z = q[r] }
        }
        let space = parent.space
        // The anchor point in the layer's bounds space.
        let ox = b.x + a.x * b.z, oy = b.y + a.y * b.w
        var m: RenderTransform
        if let t = hinted(inputs.transform, h, SnapshotHint.transform) {
            let q = t.base + 16 * r
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
        var own = 1.0
        if let q = inputs.opacity { own = q[r] }
        let clamped = own < 0 ? 0 : (own > 1 ? 1 : own)
        return ItemGeometry(world: m, opacity: parent.opacity * Float(clamped), bounds: SIMD4<Float>(b), z: z)
    }

    /// The context row r (item `item`, world `world`, opacity `opacity`, clip `clip`) gives
    /// its sublayers.
    @inline(__always)
    func context(ofItem item: Int, row r: Int, world: RenderTransform, opacity: Float, clip: Int32,
                         _ inputs: SnapshotInputs) -> ParentContext {
        let masks = hinted(inputs.masksToBounds, inputs.hints[r], SnapshotHint.clipping).map { $0[r] >= 0.5 } ?? false
        return ParentContext(space: childSpace(world, r, inputs), opacity: opacity, clip: masks ? Int32(item) : clip)
    }

    /// The context of item p, which another thread has not finished: its ancestors up to a
    /// finished one (at most 64) computed here again, the same way (so the same values);
    /// beyond that, waits for p's chunk.
    @inline(never)
    private func pendingContext(_ p: Int, _ ready: Readiness, _ inputs: SnapshotInputs, _ c: ItemColumns) -> ParentContext {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { path in
            var count = 0
            var x = p
            while x >= 0 && !ready.isReady(x) && count < 64 {
                path[count] = x
                count += 1
                x = Int(c.parents[x])
            }
            if x >= 0 && !ready.isReady(x) {
                // Too deep: wait for p's chunk (a chain: the work is serial anyway).
                while !ready.isReady(p) {}
                return context(ofItem: p, row: Int(c.rows[p]), world: c.transforms[p], opacity: c.opacities[p], clip: c.clips[p], inputs)
            }
            var ctx = x < 0
                ? ParentContext(space: SnapshotBuilder.identity, opacity: 1, clip: -1)
                : context(ofItem: x, row: Int(c.rows[x]), world: c.transforms[x], opacity: c.opacities[x], clip: c.clips[x], inputs)
            var k = count - 1
            while k >= 0 {
                let y = path[k], r = Int(c.rows[y])
                let g = geometry(r, inputs.hints[r], ctx, inputs)
                ctx = context(ofItem: y, row: r, world: g.world, opacity: g.opacity, clip: ctx.clip, inputs)
                k -= 1
            }
            return ctx
        }
    }

    /// Computes items `range` in order (a parent item precedes its children): geometry
    /// (world transform, opacity, clip, bounds) and, with `style`, style (colours, border,
    /// shadow, flags); without it the flags keep their style bits. `ready`: a chunk thread's
    /// view of items before the range (nil: all computed). Returns the items culled (facing
    /// away, or not finite), flagged with `cullBit`.
    @inline(__always)
    private func kernel(_ range: Range<Int>, list: UnsafeBufferPointer<Int>?, _ inputs: SnapshotInputs, _ c: ItemColumns,
                        ready: Readiness?, style withStyle: Bool) -> Int {
        // The items: `range`, or those `list` holds (then `range` is its indices).
        // Items from `start` on are computed in this call, in order (a chunk); before it, a
        // parent is ready when its chunk is done (or always, without `ready`).
        let start = ready?.start ?? Int.max
        let rows = c.rows, parents = c.parents
        let world = c.transforms, opacities = c.opacities, clips = c.clips
        let bounds = c.bounds, flags = c.flags, hints = inputs.hints
        let map = itemOfRow.base, zOrder = orderZ.base
        var cachedParent = -1
        var parentContext = ParentContext(space: SnapshotBuilder.identity, opacity: 1, clip: -1)
        // NaN and infinities anywhere propagate into this sum (x * 0 is 0 for finite x only):
        // one test after the loop instead of one per item.
        var poison = SIMD4<Float>.zero
        var culled = 0
        var last = ItemGeometry(world: SnapshotBuilder.identity, opacity: 1, bounds: .zero, z: 0)
        var lastItem = -1
        for k in range {
            let i = list.map { $0[k] } ?? k
            let r = Int(rows[i]), p = Int(parents[i]), h = hints[r]
            if p != cachedParent {
                if p < 0 {
                    parentContext = ParentContext(space: SnapshotBuilder.identity, opacity: 1, clip: -1)
                } else if p == lastItem {
                    // The previous item: its values are still in registers.
                    parentContext = context(ofItem: p, row: Int(rows[p]), world: last.world, opacity: last.opacity, clip: clips[p], inputs)
                } else if p >= start || ready.map({ $0.isReady(p) }) ?? true {
                    parentContext = context(ofItem: p, row: Int(rows[p]), world: world[p], opacity: opacities[p], clip: clips[p], inputs)
                } else {
                    parentContext = pendingContext(p, ready!, inputs, c)
                }
                cachedParent = p
            }
            let g = geometry(r, h, parentContext, inputs)
            last = g
            lastItem = i
            world[i] = g.world
            opacities[i] = g.opacity
            clips[i] = parentContext.clip
            bounds[i] = g.bounds
            map[r] = Int32(i)
            zOrder[i] = g.z
            let m = g.world
            poison.addProduct(m.row1 + m.row2 + m.row3 + m.row4 + g.bounds, SIMD4<Float>.zero)
            var f = SnapshotBuilder.geometryBits(m, r, h, inputs)
            if f & SnapshotBuilder.cullBit != 0 { culled += 1 }
            if withStyle {
                f |= style(i, r, h, inputs, c)
            } else {
                f |= flags[i].rawValue & ~(ItemBit.perspective | SnapshotBuilder.cullBit)
            }
            flags[i] = RenderItemFlags(rawValue: f)
        }
        if !(poison.x + poison.y + poison.z + poison.w).isFinite {
            // Rare: find the items whose values are not finite.
            for k in range {
                let i = list.map { $0[k] } ?? k
                let m = world[i]
                let s = m.row1 + m.row2 + m.row3 + m.row4 + bounds[i]
                if !(s.x + s.y + s.z + s.w).isFinite && flags[i].rawValue & SnapshotBuilder.cullBit == 0 {
                    flags[i] = RenderItemFlags(rawValue: flags[i].rawValue | SnapshotBuilder.cullBit)
                    culled += 1
                }
            }
        }
        return culled
    }

    /// The space item p's sublayers are placed in: its world transform, with its
    /// sublayerTransform applied about its anchor point when it has one.
    @inline(__always)
    private func childSpace(_ w: RenderTransform, _ row: Int, _ inputs: SnapshotInputs) -> RenderTransform {
        guard let st = hinted(inputs.sublayerTransform, inputs.hints[row], SnapshotHint.sublayerTransform) else { return w }
        let q = st.base + 16 * row
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

    /// The flag bits an item's world transform `m` decides: `perspective`, and `cullBit` for
    /// a single-sided layer (row r, hints h) facing away.
    @inline(__always)
    static func geometryBits(_ m: RenderTransform, _ r: Int, _ h: UInt8, _ inputs: SnapshotInputs) -> UInt32 {
        var f: UInt32 = m.isAffine ? 0 : ItemBit.perspective
        if h & SnapshotHint.clipping != 0, let ds = inputs.doubleSided, ds[r] < 0.5, facesAway(m) { f |= cullBit }
        return f
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

    /// Item i's colours, border, corner radius, shadow and shape values; returns its style
    /// flag bits.
    @inline(__always)
    private func style(_ i: Int, _ r: Int, _ h: UInt8, _ inputs: SnapshotInputs, _ c: ItemColumns) -> UInt32 {
        var f: UInt32 = 0
        let bg = SnapshotBuilder.color(inputs.backgroundColor, r, nilColor: true)
        c.backgroundColors[i] = bg
        let invisible = RenderSnapshot.invisible
        if bg.w > invisible { f |= ItemBit.background }
        if h & (SnapshotHint.border | SnapshotHint.shadow | SnapshotHint.clipping) == 0 {
            // The common layer: no border, corner, shadow or clipping of its own.
            c.borderWidths[i] = 0
            c.borderColors[i] = SIMD4(0, 0, 0, 1)
            c.cornerRadii[i] = 0
            c.shadowColors[i] = SIMD4(0, 0, 0, 1)
            c.shadows[i] = SIMD4(0, -3, 3, 0)
        } else {
            let border = h & SnapshotHint.border != 0, shadow = h & SnapshotHint.shadow != 0
            let bw = Float((border ? inputs.borderWidth : nil).map { $0[r] } ?? 0)
            let bc = SnapshotBuilder.color(border ? inputs.borderColor : nil, r, nilColor: false)
            c.borderWidths[i] = bw
            c.borderColors[i] = bc
            if bw > invisible && bc.w > invisible { f |= ItemBit.border }
            c.cornerRadii[i] = Float((border ? inputs.cornerRadius : nil).map { $0[r] } ?? 0)
            let sc = SnapshotBuilder.color(shadow ? inputs.shadowColor : nil, r, nilColor: false)
            let so = Float((shadow ? inputs.shadowOpacity : nil).map { $0[r] } ?? 0)
            let off: SIMD2<Float> = (shadow ? inputs.shadowOffset : nil).map { SIMD2(Float($0[2 * r]), Float($0[2 * r + 1])) } ?? SIMD2(0, -3)
            c.shadowColors[i] = sc
            c.shadows[i] = SIMD4(off.x, off.y, Float((shadow ? inputs.shadowRadius : nil).map { $0[r] } ?? 3), so)
            if so > invisible && sc.w > invisible { f |= ItemBit.shadow }
            if let m = hinted(inputs.masksToBounds, h, SnapshotHint.clipping), m[r] >= 0.5 { f |= ItemBit.masksToBounds }
        }
        if inputs.flags[r] & LayerFlags.hasObjects != 0, let handle = self.layers.handle[r] {
            let layer = handle.takeUnretainedValue()
            if layer.presentedObject(.contents) != nil { f |= ItemBit.contents }
            if layer.presentedObject(.mask) != nil { f |= ItemBit.mask }
            if layer.presentedObject(.shadowPath) != nil { f |= ItemBit.shadowPath }
            // A transform layer draws nothing of its own: only its sublayers show.
            if inputs.flags[r] & LayerFlags.isTransformLayer != 0 { f = 0 }
        }
        // Shape layers: their index was given by the walk; their values are the serial
        // shape pass's (`gatherShapes`: the shape columns may grow during the walk).
        guard inputs.flags[r] & LayerFlags.isShape != 0 else {
            c.shapeIndices[i] = -1
            return f
        }
        return f | ItemBit.shape
    }

    /// A colour column's value at row r in single precision; nil (NaN lanes) is (0, 0, 0, 0).
    /// An unmaterialised column holds the default: nil when `nilColor`, else `default`.
    @inline(__always)
    static func color(_ col: ColumnSpan<Double>?, _ r: Int, nilColor: Bool,
                      default d: SIMD4<Float> = SIMD4(0, 0, 0, 1)) -> SIMD4<Float> {
        guard let col else { return nilColor ? .zero : d }
        let c = SIMD4(col[4 * r], col[4 * r + 1], col[4 * r + 2], col[4 * r + 3])
        return c.x.isNaN ? .zero : SIMD4<Float>(c)
    }

    /// Shapes `range`'s values and paths, on the calling thread (paths are objects).
    func gatherShapes(_ range: Range<Int>, _ inputs: SnapshotInputs) {
        let out = output
        guard !range.isEmpty else { return }
        let c = ItemColumns(out)
        for s in range {
            let r = Int(c.rows[Int(out._shapeItems[s])])
            let sh = inputs.hints[r] & SnapshotHint.shape != 0
            c.fillColors[s] = SnapshotBuilder.color(sh ? inputs.fillColor : nil, r, nilColor: false, default: SIMD4(0, 0, 0, 1))
            c.strokeColors[s] = SnapshotBuilder.color(sh ? inputs.strokeColor : nil, r, nilColor: true)
            c.strokes[s] = SIMD4(Float((sh ? inputs.lineWidth : nil).map { $0[r] } ?? 1),
                                 Float((sh ? inputs.strokeStart : nil).map { $0[r] } ?? 0),
                                 Float((sh ? inputs.strokeEnd : nil).map { $0[r] } ?? 1),
                                 Float((sh ? inputs.miterLimit : nil).map { $0[r] } ?? 10))
            c.lineDashPhases[s] = Float((sh ? inputs.lineDashPhase : nil).map { $0[r] } ?? 0)
            let path = self.layers.handle[r]?.takeUnretainedValue().presentedObject(.path) as? CGPath
            if out._paths[s] !== path { out._paths[s] = path }
        }
    }

    /// `column` for a row whose hints have `bit`; nil (the defaults) otherwise.
    @inline(__always)
    func hinted(_ column: ColumnSpan<Double>?, _ h: UInt8, _ bit: UInt8) -> ColumnSpan<Double>? {
        h & bit != 0 ? column : nil
    }
}

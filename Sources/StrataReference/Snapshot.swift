import Foundation
@_exported import StrataSnapshot

/// The render-ready frame, the classic way: every frame, walk the tree from the root, keep
/// the visible layers in painter's order, concatenate each layer's `CATransform3D`s (double
/// precision) onto its parent's, and fill a `RenderSnapshot` from the presented values,
/// read by property name. No incremental update: every snapshot is a full walk.
final class ReferenceSnapshotter {
    let output = RenderSnapshot()
    /// The layer of each item (`layerIndices` index this array).
    var layers: [CALayer] = []

    init() { output.source = self }

    /// One item before it goes into the columns.
    private struct Item {
        var layer: CALayer
        var parent: Int
        var world: CATransform3D
        var opacity: Double
        var clip: Int
        /// The colour a replicator instance multiplies this item's colours by (white: none).
        var tint: SIMD4<Double>
        /// The media time its values are presented at: the frame's, or earlier in a
        /// replicator's delayed instance.
        var time: Double
        /// The space its sublayers are placed in, and whether it masks to bounds (read at
        /// its own time).
        var space: CATransform3D
        var masks: Bool
    }

    /// A layer waiting on the walk's stack: its parent item, and for a replicator's
    /// sublayer, the instance's transform (about the replicator's bounds centre) and tint;
    /// the media time it is presented at. `expand`: the entry stands for the layer's
    /// sublayers, ordered by their zPositions at that time.
    private struct Pending {
        var layer: CALayer
        var parent: Int
        var instance: CATransform3D?
        var tint: SIMD4<Double>
        var time: Double
        var expand = false
    }

    /// The walk, at the frame's time (the last render's). A replicator's instance k shows
    /// its sublayers at that time minus k times its `instanceDelay`: the engine evaluates
    /// its animations there (`renderShadow`); the frame's own state is put back at the end.
    func snapshot(root: CALayer?, time: Double, engine: ReferenceEngine) -> RenderSnapshot {
        let frameTime = engine.renderedAt
        var shown = frameTime
        var restoreFrame: (() -> Void)?
        // The frame's own state at its time (kept before the first evaluation at another).
        func show(_ t: Double) {
            guard t != shown && !(t.isNaN && shown.isNaN) else { return }
            if t == frameTime {
                restoreFrame?()
            } else {
                // From the frame's state every time: what a pending animation keeps is what
                // the frame shows, not what another delayed instance left.
                if let restore = restoreFrame { restore() } else { restoreFrame = engine.evaluationCheckpoint() }
                engine.renderShadow(atTime: t)
            }
            shown = t
        }
        var items: [Item] = []
        var ends: [Int] = []
        var nonFinite = 0
        // Depth-first, explicit stack (a deep chain would overflow the thread's stack).
        var stack: [Pending] = root.map { [Pending(layer: $0, parent: -1, instance: nil, tint: SIMD4(repeating: 1), time: frameTime)] } ?? []
        var truncated = false
        while let next = stack.popLast() {
            show(next.time)
            let layer = next.layer, parent = next.parent
            if next.expand {
                // Sublayers by zPosition, ties in order; pushed last first.
                let sorted = layer.sublayerList.enumerated().sorted {
                    let za = $0.element.presentedComponentsOf("zPosition")[0], zb = $1.element.presentedComponentsOf("zPosition")[0]
                    return za != zb ? za < zb : $0.offset < $1.offset
                }
                for (_, s) in sorted.reversed() {
                    stack.append(Pending(layer: s, parent: parent, instance: next.instance, tint: next.tint, time: next.time))
                }
                continue
            }
            let opacity = layer.presentedComponentsOf("opacity")[0]
            if !layer.isCommitted || layer.presentedComponentsOf("hidden")[0] >= 0.5 || !(opacity > Double(RenderSnapshot.invisible)) { continue }
            if items.count >= RenderSnapshot.maxReplicatedItems { truncated = true; break }
            var parentWorld = parent >= 0 ? items[parent].space : CATransform3DIdentity
            if let instance = next.instance { parentWorld = CATransform3DConcat(instance, parentWorld) }
            let world = CATransform3DConcat(localTransform(layer), parentWorld)
            let clip = parent < 0 ? -1 : (items[parent].masks ? parent : items[parent].clip)
            let single = RenderTransform(world)
            let b = layer.presentedComponentsOf("bounds")
            let sum = single.row1 + single.row2 + single.row3 + single.row4
                + SIMD4<Float>(Float(b[0]), Float(b[1]), Float(b[2]), Float(b[3]))
            if !(sum.x + sum.y + sum.z + sum.w).isFinite {
                nonFinite += 1
                continue
            }
            if layer.presentedComponentsOf("doubleSided")[0] < 0.5 && faceAway(world) { continue }
            let clamped = min(max(opacity, 0), 1)
            items.append(Item(layer: layer, parent: parent, world: world,
                              opacity: (parent >= 0 ? items[parent].opacity : 1) * clamped, clip: clip, tint: next.tint,
                              time: next.time, space: childSpace(layer, world: world),
                              masks: layer.presentedComponentsOf("masksToBounds")[0] >= 0.5))
            ends.append(items.count)
            let index = items.count - 1
            if layer.sublayerList.isEmpty { continue }
            guard let replicator = layer as? CAReplicatorLayer else {
                stack.append(Pending(layer: layer, parent: index, instance: nil, tint: next.tint, time: next.time, expand: true))
                continue
            }
            // A replicator's sublayers once per instance, instance 0 first; instance k at
            // k delays earlier (when the engine has rendered).
            let presented = replicator.presentedInstances
            let delay = presented.delay.isFinite && next.time.isFinite ? presented.delay : 0
            var instances: [(CATransform3D, SIMD4<Double>, Double)] = []
            presented.forEachInstance { k, m, c in instances.append((m, c, next.time - Double(k) * delay)) }
            for (m, c, t) in instances.reversed() {
                stack.append(Pending(layer: layer, parent: index, instance: m, tint: next.tint * c, time: t, expand: true))
            }
        }
        if truncated {
            StrataDiagnostics.emit(.outOfCapacity, RenderSnapshot.replicasLeftOut)
        }
        // Subtree ends: pre-order, so a subtree ends where its last descendant's does.
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            let p = items[i].parent
            ends[p] = max(ends[p], ends[i])
        }
        fill(items, ends, nonFinite: nonFinite, time: time, show: show)
        show(frameTime)
        if nonFinite > 0 {
            StrataDiagnostics.emit(.nonFiniteValue,
                "render snapshot: \(nonFinite) layer(s) have non-finite world geometry (NaN, or beyond single precision); left out of the frame with their sublayers")
        }
        return output
    }

    /// T(-anchor) · transform · T(position, zPosition): the layer's space in its parent's.
    private func localTransform(_ layer: CALayer) -> CATransform3D {
        let b = layer.presentedComponentsOf("bounds"), a = layer.presentedComponentsOf("anchorPoint")
        let p = layer.presentedComponentsOf("position")
        let az = layer.presentedComponentsOf("anchorPointZ")[0], z = layer.presentedComponentsOf("zPosition")[0]
        let anchor = CATransform3DMakeTranslation(-(b[0] + a[0] * b[2]), -(b[1] + a[1] * b[3]), -az)
        let t = Boxing.transform(layer.presentedComponentsOf("transform"))
        return CATransform3DConcat(CATransform3DConcat(anchor, t), CATransform3DMakeTranslation(p[0], p[1], z))
    }

    /// The space a layer's sublayers are placed in: its world transform, after its
    /// sublayerTransform about its anchor point.
    private func childSpace(_ layer: CALayer, world: CATransform3D) -> CATransform3D {
        let s = Boxing.transform(layer.presentedComponentsOf("sublayerTransform"))
        if CATransform3DIsIdentity(s) { return world }
        let b = layer.presentedComponentsOf("bounds"), a = layer.presentedComponentsOf("anchorPoint")
        let az = layer.presentedComponentsOf("anchorPointZ")[0]
        let ox = b[0] + a[0] * b[2], oy = b[1] + a[1] * b[3]
        let about = CATransform3DConcat(CATransform3DConcat(CATransform3DMakeTranslation(-ox, -oy, -az), s),
                                        CATransform3DMakeTranslation(ox, oy, az))
        return CATransform3DConcat(about, world)
    }

    /// The layer's unit square, mapped and divided by w, turns the other way round by more
    /// than 1e-4 of its size (edge-on faces front), or lies at or behind the viewer (w at
    /// most 1e-5 at a corner).
    private func faceAway(_ m: CATransform3D) -> Bool {
        func map(_ x: Double, _ y: Double) -> (Double, Double, Double) {
            (x * m.m11 + y * m.m21 + m.m41, x * m.m12 + y * m.m22 + m.m42, x * m.m14 + y * m.m24 + m.m44)
        }
        let o = map(0, 0), u = map(1, 0), v = map(0, 1)
        guard o.2 > 1e-5, u.2 > 1e-5, v.2 > 1e-5 else { return true }
        let ux = u.0 / u.2 - o.0 / o.2, uy = u.1 / u.2 - o.1 / o.2
        let vx = v.0 / v.2 - o.0 / o.2, vy = v.1 / v.2 - o.1 / o.2
        return ux * vy - uy * vx < -1e-4 * ((ux * ux + uy * uy) * (vx * vx + vy * vy)).squareRoot()
    }

    private func fill(_ items: [Item], _ ends: [Int], nonFinite: Int, time: Double, show: (Double) -> Void) {
        let out = output
        let n = items.count
        out.reserveItems(n, keeping: 0)
        let shapes = items.filter { $0.layer is CAShapeLayer }.count
        out.reserveShapes(shapes, keeping: 0)
        layers = items.map(\.layer)
        var s = 0
        for (i, item) in items.enumerated() {
            show(item.time)
            let l = item.layer
            func color(_ key: String) -> SIMD4<Float> {
                let c = l.presentedComponentsOf(key)
                return c[0].isNaN ? .zero : SIMD4(Float(c[0]), Float(c[1]), Float(c[2]), Float(c[3])) * SIMD4<Float>(item.tint)
            }
            let b = l.presentedComponentsOf("bounds")
            out._layerIndices[i] = Int32(i)
            out._parents[i] = Int32(item.parent)
            out._subtreeSizes[i] = Int32(ends[i] - i)
            out._clips[i] = Int32(item.clip)
            let world = RenderTransform(item.world)
            out._transforms[i] = world
            out._opacities[i] = Float(item.opacity)
            out._bounds[i] = SIMD4(Float(b[0]), Float(b[1]), Float(b[2]), Float(b[3]))
            out._cornerRadii[i] = Float(l.presentedComponentsOf("cornerRadius")[0])
            var flags: RenderItemFlags = []
            let bg = color("backgroundColor")
            out._backgroundColors[i] = bg
            let invisible = RenderSnapshot.invisible
            if bg.w > invisible { flags.insert(.background) }
            let bw = Float(l.presentedComponentsOf("borderWidth")[0]), bc = color("borderColor")
            out._borderWidths[i] = bw
            out._borderColors[i] = bc
            if bw > invisible && bc.w > invisible { flags.insert(.border) }
            let sc = color("shadowColor"), so = Float(l.presentedComponentsOf("shadowOpacity")[0])
            let off = l.presentedComponentsOf("shadowOffset")
            out._shadowColors[i] = sc
            out._shadows[i] = SIMD4(Float(off[0]), Float(off[1]), Float(l.presentedComponentsOf("shadowRadius")[0]), so)
            if so > invisible && sc.w > invisible { flags.insert(.shadow) }
            if l.presentedComponentsOf("masksToBounds")[0] >= 0.5 { flags.insert(.masksToBounds) }
            if l.presentedObjects["contents"] != nil { flags.insert(.contents) }
            if l.presentedObjects["mask"] != nil { flags.insert(.mask) }
            if l.presentedObjects["shadowPath"] != nil { flags.insert(.shadowPath) }
            // A transform layer draws nothing of its own: only its sublayers show.
            if l is CATransformLayer { flags.subtract([.background, .border, .shadow, .masksToBounds, .contents, .mask, .shadowPath]) }
            if !world.isAffine { flags.insert(.perspective) }
            if l is CAShapeLayer {
                flags.insert(.shape)
                out._shapeIndices[i] = Int32(s)
                out._shapeItems[s] = Int32(i)
                out._fillColors[s] = color("fillColor")
                out._strokeColors[s] = color("strokeColor")
                out._strokes[s] = SIMD4(Float(l.presentedComponentsOf("lineWidth")[0]), Float(l.presentedComponentsOf("strokeStart")[0]),
                                        Float(l.presentedComponentsOf("strokeEnd")[0]), Float(l.presentedComponentsOf("miterLimit")[0]))
                out._lineDashPhases[s] = Float(l.presentedComponentsOf("lineDashPhase")[0])
                out._paths[s] = l.presentedObjects["path"] as? CGPath
                s += 1
            } else {
                out._shapeIndices[i] = -1
            }
            out._flags[i] = flags
        }
        out.count = n
        out.shapeCount = s
        out.orderSlotsAsDrawn()
        out.time = time
        out.sequence += 1
        out.wasFullPass = true
        out.recomputedItems = n
        out.nonFiniteLayers = nonFinite
    }
}

extension RenderSnapshot {
    /// The layer of item `i`, or nil.
    public func layer(at i: Int) -> CALayer? {
        guard i >= 0 && i < count, let s = source as? ReferenceSnapshotter, i < s.layers.count else { return nil }
        return s.layers[Int(layerIndices[i])]
    }
}

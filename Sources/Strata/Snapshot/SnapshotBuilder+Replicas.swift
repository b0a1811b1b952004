import Foundation
import Synchronization

extension SnapshotBuilder {
    // MARK: replicator instances

    /// Whether an item of the snapshot is a replicator layer's (the engine has some).
    func showsReplicator() -> Bool {
        let flags = self.layers.flags.base, rows = output._layerIndices.base, order = output._drawOrder.base
        for k in 0..<output.count where flags[Int(rows[Int(order[k])])] & LayerFlags.isReplicator != 0 { return true }
        return false
    }

    /// Repeats each replicator item's sublayer items once per instance (instance k placed
    /// by the instance transform applied k times about the replicator's bounds centre, in
    /// the space its sublayers are placed in, and its colours multiplied by instance k's
    /// colour), nested replicators inside their instances; then drops the copies the
    /// geometry culls. The copies' geometry is computed as the pass computes items.
    func replicate() {
        let inputs = SnapshotInputs(self.layers)
        let scratch = replicaScratch
        let src = scratch.source
        src.copyColumns(of: output)
        let n = src.count
        scratch.copyOf.reserve(n, keeping: 0)
        output.count = 0
        output.shapeCount = 0
        var culled = 0, truncated = false
        emitReplicas(0..<n, parentOut: -1, ParentContext(space: SnapshotBuilder.identity, opacity: 1, clip: -1),
                     tint: SIMD4(repeating: 1), src, scratch.copyOf.base, inputs, at: frames.renderedAt, &culled, &truncated)
        frames.endShadows()
        output.recomputeSubtreeSizes()
        slotsAsDrawn()
        output.recomputedItems = output.count
        for s in output.shapeCount..<output._paths.count where output._paths[s] != nil { output._paths[s] = nil }
        if truncated {
            StrataDiagnostics.emit(.outOfCapacity, RenderSnapshot.replicasLeftOut)
        }
        if culled > 0 { removeCulledItems() }
    }

    /// Writes the source items `range` (whole subtrees, in order) after the output's items:
    /// those whose source parent is the range's parent get `parentOut` and `rootContext`,
    /// the others their copied parent's context. `copyOf` maps `src`'s items to their
    /// copies; the layer store holds the presentation values at media time `time` (NaN:
    /// never rendered, instance delays not applied).
    private func emitReplicas(_ range: Range<Int>, parentOut: Int32, _ rootContext: ParentContext, tint: SIMD4<Float>,
                              _ src: RenderSnapshot, _ copyOf: UnsafeMutablePointer<Int32>, _ inputs: SnapshotInputs,
                              at time: Double, _ culled: inout Int, _ truncated: inout Bool) {
        guard !range.isEmpty else { return }
        let out = output
        let rangeParent = src._parents[range.lowerBound]
        var ctx = rootContext, cachedParent: Int32 = -2
        var i = range.lowerBound
        while i < range.upperBound {
            let j = out.count
            if j >= RenderSnapshot.maxReplicatedItems { truncated = true; return }
            if j >= out._layerIndices.capacity {
                out.reserveItems(2 * j, keeping: j)
                orderZ.reserve(2 * j, keeping: j)
            }
            let r = Int(src._layerIndices[i]), sp = src._parents[i], h = inputs.hints[r]
            let p = sp == rangeParent ? parentOut : copyOf[Int(sp)]
            if p != cachedParent {
                ctx = p == parentOut ? rootContext
                    : context(ofItem: Int(p), row: Int(out._layerIndices[Int(p)]), world: out._transforms[Int(p)],
                              opacity: out._opacities[Int(p)], clip: out._clips[Int(p)], inputs)
                cachedParent = p
            }
            let g = geometry(r, h, ctx, inputs)
            out._layerIndices[j] = Int32(r)
            out._parents[j] = p
            out._clips[j] = ctx.clip
            out._transforms[j] = g.world
            out._opacities[j] = g.opacity
            out._bounds[j] = g.bounds
            orderZ[j] = g.z
            let m = g.world
            var f = out.copyStyle(from: src, item: i, to: j, tint: tint).rawValue & ~(ItemBit.perspective | SnapshotBuilder.cullBit)
                | SnapshotBuilder.geometryBits(m, r, h, inputs)
            let sum = m.row1 + m.row2 + m.row3 + m.row4 + g.bounds
            if !(sum.x + sum.y + sum.z + sum.w).isFinite { f |= SnapshotBuilder.cullBit }
            if f & SnapshotBuilder.cullBit != 0 { culled += 1 }
            out._flags[j] = RenderItemFlags(rawValue: f)
            copyOf[i] = Int32(j)
            out.count = j + 1
            let end = i + Int(src._subtreeSizes[i])
            if inputs.flags[r] & LayerFlags.isReplicator != 0, end > i + 1 || self.layers.firstChild[r] >= 0,
               let layer = self.layers.handle[r]?.takeUnretainedValue() as? CAReplicatorLayer {
                let instances = layer.presentedInstances
                let base = context(ofItem: j, row: r, world: g.world, opacity: g.opacity, clip: ctx.clip, inputs)
                // Instance k shows its sublayers at time - k * instanceDelay: evaluated again
                // there when an animation drives a layer below the replicator.
                let delay = instances.delay
                let delayed = delay != 0 && delay.isFinite && time.isFinite && instances.count > 1 && animatesBelow(r)
                instances.forEachInstance { k, step, colour in
                    var c = base
                    c.space = RenderTransform(step).concatenating(base.space)
                    let t = tint * SIMD4<Float>(colour)
                    if delayed && k > 0 {
                        emitDelayed(replicator: Int32(r), at: time - Double(k) * delay, parentOut: Int32(j), c, tint: t,
                                    inputs, &culled, &truncated)
                    } else if end > i + 1 {
                        emitReplicas(i + 1..<end, parentOut: Int32(j), c, tint: t, src, copyOf, inputs, at: time, &culled, &truncated)
                    }
                }
                // Back to this level's time for the items after the replicator's: the
                // frame's own evaluation, or this delayed level's again.
                if delayed {
                    if time == frames.renderedAt { frames.restoreFrameEvaluation() } else { frames.renderShadow(atTime: time) }
                }
                i = end
            } else {
                i += 1
            }
        }
    }

    /// Whether an animation drives a layer below `row` (its sublayers, down the tree).
    private func animatesBelow(_ row: Int) -> Bool {
        let layers = self.layers, first = self.animations.firstOfLayer
        let firstChild = layers.firstChild.base, nextSibling = layers.nextSibling.base, parent = layers.parent.base
        var r = Int(firstChild[row])
        while r >= 0 {
            if first[r] >= 0 { return true }
            if firstChild[r] >= 0 { r = Int(firstChild[r]); continue }
            // Up until a layer with a next sibling, not past `row`.
            while r != row && nextSibling[r] < 0 { r = Int(parent[r]) }
            if r == row { return false }
            r = Int(nextSibling[r])
        }
        return false
    }

    /// One delayed instance of the replicator at `row`: the animations are evaluated at
    /// media time `time` (`FrameRenderer.renderShadow`, no delegate or completion sees it),
    /// the replicator's sublayers are ordered and styled there by a builder of this depth,
    /// and their copies are placed under the replicator's item `parentOut`.
    private func emitDelayed(replicator row: Int32, at time: Double, parentOut: Int32, _ context: ParentContext,
                             tint: SIMD4<Float>, _ inputs: SnapshotInputs, _ culled: inout Int, _ truncated: inout Bool) {
        frames.renderShadow(atTime: time)
        if delayDepth == delayedSources.count {
            let b = SnapshotBuilder(layers: layers, animations: animations, frames: frames, engineIdentity: engineIdentity)
            b.isDelayedSource = true
            delayedSources.append(b)
        }
        let source = delayedSources[delayDepth]
        delayDepth += 1
        defer { delayDepth -= 1 }
        source.fullPass(row)
        let src = source.output
        guard src.count > 1 else { return }
        let scratch = source.replicaScratch
        scratch.copyOf.reserve(src.count, keeping: 0)
        emitReplicas(1..<Int(src._subtreeSizes[0]), parentOut: parentOut, context, tint: tint, src, scratch.copyOf.base,
                     inputs, at: time, &culled, &truncated)
    }
}

/// Repeating replicator instances: the items as built before they repeat, and each source
/// item's copy in the instance being written.
final class ReplicaScratch {
    let source = RenderSnapshot()
    @exclusivity(unchecked) var copyOf = SnapshotBuffer<Int32>()
}

import Foundation

extension FrameRenderer {
    /// rotationMode: the path tangent turns the presentation transform about z. Several
    /// rotating animations of one layer apply in add order on top of each other.
    func renderRotations() {
        // The turns of this frame, in a list kept between frames (no allocation once sized).
        rotationTurns.removeAll(keepingCapacity: true)
        var sorted = true
        var last: RotationTurn = (Int32.min, UInt64.min, 0)
        for i in 0..<animations.keyframeTracks.count {
            let t = animations.keyframeTracks[i]
            for s in 0..<t.count where t.flags[s] & SlotFlags.rotate != 0 {
                let turn: RotationTurn = (t.layer[s], animations.records[Int(t.record[s])].sequence, t.angle[s])
                if FrameRenderer.turnPrecedes(turn, last) { sorted = false }
                last = turn
                rotationTurns.append(turn)
            }
        }
        if !sorted { sortTurns() }
        let pres = layers.presentationColumn(.transform), model = layers.modelColumn(.transform)
        var k = 0
        while k < rotationTurns.count {
            let row = rotationTurns[k].row
            let base = Int(row) * 16
            let drivers = transformDrivers(row: row, property: .transform)
            var current = LaneValue.transform(drivers.composed || drivers.fieldsWritten ? pres + base : model + base)
            var anyActive = false
            while k < rotationTurns.count && rotationTurns[k].row == row {
                // Not active (finished and held without fill): adds nothing.
                let angle = rotationTurns[k].angle
                if !angle.isNaN {
                    current = CATransform3DRotate(current, CGFloat(angle), 0, 0, 1)
                    anyActive = true
                }
                k += 1
            }
            // None active: the transform's own animations' value, or the model's when there
            // are none; while only pending ones drive it, what it shows stays.
            if anyActive || !drivers.driven { LaneValue.store(current, into: pres + base) }
        }
    }

    /// Orders the turns by layer, then add order, in place (a heap sort: the standard
    /// library's sort may take a temporary buffer).
    @inline(never)
    private func sortTurns() {
        let n = rotationTurns.count
        guard n > 1 else { return }
        rotationTurns.withUnsafeMutableBufferPointer { b in
            let a = b.baseAddress!
            var start = n / 2 - 1, end = n
            while end > 1 {
                var root: Int
                if start >= 0 {
                    root = start; start -= 1           // building the heap
                } else {
                    end -= 1; swap(&a[0], &a[end])     // the largest to the back
                    root = 0
                }
                while true {                            // sift `root` down inside [0, end)
                    var child = 2 * root + 1
                    if child >= end { break }
                    if child + 1 < end && FrameRenderer.turnPrecedes(a[child], a[child + 1]) { child += 1 }
                    if !FrameRenderer.turnPrecedes(a[root], a[child]) { break }
                    swap(&a[root], &a[child])
                    root = child
                }
            }
        }
    }

    @inline(__always)
    private static func turnPrecedes(_ x: RotationTurn, _ y: RotationTurn) -> Bool {
        x.row != y.row ? x.row < y.row : x.sequence < y.sequence
    }

    /// Object animations: paths with the same elements point by point (the path is made
    /// when read), other objects switch at half-way, keyframes of objects step. Composed as
    /// lane properties are: the animations of one property in add order, the last active one
    /// shows; with none active the model shows, unless one is pending (not committed yet):
    /// then what is shown stays.
    func renderObjects() {
        let curves = timings.curves
        // Index loops: an array iterator allocates in unoptimised builds.
        for k in 0..<animations.objectRecords.count {
            let first = animations.objectRecords[k]
            let r0 = animations.records[Int(first)]
            // Each layer property once, from its first object record in the layer's list.
            var id = animations.firstOfLayer[Int(r0.layer)]
            while id >= 0 && !(animations.records[Int(id)].property == r0.property && animations.records[Int(id)].kind == .object) {
                id = animations.records[Int(id)].nextInLayer
            }
            guard id == first, let h = layers.handle[Int(r0.layer)] else { continue }
            var shown: Any?? = nil    // .some: the value of an active animation
            var anyPending = false
            while id >= 0 {
                let r = animations.records[Int(id)]
                if r.property == r0.property && r.kind == .object {
                    let e = Int(r.timing)
                    let ph = timings.phase[e]
                    if ph == TimingPhase.pending.rawValue {
                        anyPending = true
                    } else if ph == TimingPhase.active.rawValue, let v = animations.objectValues[id] {
                        shown = .some(v.value(at: timings.progress[e], curves: curves))
                    }
                }
                id = r.nextInLayer
            }
            let layer = h.takeUnretainedValue()
            if let shown {
                layer.animatedObjects[r0.property] = shown
            } else if !anyPending {
                layer.animatedObjects[r0.property] = .some(layer.readObject(PropertyID(r0.property)))
            }
        }
    }
}

import Foundation
import StrataGeometry
import StrataSnapshot

// The player's frame format. A frame is a change list applied to the state the player holds:
// a *key* frame applies to the empty state, a *delta* frame to the state of the frame just
// before it. So a run of consecutive frames costs one key frame and, for each frame after it,
// only the items that changed. All numbers are little-endian; "varint" is LEB128, "zigzag" a
// signed LEB128 (ZigZag-mapped):
//
//     varint frame index, f64 media time, f32 frame time (ms), u8 kind (0 key, 1 delta)
//     u32 ops, then per op: varint (n << 2 | op): op 0 keeps the next n items of the order,
//         1 removes the next n, 2 inserts n items, their ids following (zigzag each);
//         the rest of the order is kept. An inserted item starts from the default item.
//     u32 changed items, then per item: varint gap (positions skipped since the last one,
//         in the new order), varint group mask, then the groups in bit order:
//         1 position   zigzag dx, dy     where the bounds' origin lands, 1/64 px
//         2 opacity    u8
//         4 affine     zigzag da, db, dc, dd    the transform's 2-D part, 1/65536
//         8 size       zigzag dw, dh     1/64 px
//        16 background u32 rgba (0: none)
//        32 radius     zigzag d          1/64 px
//        64 border     zigzag d width (1/64 px), u32 rgba, varint items in its subtree after it
//       128 shape      zigzag dx, dy (the path's origin, 1/64 px), varint path + 1 (0: none),
//                      u32 fill, u32 stroke, zigzag d line width (1/64 px),
//                      zigzag d strokeStart, d strokeEnd (1/65536)
//       256 clip       varint how many items back the clipping item is (0: none)
//
// An item's id is its layer's row in the engine; copies a replicator makes of one layer get
// negative ids of their own (-1, -2, ...), stable while they last. Paths are kept once, in
// the document's path table: u32 elements, then per element u8 kind (0 move, 1 line, 2 quad,
// 3 cubic, 4 close) and its points as f32 pairs (1, 1, 2, 3, 0 of them).

/// One item as the player draws it, quantized (see the format above): equal items draw the
/// same, and a change is exact, so a delta never drifts.
struct PlayerItem: Equatable {
    var x: Int32 = 0, y: Int32 = 0
    var a: Int32 = 1 << 16, b: Int32 = 0, c: Int32 = 0, d: Int32 = 1 << 16
    var w: Int32 = 0, h: Int32 = 0
    var opacity: Int32 = 0
    var background: UInt32 = 0
    var radius: Int32 = 0
    var borderWidth: Int32 = 0, borderColor: UInt32 = 0, subtree: Int32 = 0
    var shapeX: Int32 = 0, shapeY: Int32 = 0, path: Int32 = 0, fill: UInt32 = 0, stroke: UInt32 = 0
    var lineWidth: Int32 = 0, strokeStart: Int32 = 0, strokeEnd: Int32 = 0
    var clip: Int32 = 0

    /// Pixels in the player's fixed point.
    static let pixel: Float = 64
    /// The affine part and stroke ends in theirs.
    static let unit: Float = 65536

    /// `v * scale` rounded; not finite or beyond a billion: clamped (NaN: 0).
    @inline(__always)
    static func fixed(_ v: Float, _ scale: Float) -> Int32 {
        let s = v * scale
        guard abs(s) < 1_000_000_000 else { return s > 0 ? 1_000_000_000 : (s < 0 ? -1_000_000_000 : 0) }
        return Int32(s.rounded())
    }

    @inline(__always)
    static func byte(_ v: Float) -> UInt32 {
        let s = v * 255
        guard s > 0 else { return 0 }
        return s < 255 ? UInt32(s.rounded()) : 255
    }

    @inline(__always)
    static func rgba(_ c: SIMD4<Float>) -> UInt32 {
        byte(c.x) | byte(c.y) << 8 | byte(c.z) << 16 | byte(c.w) << 24
    }
}

/// Bytes being written in the player's format.
struct PlayerBytes {
    var bytes: [UInt8] = []

    @inline(__always) mutating func u8(_ v: UInt8) { bytes.append(v) }
    @inline(__always) mutating func varint(_ v: UInt32) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(truncatingIfNeeded: v) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }
    @inline(__always) mutating func zigzag(_ v: Int32) { varint(UInt32(bitPattern: (v << 1) ^ (v >> 31))) }
    @inline(__always) mutating func u32(_ v: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: v)); bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v >> 16)); bytes.append(UInt8(truncatingIfNeeded: v >> 24))
    }
    mutating func f32(_ v: Float) { u32(v.bitPattern) }
    mutating func f64(_ v: Double) { u32(UInt32(truncatingIfNeeded: v.bitPattern)); u32(UInt32(truncatingIfNeeded: v.bitPattern >> 32)) }
    /// Writes `v` at `offset` (a count patched in once known).
    mutating func patch(_ offset: Int, _ v: UInt32) {
        for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    }

    mutating func header(index: Int, time: Double, milliseconds: Double, key: Bool) {
        varint(UInt32(clamping: max(index, 0))); f64(time); f32(Float(milliseconds)); u8(key ? 0 : 1)
    }

    /// The groups of `new` that differ from `old` (nothing when equal), `gap` positions after
    /// the last item written. True when something was written.
    @inline(__always)
    mutating func item(_ old: PlayerItem, _ new: PlayerItem, gap: Int) -> Bool {
        if old == new { return false }
        var m: UInt32 = 0
        if new.x != old.x || new.y != old.y { m |= 1 }
        if new.opacity != old.opacity { m |= 2 }
        if new.a != old.a || new.b != old.b || new.c != old.c || new.d != old.d { m |= 4 }
        if new.w != old.w || new.h != old.h { m |= 8 }
        if new.background != old.background { m |= 16 }
        if new.radius != old.radius { m |= 32 }
        if new.borderWidth != old.borderWidth || new.borderColor != old.borderColor || new.subtree != old.subtree { m |= 64 }
        if new.shapeX != old.shapeX || new.shapeY != old.shapeY || new.path != old.path || new.fill != old.fill
            || new.stroke != old.stroke || new.lineWidth != old.lineWidth || new.strokeStart != old.strokeStart
            || new.strokeEnd != old.strokeEnd { m |= 128 }
        if new.clip != old.clip { m |= 256 }
        varint(UInt32(gap)); varint(m)
        if m & 1 != 0 { zigzag(new.x &- old.x); zigzag(new.y &- old.y) }
        if m & 2 != 0 { u8(UInt8(truncatingIfNeeded: new.opacity)) }
        if m & 4 != 0 { zigzag(new.a &- old.a); zigzag(new.b &- old.b); zigzag(new.c &- old.c); zigzag(new.d &- old.d) }
        if m & 8 != 0 { zigzag(new.w &- old.w); zigzag(new.h &- old.h) }
        if m & 16 != 0 { u32(new.background) }
        if m & 32 != 0 { zigzag(new.radius &- old.radius) }
        if m & 64 != 0 { zigzag(new.borderWidth &- old.borderWidth); u32(new.borderColor); varint(UInt32(bitPattern: new.subtree)) }
        if m & 128 != 0 {
            zigzag(new.shapeX &- old.shapeX); zigzag(new.shapeY &- old.shapeY); varint(UInt32(bitPattern: new.path))
            u32(new.fill); u32(new.stroke); zigzag(new.lineWidth &- old.lineWidth)
            zigzag(new.strokeStart &- old.strokeStart); zigzag(new.strokeEnd &- old.strokeEnd)
        }
        if m & 256 != 0 { varint(UInt32(bitPattern: new.clip)) }
        return true
    }
}

/// A frame's bytes that do not parse.
struct PlayerFormatError: Error, CustomStringConvertible {
    var description: String
}

/// Bytes being read in the player's format.
struct PlayerReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func u8() throws -> UInt8 {
        guard offset < bytes.count else { throw PlayerFormatError(description: "frame ends at byte \(offset)") }
        offset += 1
        return bytes[offset - 1]
    }
    mutating func varint() throws -> UInt32 {
        var v: UInt32 = 0, shift: UInt32 = 0
        while true {
            let b = try u8()
            guard shift < 32 else { throw PlayerFormatError(description: "varint too long at byte \(offset)") }
            v |= UInt32(b & 0x7f) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }
    mutating func zigzag() throws -> Int32 { let v = try varint(); return Int32(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }
    mutating func u32() throws -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(try u8()) << (8 * UInt32(k)) }
        return v
    }
    mutating func f32() throws -> Float { Float(bitPattern: try u32()) }
    mutating func f64() throws -> Double {
        let lo = UInt64(try u32()), hi = UInt64(try u32())
        return Double(bitPattern: lo | hi << 32)
    }

    mutating func item(into it: inout PlayerItem) throws {
        let m = try varint()
        if m & 1 != 0 { it.x &+= try zigzag(); it.y &+= try zigzag() }
        if m & 2 != 0 { it.opacity = Int32(try u8()) }
        if m & 4 != 0 { it.a &+= try zigzag(); it.b &+= try zigzag(); it.c &+= try zigzag(); it.d &+= try zigzag() }
        if m & 8 != 0 { it.w &+= try zigzag(); it.h &+= try zigzag() }
        if m & 16 != 0 { it.background = try u32() }
        if m & 32 != 0 { it.radius &+= try zigzag() }
        if m & 64 != 0 { it.borderWidth &+= try zigzag(); it.borderColor = try u32(); it.subtree = Int32(bitPattern: try varint()) }
        if m & 128 != 0 {
            it.shapeX &+= try zigzag(); it.shapeY &+= try zigzag(); it.path = Int32(bitPattern: try varint())
            it.fill = try u32(); it.stroke = try u32(); it.lineWidth &+= try zigzag()
            it.strokeStart &+= try zigzag(); it.strokeEnd &+= try zigzag()
        }
        if m & 256 != 0 { it.clip = Int32(bitPattern: try varint()) }
        guard m < 512 else { throw PlayerFormatError(description: "unknown groups \((m >> 9) << 9) at byte \(offset)") }
    }
}

/// The items the player holds after a frame: their order (ids) and each id's item. Frames
/// apply to it (`apply`), and it writes itself as a key frame (`keyFrame`).
final class PlayerState {
    private(set) var order: [Int32] = []
    /// Items by id: rows (ids >= 0) and replicas (id -1 is `replicas[0]`).
    private var rows: [PlayerItem] = []
    private var replicas: [PlayerItem] = []

    init() {}

    var heldBytes: Int {
        order.capacity * 4 + (rows.capacity + replicas.capacity) * MemoryLayout<PlayerItem>.stride
    }

    @inline(__always)
    subscript(id: Int32) -> PlayerItem {
        get {
            if id >= 0 { return Int(id) < rows.count ? rows[Int(id)] : PlayerItem() }
            let r = Int(-1 - id)
            return r < replicas.count ? replicas[r] : PlayerItem()
        }
        set {
            if id >= 0 {
                let i = Int(id)
                if i >= rows.count { grow(&rows, to: i + 1) }
                rows[i] = newValue
            } else {
                let r = Int(-1 - id)
                if r >= replicas.count { grow(&replicas, to: r + 1) }
                replicas[r] = newValue
            }
        }
    }

    /// Grows `a` to `n` items, its capacity doubling. (From the capacity: doubling the count
    /// asked for a little more than the last exact-size allocation each time an id one past
    /// the end came, so every such id copied the whole array; stress-100k's motion window of
    /// 120 frames took 44-148 s of the main job, 0.4-1.2 s a frame, nearly all of it here.)
    private func grow(_ a: inout [PlayerItem], to n: Int) {
        if n > a.capacity { a.reserveCapacity(max(n, a.capacity * 2)) }
        a.append(contentsOf: repeatElement(PlayerItem(), count: n - a.count))
    }

    /// The items in drawing order.
    var items: [PlayerItem] { order.map { self[$0] } }

    func setOrder(_ ids: UnsafeBufferPointer<Int32>) {
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: ids)
    }

    /// Applies one frame's bytes (a key frame to any state); returns its index and time.
    @discardableResult
    func apply(_ frame: [UInt8]) throws -> (index: Int, time: Double, milliseconds: Double) {
        var r = PlayerReader(frame)
        let index = Int(try r.varint()), time = try r.f64(), ms = Double(try r.f32())
        let kind = try r.u8()
        guard kind <= 1 else { throw PlayerFormatError(description: "frame \(index): unknown kind \(kind)") }
        let old = kind == 0 ? [] : order
        var new: [Int32] = []
        new.reserveCapacity(old.count)
        var cursor = 0
        let ops = try r.u32()
        for _ in 0..<ops {
            let v = try r.varint(), n = Int(v >> 2)
            switch v & 3 {
            case 0, 1:
                guard cursor + n <= old.count else { throw PlayerFormatError(description: "frame \(index): an op runs past the order") }
                if v & 3 == 0 { new.append(contentsOf: old[cursor..<(cursor + n)]) }
                cursor += n
            case 2:
                for _ in 0..<n {
                    let id = try r.zigzag()
                    self[id] = PlayerItem()
                    new.append(id)
                }
            default: throw PlayerFormatError(description: "frame \(index): unknown op")
            }
        }
        new.append(contentsOf: old[cursor...])
        order = new
        var position = -1
        let changed = try r.u32()
        for _ in 0..<changed {
            position += Int(try r.varint()) + 1
            guard position < order.count else { throw PlayerFormatError(description: "frame \(index): item \(position) of \(order.count)") }
            let id = order[position]
            var it = self[id]
            try r.item(into: &it)
            self[id] = it
        }
        guard r.offset == frame.count else { throw PlayerFormatError(description: "frame \(index): \(frame.count - r.offset) bytes left over") }
        return (index, time, ms)
    }

    /// The state as a key frame.
    func keyFrame(index: Int, time: Double, milliseconds: Double) -> [UInt8] {
        var out = PlayerBytes()
        out.bytes.reserveCapacity(order.count * 20 + 32)
        out.header(index: index, time: time, milliseconds: milliseconds, key: true)
        out.u32(order.isEmpty ? 0 : 1)
        if !order.isEmpty {
            out.varint(UInt32(order.count) << 2 | 2)
            for id in order { out.zigzag(id) }
        }
        let countAt = out.bytes.count
        out.u32(0)
        var changed: UInt32 = 0, last = -1
        let blank = PlayerItem()
        for (i, id) in order.enumerated() where out.item(blank, self[id], gap: i - last - 1) {
            changed += 1
            last = i
        }
        out.patch(countAt, changed)
        return out.bytes
    }
}

/// The document's paths, each once (by content), and each shape's path id for the frame being
/// encoded (a shape showing the same path object as the frame before is not encoded again).
final class PlayerPaths {
    private(set) var table: [[UInt8]] = []
    private(set) var bytes = 0
    private var byContent: [[UInt8]: Int32] = [:]
    private var lastPaths: [CGPath?] = []
    private var lastIDs: [Int32] = []
    /// Path + 1 of each shape of the frame being encoded (0: none).
    private(set) var shapeIDs: [Int32] = []

    var heldBytes: Int { 2 * bytes + table.count * 64 + lastIDs.capacity * 12 + shapeIDs.capacity * 4 }

    func update(_ s: RenderSnapshot) {
        let n = s.shapeCount
        if lastPaths.count < n {
            lastPaths.append(contentsOf: repeatElement(nil, count: n - lastPaths.count))
            lastIDs.append(contentsOf: repeatElement(0, count: n - lastIDs.count))
        }
        shapeIDs.removeAll(keepingCapacity: true)
        for k in 0..<n {
            guard let p = s.path(ofShape: k) else { shapeIDs.append(0); continue }
            if let q = lastPaths[k], q === p { shapeIDs.append(lastIDs[k]); continue }
            let encoded = Self.encode(p)
            let id: Int32
            if let known = byContent[encoded] {
                id = known
            } else {
                id = Int32(table.count) + 1
                table.append(encoded)
                byContent[encoded] = id
                bytes += encoded.count
            }
            lastPaths[k] = p
            lastIDs[k] = id
            shapeIDs.append(id)
        }
    }

    static func encode(_ p: CGPath) -> [UInt8] {
        var out = PlayerBytes()
        out.u32(UInt32(p.elements.count))
        func pt(_ a: CGPoint) { out.f32(Float(a.x)); out.f32(Float(a.y)) }
        for e in p.elements {
            switch e {
            case let .moveTo(a): out.u8(0); pt(a)
            case let .addLine(a): out.u8(1); pt(a)
            case let .addQuadCurve(a, c): out.u8(2); pt(c); pt(a)
            case let .addCurve(a, c1, c2): out.u8(3); pt(c1); pt(c2); pt(a)
            case .closeSubpath: out.u8(4)
            }
        }
        return out.bytes
    }
}

/// Turns render snapshots into the player's frames: each frame the changes since the one
/// before (or a key frame), keeping the state they lead to.
final class PlayerEncoder {
    let state = PlayerState()
    let paths: PlayerPaths
    /// Most items with perspective in one frame (drawn by their affine part).
    private(set) var perspectiveItems = 0
    /// This frame's ids, and where each id sat in the last frame's order and sits in this one.
    private var ids: [Int32] = []
    private var oldPosition: [Int32] = [], newPosition: [Int32] = []
    private var oldReplicaPosition: [Int32] = [], newReplicaPosition: [Int32] = []
    /// Copies of one row in a frame (replicas): the frame a row was last seen, its copies so far.
    private var seen: [UInt32] = []
    private var copies: [Int32] = []
    private var replicaIDs: [Int64: Int32] = [:]
    private var frameStamp: UInt32 = 0
    private var out = PlayerBytes()
    private var insertedScratch: [Int32] = []
    /// Each slot's draw position in the frame being encoded.
    private var slotPositions: [Int32] = []

    /// An encoder writing its paths to `paths` (one table for a document's encoders).
    init(paths: PlayerPaths = PlayerPaths()) { self.paths = paths }

    var heldBytes: Int {
        state.heldBytes + paths.heldBytes + out.bytes.capacity
            + 4 * (ids.capacity + oldPosition.capacity + newPosition.capacity + oldReplicaPosition.capacity
                   + newReplicaPosition.capacity + seen.capacity + copies.capacity + slotPositions.capacity)
            + replicaIDs.count * 24
    }

    /// The frame `s` as the change from the state held (or, `key`, from nothing); the state
    /// becomes `s`'s.
    func encode(_ s: RenderSnapshot, index: Int, time: Double, milliseconds: Double, key: Bool) -> [UInt8] {
        paths.update(s)
        assignIDs(s)
        out.bytes.removeAll(keepingCapacity: true)
        out.header(index: index, time: time, milliseconds: milliseconds, key: key)
        let n = s.count
        let opsAt = out.bytes.count
        out.u32(0)
        ids.withUnsafeBufferPointer { now in
            let same = !key && state.order.count == n && state.order.withUnsafeBufferPointer { was in
                n == 0 || memcmp(was.baseAddress!, now.baseAddress!, n * 4) == 0
            }
            if !same { out.patch(opsAt, diffOrder(now, key: key)) }
            state.setOrder(now)
        }
        let countAt = out.bytes.count
        out.u32(0)
        var changed: UInt32 = 0, last = -1, perspective = 0
        let transforms = s.transforms, bounds = s.bounds, opacities = s.opacities, flags = s.flags
        let radii = s.cornerRadii, backgrounds = s.backgroundColors, borderColors = s.borderColors
        let borderWidths = s.borderWidths, sizes = s.subtreeSizes, clips = s.clips, shapes = s.shapeIndices
        let fills = s.fillColors, strokeColors = s.strokeColors, strokes = s.strokes
        // Items by draw position k (slot i): clips name slots, the player draw positions.
        let order = s.drawOrder
        if slotPositions.count < s.slotCount { slotPositions = [Int32](repeating: -1, count: s.slotCount) }
        for k in 0..<n { slotPositions[Int(order[k])] = Int32(k) }
        paths.shapeIDs.withUnsafeBufferPointer { pathIDs in
            for k in 0..<n {
                let i = Int(order[k])
                let t = transforms[i], b = bounds[i], f = flags[i]
                var it = PlayerItem()
                // The bounds' origin folded into the transform: the item is (0, 0, w, h).
                let origin = SIMD4<Float>(repeating: b.x) * t.row1 + SIMD4<Float>(repeating: b.y) * t.row2 + t.row4
                it.x = PlayerItem.fixed(origin.x, PlayerItem.pixel); it.y = PlayerItem.fixed(origin.y, PlayerItem.pixel)
                it.a = PlayerItem.fixed(t.row1.x, PlayerItem.unit); it.b = PlayerItem.fixed(t.row1.y, PlayerItem.unit)
                it.c = PlayerItem.fixed(t.row2.x, PlayerItem.unit); it.d = PlayerItem.fixed(t.row2.y, PlayerItem.unit)
                it.w = PlayerItem.fixed(b.z, PlayerItem.pixel); it.h = PlayerItem.fixed(b.w, PlayerItem.pixel)
                it.opacity = Int32(PlayerItem.byte(opacities[i]))
                if f.contains(.background) { it.background = PlayerItem.rgba(backgrounds[i]) }
                it.radius = PlayerItem.fixed(radii[i], PlayerItem.pixel)
                if f.contains(.border) {
                    it.borderWidth = PlayerItem.fixed(borderWidths[i], PlayerItem.pixel)
                    it.borderColor = PlayerItem.rgba(borderColors[i])
                    it.subtree = max(0, sizes[i] &- 1)
                }
                let shape = Int(shapes[i])
                if shape >= 0 && shape < pathIDs.count && pathIDs[shape] != 0 {
                    // Paths are in the layer's own space: the bounds' origin is undone for them.
                    it.shapeX = PlayerItem.fixed(b.x, PlayerItem.pixel); it.shapeY = PlayerItem.fixed(b.y, PlayerItem.pixel)
                    it.path = pathIDs[shape]
                    it.fill = PlayerItem.rgba(fills[shape]); it.stroke = PlayerItem.rgba(strokeColors[shape])
                    let st = strokes[shape]
                    it.lineWidth = PlayerItem.fixed(st.x, PlayerItem.pixel)
                    it.strokeStart = PlayerItem.fixed(st.y, PlayerItem.unit); it.strokeEnd = PlayerItem.fixed(st.z, PlayerItem.unit)
                }
                if clips[i] >= 0 { it.clip = Int32(k) &- slotPositions[Int(clips[i])] }
                if f.contains(.perspective) { perspective += 1 }
                let id = ids[k]
                if out.item(state[id], it, gap: k - last - 1) {
                    state[id] = it
                    changed += 1
                    last = k
                }
            }
        }
        out.patch(countAt, changed)
        perspectiveItems = max(perspectiveItems, perspective)
        return out.bytes
    }

    /// Each item's id: its row, or for a row's second and later copies in the frame (a
    /// replicator's), an id of that copy's own.
    private func assignIDs(_ s: RenderSnapshot) {
        let n = s.count, rows = s.layerIndices, order = s.drawOrder
        frameStamp &+= 1
        if frameStamp == 0 { for k in seen.indices { seen[k] = 0 }; frameStamp = 1 }
        ids.removeAll(keepingCapacity: true)
        for k in 0..<n {
            let r = Int(max(rows[Int(order[k])], 0))
            if r >= seen.count {
                let m = max(r + 1, seen.count * 2)
                seen.append(contentsOf: repeatElement(0, count: m - seen.count))
                copies.append(contentsOf: repeatElement(0, count: m - copies.count))
            }
            if seen[r] != frameStamp {
                seen[r] = frameStamp
                copies[r] = 0
                ids.append(Int32(r))
            } else {
                copies[r] += 1
                let key = Int64(r) << 32 | Int64(copies[r])
                if let id = replicaIDs[key] {
                    ids.append(id)
                } else {
                    let id = -Int32(replicaIDs.count) - 1
                    replicaIDs[key] = id
                    ids.append(id)
                }
            }
        }
    }

    /// Writes the ops that turn the state's order into `now`; returns how many. Items that
    /// enter (new, or moved) start from the default item, here as in the player.
    private func diffOrder(_ now: UnsafeBufferPointer<Int32>, key: Bool) -> UInt32 {
        let old = key ? [] : state.order
        // Where each id sits in the old order and in the new one (-1: not there).
        func mark(_ list: some Sequence<Int32>, _ rows: inout [Int32], _ reps: inout [Int32], _ value: (Int) -> Int32) {
            for (k, id) in list.enumerated() {
                if id >= 0 {
                    if Int(id) >= rows.count { rows.append(contentsOf: repeatElement(-1, count: max(Int(id) + 1, 2 * rows.count) - rows.count)) }
                    rows[Int(id)] = value(k)
                } else {
                    let r = Int(-1 - id)
                    if r >= reps.count { reps.append(contentsOf: repeatElement(-1, count: max(r + 1, 2 * reps.count) - reps.count)) }
                    reps[r] = value(k)
                }
            }
        }
        mark(old, &oldPosition, &oldReplicaPosition) { Int32($0) }
        mark(now, &newPosition, &newReplicaPosition) { Int32($0) }
        func oldAt(_ id: Int32) -> Int { id >= 0 ? (Int(id) < oldPosition.count ? Int(oldPosition[Int(id)]) : -1)
                                                 : (Int(-1 - id) < oldReplicaPosition.count ? Int(oldReplicaPosition[Int(-1 - id)]) : -1) }
        func newAt(_ id: Int32) -> Int { id >= 0 ? (Int(id) < newPosition.count ? Int(newPosition[Int(id)]) : -1)
                                                 : (Int(-1 - id) < newReplicaPosition.count ? Int(newReplicaPosition[Int(-1 - id)]) : -1) }
        var ops: UInt32 = 0
        var i = 0, j = 0
        var run = 0, runKind = 0
        insertedScratch.removeAll(keepingCapacity: true)
        func flush() {
            guard run > 0 else { return }
            out.varint(UInt32(run) << 2 | UInt32(runKind))
            if runKind == 2 { for id in insertedScratch { out.zigzag(id) } }
            insertedScratch.removeAll(keepingCapacity: true)
            ops += 1
            run = 0
        }
        func step(_ kind: Int) {
            if run > 0 && runKind != kind { flush() }
            runKind = kind
            run += 1
        }
        while i < old.count || j < now.count {
            if i < old.count && j < now.count && old[i] == now[j] {
                step(0); i += 1; j += 1
            } else if i < old.count && newAt(old[i]) < j {
                step(1); i += 1          // gone, or its new place is behind us: removed here
            } else if j < now.count && oldAt(now[j]) < i {
                step(2)                  // new, or its old place is behind us: inserted here
                insertedScratch.append(now[j])
                state[now[j]] = PlayerItem()
                j += 1
            } else {
                step(1); i += 1          // both further on: this one moves (removed, inserted later)
            }
        }
        // A trailing keep is implied.
        if runKind != 0 { flush() }
        // Leave both position tables all -1 again.
        mark(old, &oldPosition, &oldReplicaPosition) { _ in -1 }
        mark(now, &newPosition, &newReplicaPosition) { _ in -1 }
        return ops
    }
}

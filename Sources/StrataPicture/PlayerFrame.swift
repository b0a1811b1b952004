import Foundation
import StrataGeometry
import StrataSnapshot

/// One frame of a scene for the player, in a compact binary form its script decodes and
/// draws on a canvas (little-endian):
///
///     u32 frame index, f64 media time, f32 frame time (ms), u32 items, u32 paths
///     paths:  u32 elements, then per element u8 kind (0 move, 1 line, 2 quad, 3 cubic, 4 close)
///             and its points as f32 pairs (1, 1, 2, 3, 0 of them)
///     items:  u8 flags (1 affine, 2 background, 4 border, 8 shape, 16 clipped, 32 corner radius)
///             f32 x, y (where the bounds' origin lands), [f32 a, b, c, d], f32 width, height,
///             u8 opacity, [u8 rgba background], [f32 radius], [f32 border width, u8 rgba,
///              u32 subtree end (the border is drawn above the sublayers)],
///             [f32 bounds x, y, u32 path, u8 rgba fill, u8 rgba stroke, f32 line width,
///              f32 strokeStart, f32 strokeEnd],
///             [i32 clip item]
///
/// A plain rectangle costs 22 bytes. Perspective is drawn by the affine part (the player
/// says how many items had it).
public struct PlayerFrame: Sendable {
    public let index: Int
    public let time: Double
    public let frameMilliseconds: Double
    public let items: Int
    public let perspectiveItems: Int
    public let data: Data

    public init(index: Int, time: Double, frameMilliseconds: Double, snapshot s: RenderSnapshot) {
        self.index = index
        self.time = time
        self.frameMilliseconds = frameMilliseconds
        items = s.count
        var out = Data()
        out.reserveCapacity(s.count * 24 + 32)
        func u8(_ v: UInt8) { out.append(v) }
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func i32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func f32(_ v: Float) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        func rgba(_ c: SIMD4<Float>) {
            for k in 0..<4 { u8(UInt8(max(0, min(255, (c[k] * 255).rounded())))) }
        }
        // Paths, each once (shape layers often share one).
        var pathIDs: [ObjectIdentifier: UInt32] = [:]
        var paths: [CGPath] = []
        for k in 0..<s.shapeCount {
            guard let p = s.path(ofShape: k), pathIDs[ObjectIdentifier(p)] == nil else { continue }
            pathIDs[ObjectIdentifier(p)] = UInt32(paths.count)
            paths.append(p)
        }
        u32(UInt32(index)); f64(time); f32(Float(frameMilliseconds)); u32(UInt32(s.count)); u32(UInt32(paths.count))
        for p in paths {
            u32(UInt32(p.elements.count))
            for e in p.elements {
                switch e {
                case let .moveTo(a): u8(0); f32(Float(a.x)); f32(Float(a.y))
                case let .addLine(a): u8(1); f32(Float(a.x)); f32(Float(a.y))
                case let .addQuadCurve(a, c): u8(2); f32(Float(c.x)); f32(Float(c.y)); f32(Float(a.x)); f32(Float(a.y))
                case let .addCurve(a, c1, c2):
                    u8(3); f32(Float(c1.x)); f32(Float(c1.y)); f32(Float(c2.x)); f32(Float(c2.y)); f32(Float(a.x)); f32(Float(a.y))
                case .closeSubpath: u8(4)
                }
            }
        }
        var perspective = 0
        for i in 0..<s.count {
            let t = s.transforms[i], b = s.bounds[i], f = s.flags[i]
            if f.contains(.perspective) { perspective += 1 }
            // The bounds' origin folded into the transform: the item is (0, 0, w, h).
            let origin = SIMD4<Float>(b.x, b.x, b.x, b.x) * t.row1 + SIMD4<Float>(b.y, b.y, b.y, b.y) * t.row2 + t.row4
            let affine = !(t.row1.x == 1 && t.row1.y == 0 && t.row2.x == 0 && t.row2.y == 1)
            let shape = Int(s.shapeIndices[i])
            let radius = s.cornerRadii[i]
            var flags: UInt8 = 0
            if affine { flags |= 1 }
            if f.contains(.background) { flags |= 2 }
            if f.contains(.border) { flags |= 4 }
            if shape >= 0, let p = s.path(ofShape: shape), pathIDs[ObjectIdentifier(p)] != nil { flags |= 8 }
            if s.clips[i] >= 0 { flags |= 16 }
            if radius > 0 { flags |= 32 }
            u8(flags)
            f32(origin.x); f32(origin.y)
            if affine { f32(t.row1.x); f32(t.row1.y); f32(t.row2.x); f32(t.row2.y) }
            f32(b.z); f32(b.w)
            u8(UInt8(max(0, min(255, (s.opacities[i] * 255).rounded()))))
            if flags & 2 != 0 { rgba(s.backgroundColors[i]) }
            if flags & 32 != 0 { f32(radius) }
            if flags & 4 != 0 { f32(s.borderWidths[i]); rgba(s.borderColors[i]); u32(UInt32(s.subtreeEnds[i])) }
            if flags & 8 != 0 {
                // Paths are in the layer's own space: the bounds' origin is undone for them.
                f32(b.x); f32(b.y)
                u32(pathIDs[ObjectIdentifier(s.path(ofShape: shape)!)]!)
                rgba(s.fillColors[shape]); rgba(s.strokeColors[shape])
                let st = s.strokes[shape]
                f32(st.x); f32(st.y); f32(st.z)
            }
            if flags & 16 != 0 { i32(s.clips[i]) }
        }
        perspectiveItems = perspective
        data = out
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The buffers the three kinds of work touch, allocated once: the work itself never
/// allocates, so every sample lands in the work functions or the clock they poll.
final class WorkState {
    /// A property column with dirty flags (commit-like: scattered writes).
    var column = [Double](repeating: 0, count: 1 << 16)
    var dirty = [UInt8](repeating: 0, count: 1 << 16)
    /// An open-addressing table of interned keys (lookup-like: hashing and probing).
    var keys = [UInt64](repeating: 0, count: 1 << 12)
    var values = [Int32](repeating: 0, count: 1 << 12)
    /// Lanes of from / delta / presentation values (evaluate-like: lerp over a curve).
    var from = [Float](repeating: 0, count: 1 << 12)
    var delta = [Float](repeating: 0, count: 1 << 12)
    var out = [Float](repeating: 0, count: 1 << 12)
    var cursor: UInt64 = 0x9E3779B97F4A7C15

    init() {
        for i in 0..<keys.count / 2 {
            let k = UInt64(i) &* 0x9E3779B97F4A7C15 | 1
            var slot = Int(truncatingIfNeeded: k >> 52) & (keys.count - 1)
            while keys[slot] != 0 { slot = (slot + 1) & (keys.count - 1) }
            keys[slot] = k
            values[slot] = Int32(i)
        }
        for i in from.indices { from[i] = Float(i % 97); delta[i] = Float(i % 13) - 6 }
    }
}

/// This thread's CPU time: the work is sliced by CPU time, so a noisy machine (time the
/// thread is not running) does not change the 6:3:1 split.
@inline(__always) func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// The three workloads. Each runs chunks of work until this thread's CPU clock reaches
/// `deadline`; the clock reads happen inside, so they count toward the function's share.
enum AcceptanceWork {
    /// Commit-like: writes model values into a column at scattered rows and marks them dirty.
    @inline(never)
    static func commitLike(_ s: WorkState, until deadline: UInt64) -> UInt64 {
        var acc: UInt64 = 0
        let mask = s.column.count - 1
        repeat {
            var x = s.cursor
            s.column.withUnsafeMutableBufferPointer { column in
                s.dirty.withUnsafeMutableBufferPointer { dirty in
                    for _ in 0..<4096 {
                        x ^= x << 13; x ^= x >> 7; x ^= x << 17
                        let row = Int(truncatingIfNeeded: x) & mask
                        column[row] = column[row] * 0.5 + Double(x & 0xFFFF)
                        dirty[row] |= 1
                        acc &+= UInt64(dirty[(row &+ 1) & mask])
                    }
                }
            }
            s.cursor = x
        } while threadCPUNanoseconds() < deadline
        return acc
    }

    /// Lookup-like: hashes keys and probes the table (hits and misses).
    @inline(never)
    static func lookupLike(_ s: WorkState, until deadline: UInt64) -> UInt64 {
        var acc: UInt64 = 0
        let mask = s.keys.count - 1
        repeat {
            s.keys.withUnsafeBufferPointer { keys in
                s.values.withUnsafeBufferPointer { values in
                    for i in 0..<4096 {
                        let k = UInt64(i &+ Int(acc & 4095)) &* 0x9E3779B97F4A7C15 | 1
                        var slot = Int(truncatingIfNeeded: k >> 52) & mask
                        while keys[slot] != 0 && keys[slot] != k { slot = (slot + 1) & mask }
                        acc &+= keys[slot] == k ? UInt64(values[slot]) : 1
                    }
                }
            }
        } while threadCPUNanoseconds() < deadline
        return acc
    }

    /// Evaluate-like: progress through a smoothstep curve, then lerp every lane.
    @inline(never)
    static func evaluateLike(_ s: WorkState, until deadline: UInt64) -> UInt64 {
        var t: Float = 0.25
        repeat {
            s.from.withUnsafeBufferPointer { from in
                s.delta.withUnsafeBufferPointer { delta in
                    s.out.withUnsafeMutableBufferPointer { out in
                        for _ in 0..<8 {
                            let p = t * t * (3 - 2 * t)
                            for i in 0..<out.count { out[i] = from[i] + delta[i] * p }
                            t = t < 0.9 ? t + 0.001 : 0.1
                        }
                    }
                }
            }
        } while threadCPUNanoseconds() < deadline
        return UInt64(s.out[Int(t * 100)].bitPattern)
    }
}

import Foundation

enum FillBits {
    static let forwards: UInt8 = 1
    static let backwards: UInt8 = 2
}

/// The current media time of this thread's engine: the time of the frame being rendered
/// (`CARenderer.beginFrame(atTime:)`), 0 before the first frame. Tests and benchmarks
/// drive it; nothing reads a wall clock.
public func CACurrentMediaTime() -> Double { EngineContext.current.now }


extension CAMediaTimingFillMode {
    var code: UInt8 {
        switch self {
        case .forwards: return FillBits.forwards
        case .backwards: return FillBits.backwards
        case .both: return FillBits.forwards | FillBits.backwards
        default: return 0
        }
    }

    init(code: UInt8) {
        switch code {
        case FillBits.forwards: self = .forwards
        case FillBits.backwards: self = .backwards
        case FillBits.forwards | FillBits.backwards: self = .both
        default: self = .removed
        }
    }
}

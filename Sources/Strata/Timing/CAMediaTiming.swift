import Foundation

enum FillBits {
    static let forwards: UInt8 = 1
    static let backwards: UInt8 = 2
}

/// Core Animation's timing protocol, adopted by layers and animations.
public protocol CAMediaTiming: AnyObject {
    /// Start time: for an animation, an absolute media time (0 = when its transaction commits).
    var beginTime: Double { get set }
    /// Length of one iteration in seconds (0 = the transaction's duration, 0.25 s by default).
    var duration: Double { get set }
    /// Rate of local time relative to the parent's.
    var speed: Float { get set }
    /// Offset added to local time.
    var timeOffset: Double { get set }
    /// Iterations (0 = 1; `.infinity` = forever).
    var repeatCount: Float { get set }
    /// Total duration of repetition, in seconds (0 = unused).
    var repeatDuration: Double { get set }
    /// Plays each iteration forwards then backwards.
    var autoreverses: Bool { get set }
    /// What holds outside the active duration.
    var fillMode: CAMediaTimingFillMode { get set }
}

/// The current media time of this thread's engine: the time of the frame being rendered
/// (`CARenderer.beginFrame(atTime:)`), 0 before the first frame. Tests and benchmarks
/// drive it; nothing reads a wall clock.
public func CACurrentMediaTime() -> Double { EngineContext.current.now }

/// The key of transition animations.
public let kCATransition = "transition"
/// The event a layer's action gets when it is added to a tree or made visible.
public let kCAOnOrderIn = "onOrderIn"
/// The event a layer's action gets when it is removed from a tree or hidden.
public let kCAOnOrderOut = "onOrderOut"

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

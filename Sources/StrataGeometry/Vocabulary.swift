// Core Animation's named constants and Strata's own small value types: vocabulary both
// engines speak (and scripts, tests and tools exchange), not implementation.

/// The names of Core Animation's predefined timing curves.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    /// The curve's name.
    public let rawValue: String
    /// Creates a name from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// (0,0) (1,1): constant speed.
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// (0.42,0) (1,1): starts slowly.
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// (0,0) (0.58,1): ends slowly.
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// (0.42,0) (0.58,1): starts and ends slowly.
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// (0.25,0.1) (0.25,1): the curve of built-in implicit animations.
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// How an animation's value is held outside its active duration.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name.
    public let rawValue: String
    /// Creates a mode from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// No effect outside the active duration (the default).
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// Holds the final value after the end.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// Holds the initial value before the start.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both of the above.
    public static let both = CAMediaTimingFillMode(rawValue: "both")

}

/// How a keyframe animation computes values between keyframes.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name.
    public let rawValue: String
    /// Creates a mode from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Straight lines between keyframes.
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    /// Jumps from keyframe to keyframe.
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    /// Constant velocity, keyTimes ignored.
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    /// A smooth spline through the keyframes.
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    /// Smooth and paced.
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

/// Whether a path animation turns the layer along the path.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name.
    public let rawValue: String
    /// Creates a mode from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Rotate to the path's tangent.
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    /// Rotate to the tangent plus 180 degrees.
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// The kind of a transition.
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    /// The type's name.
    public let rawValue: String
    /// Creates a type from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Cross-fade (the default).
    public static let fade = CATransitionType(rawValue: "fade")
    /// The new content slides in over the old.
    public static let moveIn = CATransitionType(rawValue: "moveIn")
    /// The new content pushes the old out.
    public static let push = CATransitionType(rawValue: "push")
    /// The old content slides away to reveal the new.
    public static let reveal = CATransitionType(rawValue: "reveal")
}

/// The direction of a transition.
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    /// The subtype's name.
    public let rawValue: String
    /// Creates a subtype from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// From the right edge.
    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    /// From the left edge (the default).
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    /// From the top edge.
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    /// From the bottom edge.
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}

/// What a renderer needs to draw a running transition: its type, direction and progress.
public struct CATransitionState: Equatable, Sendable {
    /// The kind of transition.
    public let type: CATransitionType
    /// The direction (`.fromLeft` when the transition's subtype is nil).
    public let subtype: CATransitionSubtype
    /// startProgress + (endProgress - startProgress) * the transition's eased progress.
    public let progress: Float

    /// A state (made by the engines).
    package init(type: CATransitionType, subtype: CATransitionSubtype, progress: Float) {
        self.type = type; self.subtype = subtype; self.progress = progress
    }
}

/// The engine's own animation value: raw lanes of `Double`, accepted wherever Core Animation
/// takes a boxed value (`fromValue`, `toValue`, `byValue`, `values`). Its lane count must
/// match the key path (1 for `opacity`, 2 for `position`, 4 for colours and rects, 16 for
/// transforms in m11...m44 order).
public struct StrataValue: Equatable, Sendable {
    /// The lanes.
    public var lanes: [Double]
    /// A value of the given lanes.
    public init(_ lanes: [Double]) { self.lanes = lanes }
}

/// What kind of bad input a diagnostic reports.
public enum StrataDiagnosticCode: String, Sendable {
    /// A value whose type does not fit the key path (a CGPoint for `opacity`).
    case wrongValueType
    /// NaN or an infinite value where a finite one is required.
    case nonFiniteValue
    /// A key path that names no property of the layer.
    case unknownKeyPath
    /// A tree change that would make a layer its own ancestor.
    case layerCycle
    /// `CATransaction.commit()` without a matching `begin()`.
    case unbalancedCommit
    /// A thread ended with transactions still open; they were committed.
    case openTransactionsAtThreadExit
    /// Any other argument outside what the API accepts.
    case invalidArgument
    /// A layer used on a thread other than the one whose engine holds it (each thread has its
    /// own engine and transaction stack): the call was refused, or a read may race.
    case wrongThread
    /// A thread's engine is at one of its capacity limits (`StrataEngine.capacityLimits`):
    /// the layer is made inert, or the animation is not added.
    case outOfCapacity
}

/// One diagnostic: bad input that the engine refused, leaving every other state unchanged.
public struct StrataDiagnostic: Sendable, CustomStringConvertible {
    /// What kind of bad input.
    public let code: StrataDiagnosticCode
    /// A sentence naming the input and what happened instead.
    public let message: String
    /// The API call site that received it, when known.
    public let file: String
    /// The line of `file`.
    public let line: UInt

    /// A diagnostic (made by the engines).
    package init(code: StrataDiagnosticCode, message: String, file: String, line: UInt) {
        self.code = code; self.message = message; self.file = file; self.line = line
    }

    /// `[code] message (file:line)`.
    public var description: String { "[\(code.rawValue)] \(message) (\(file):\(line))" }

    /// The same refusal said of child `child` of a group, which drops that child and runs
    /// the others.
    package func droppedFromGroup(child: Int) -> StrataDiagnostic {
        var m = message
        for suffix in ["; animation not added", "; not added"] where m.hasSuffix(suffix) { m.removeLast(suffix.count) }
        return StrataDiagnostic(code: code, message: "\(m); CAAnimationGroup child \(child) dropped, the other children run",
                                file: file, line: line)
    }
}

/// Core Animation's timing protocol, adopted by layers and animations.
public protocol CAMediaTiming: AnyObject {
    /// Start time: for an animation, an absolute time in its layer's time (0 = when its
    /// transaction commits).
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

/// The key of transition animations.
public let kCATransition = "transition"
/// The event a layer's action gets when it is added to a tree or made visible.
public let kCAOnOrderIn = "onOrderIn"
/// The event a layer's action gets when it is removed from a tree or hidden.
public let kCAOnOrderOut = "onOrderOut"

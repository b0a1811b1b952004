// What `import QuartzCore` brings along on Apple's platforms, so that code written for it
// compiles with only the import changed: Foundation (CGFloat, CGPoint, NSNumber, NSValue,
// NSCoder, TimeInterval, and through it the C library's cos, sin, M_PI ...), CoreFoundation's
// CFTimeInterval, and QuartzCore's own NSValue additions. Both engines re-export this module.
@_exported import Foundation

/// A time in seconds (CoreFoundation's spelling, used throughout QuartzCore's headers:
/// `CACurrentMediaTime() -> CFTimeInterval`, `CAMediaTiming.beginTime`).
public typealias CFTimeInterval = Double

/// Darwin's `math.h` name for the largest finite `Float` (`MAXFLOAT`), which Core Animation
/// code uses as a repeat count that never runs out (`repeatCount = HUGE`). Glibc's module does
/// not export it.
public let HUGE: Float = .greatestFiniteMagnitude
/// Darwin's `math.h` name for the largest finite `Float` (see `HUGE`).
public let MAXFLOAT: Float = .greatestFiniteMagnitude

/// The Objective-C type encoding an `NSValue` made by `init(caTransform3D:)` carries.
///
/// Apple's is `{CATransform3D=dddddddddddddddd}`; Foundation on Linux stores no structures
/// of its own in an `NSValue`, so the sixteen doubles are kept as an array of them. Only code
/// that compares `objCType` strings can tell.
package let transform3DObjCType = "[16d]"
/// The encoding of an `NSValue` made by `init(cgAffineTransform:)`: six doubles (Apple's is
/// `{CGAffineTransform=dddddd}`, see ``transform3DObjCType``).
package let affineTransformObjCType = "[6d]"

extension NSValue {
    /// Wraps a transform, as QuartzCore's `+[NSValue valueWithCATransform3D:]`.
    ///
    /// A wrapped transform is accepted wherever a transform is: `fromValue`, `toValue`,
    /// `byValue`, keyframe `values`, `setValue(_:forKey:)`.
    ///
    /// ```swift
    /// let spin = CABasicAnimation(keyPath: "transform")
    /// spin.toValue = NSValue(caTransform3D: CATransform3DMakeRotation(.pi, 0, 0, 1))
    /// ```
    public convenience init(caTransform3D t: CATransform3D) {
        var t = t
        self.init(bytes: &t, objCType: transform3DObjCType)
    }

    /// The transform a value made by `init(caTransform3D:)` wraps; the identity for any other
    /// value.
    public var caTransform3DValue: CATransform3D {
        var t = CATransform3DIdentity
        if String(cString: objCType) == transform3DObjCType { getValue(&t) }
        return t
    }

    /// Wraps an affine transform (UIKit's `NSValue(cgAffineTransform:)`).
    public convenience init(cgAffineTransform t: CGAffineTransform) {
        var t = t
        self.init(bytes: &t, objCType: affineTransformObjCType)
    }

    /// The affine transform a value made by `init(cgAffineTransform:)` wraps; the identity for
    /// any other value.
    public var cgAffineTransformValue: CGAffineTransform {
        var t = CGAffineTransform.identity
        if String(cString: objCType) == affineTransformObjCType { getValue(&t) }
        return t
    }

    /// Wraps a point (UIKit's spelling of Foundation's `NSValue(point:)`).
    public convenience init(cgPoint p: CGPoint) { self.init(point: p) }
    /// Wraps a size (UIKit's spelling of `NSValue(size:)`).
    public convenience init(cgSize s: CGSize) { self.init(size: s) }
    /// Wraps a rectangle (UIKit's spelling of `NSValue(rect:)`).
    public convenience init(cgRect r: CGRect) { self.init(rect: r) }
    /// The wrapped point (UIKit's spelling of `pointValue`).
    public var cgPointValue: CGPoint { pointValue }
    /// The wrapped size (UIKit's spelling of `sizeValue`).
    public var cgSizeValue: CGSize { sizeValue }
    /// The wrapped rectangle (UIKit's spelling of `rectValue`).
    public var cgRectValue: CGRect { rectValue }
}

/// A transform bridges to `NSValue` as on Apple's platforms: `value as? NSValue` of a boxed
/// transform gives `NSValue(caTransform3D:)`, and `value as? CATransform3D` of such an
/// `NSValue` gives the transform back.
extension CATransform3D: _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = NSValue

    public func _bridgeToObjectiveC() -> NSValue { NSValue(caTransform3D: self) }

    public static func _forceBridgeFromObjectiveC(_ source: NSValue, result: inout CATransform3D?) {
        result = source.caTransform3DValue
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSValue, result: inout CATransform3D?) -> Bool {
        guard String(cString: source.objCType) == transform3DObjCType else { return false }
        result = source.caTransform3DValue
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSValue?) -> CATransform3D {
        source?.caTransform3DValue ?? CATransform3DIdentity
    }
}

/// An affine transform bridges to `NSValue` as on Apple's platforms (see `CATransform3D`'s).
extension CGAffineTransform: _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = NSValue

    public func _bridgeToObjectiveC() -> NSValue { NSValue(cgAffineTransform: self) }

    public static func _forceBridgeFromObjectiveC(_ source: NSValue, result: inout CGAffineTransform?) {
        result = source.cgAffineTransformValue
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSValue, result: inout CGAffineTransform?) -> Bool {
        guard String(cString: source.objCType) == affineTransformObjCType else { return false }
        result = source.cgAffineTransformValue
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSValue?) -> CGAffineTransform {
        source?.cgAffineTransformValue ?? .identity
    }
}

/// CATransaction's keys for `setValue(_:forKey:)` (QuartzCore's `kCATransaction...` constants).
public let kCATransactionAnimationDuration = "animationDuration"
/// The key of `CATransaction.disableActions()`.
public let kCATransactionDisableActions = "disableActions"
/// The key of `CATransaction.animationTimingFunction()`.
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
/// The key of `CATransaction.completionBlock()`.
public let kCATransactionCompletionBlock = "completionBlock"

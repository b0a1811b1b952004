import Foundation
import StrataOverrides

/// Which layer classes override `action(forKey:)`, decided once per class: their changes and
/// events ask the override; the others take the engine's lookup, which makes no objects.
enum ActionOverride {
    /// Overrides `action(forKey:)` and nothing else: the probe's reference (never made).
    private final class Overriding: CALayer {
        override func action(forKey event: String) -> CAAction? { nil }
    }
    /// Overrides nothing (never made).
    private final class Plain: CALayer {}

    /// Nil when the class metadata could not be read: then every subclass is asked.
    static let probe = MethodOverrideProbe(base: CALayer.self, overriding: Overriding.self, plain: Plain.self)
    private static let memo = OverrideMemo(probe)

    /// Whether layers of `cls` answer `action(forKey:)` with code of their own.
    static func overrides(_ cls: CALayer.Type) -> Bool { memo.overrides(cls) }
}

/// A probe's answers by class, decided once per class (under a lock: classes are met on any
/// thread). Without a probe every class counts as overriding: always correct, only slower.
final class OverrideMemo: @unchecked Sendable {
    private let probe: MethodOverrideProbe?
    private let lock = NSLock()
    private var known: [ObjectIdentifier: Bool] = [:]

    init(_ probe: MethodOverrideProbe?) { self.probe = probe }

    func overrides(_ cls: AnyClass) -> Bool {
        let id = ObjectIdentifier(cls)
        lock.lock()
        defer { lock.unlock() }
        if let k = known[id] { return k }
        let answer = probe?.overrides(cls) ?? true
        known[id] = answer
        return answer
    }
}

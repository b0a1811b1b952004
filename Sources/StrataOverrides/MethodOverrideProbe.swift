/// Tells whether a subclass overrides one `open` instance method of a Swift class, decided
/// once per class from the classes' vtables, so an engine can call the method only for the
/// classes that override it (Core Animation's `action(forKey:)`: a plain layer keeps the
/// engine's own allocation-free lookup, a subclass that overrides the method is asked).
///
/// Swift has no reflection of methods, but a class's metadata holds its vtable: the entry of
/// a method is the function that runs for that class, inherited unchanged unless the class
/// (or a superclass below the base) overrides it. The probe finds the method's entry by
/// comparing two subclasses the caller declares next to the base, one overriding only that
/// method and one overriding nothing: the one word that differs between them, and is the
/// base's own in the subclass that overrides nothing, is the method's entry. A class then
/// overrides the method when its word there differs from the base's.
///
/// The metadata layout read here (Swift's class metadata without Objective-C interop: kind,
/// superclass, flags and sizes, then the class size and address point at bytes 32 and 36)
/// is checked before use: both probes must name the base as their superclass and exactly one
/// entry must differ. When a check fails the probe is `nil`, and callers treat every
/// subclass as overriding (always correct, only slower).
public struct MethodOverrideProbe: Sendable {
    /// The method's entry, in words from the metadata's address point.
    public let slot: Int
    /// The base class's entry: the base's implementation.
    let baseEntry: UInt
    /// The base class's metadata address.
    let baseAddress: UInt

    /// A probe for the method that `overriding` overrides (and nothing else of `base`), with
    /// `plain` a subclass of `base` overriding none of its methods; nil when the metadata
    /// does not have the layout this probe reads.
    public init?(base: AnyClass, overriding: AnyClass, plain: AnyClass) {
        let b = Self.metadata(base), o = Self.metadata(overriding), p = Self.metadata(plain)
        // Superclass at word 1 of the address point.
        guard Self.word(o, 1) == UInt(bitPattern: b), Self.word(p, 1) == UInt(bitPattern: b) else { return nil }
        let classSize = Int(b.load(fromByteOffset: 32, as: UInt32.self))
        let addressPoint = Int(b.load(fromByteOffset: 36, as: UInt32.self))
        guard addressPoint % 8 == 0, classSize > addressPoint, (classSize - addressPoint) % 8 == 0 else { return nil }
        let words = (classSize - addressPoint) / 8
        // Words 0-6 are the header (kind ... description, ivar destroyer); a vtable this
        // large is a misread.
        guard words > 7, words < 4096 else { return nil }
        var found: [Int] = []
        for i in 7..<words where Self.word(o, i) != Self.word(p, i) && Self.word(p, i) == Self.word(b, i) {
            found.append(i)
        }
        guard found.count == 1 else { return nil }
        slot = found[0]
        baseEntry = Self.word(b, slot)
        baseAddress = UInt(bitPattern: b)
    }

    /// Whether `cls`, the base or one of its subclasses, runs another implementation of the
    /// method than the base's.
    public func overrides(_ cls: AnyClass) -> Bool {
        let m = Self.metadata(cls)
        if UInt(bitPattern: m) == baseAddress { return false }
        return Self.word(m, slot) != baseEntry
    }

    static func metadata(_ cls: AnyClass) -> UnsafeRawPointer {
        unsafeBitCast(cls, to: UnsafeRawPointer.self)
    }

    static func word(_ m: UnsafeRawPointer, _ i: Int) -> UInt {
        m.load(fromByteOffset: i * 8, as: UInt.self)
    }
}

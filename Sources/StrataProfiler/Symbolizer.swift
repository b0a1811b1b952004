import CSampler
import Foundation

/// Names for code addresses of this process, after the run: the object from `dladdr`, the
/// function from the ELF symbol tables (`.symtab` included, through libunwind's local
/// `get_proc_name`; `dladdr`'s dynamic-symbol answer only as a fallback, since for a local
/// function it names the nearest *exported* symbol instead), Swift and C++ names demangled.
/// Results are cached per address.
public final class Symbolizer {
    /// A resolved address.
    public struct Symbol: Hashable, Sendable {
        /// Demangled function name, or `module+0xoffset` when no symbol covers the address.
        public var name: String
        /// File name of the object (`libswiftCore.so`, `strata-bench`), "" when unknown.
        public var module: String
        /// Path of the object.
        public var path: String
        /// Offset of the address from the symbol's start (from the object's base when none).
        public var offset: UInt
        /// How the name was found.
        public var source: Source
        /// The looked-up address's offset in its object (address minus the object's load
        /// base): what `addr2line -e path` takes for a position-independent object. 0 when
        /// the object is unknown.
        public var objectOffset: UInt = 0
    }

    /// Where a symbol's name came from.
    public enum Source: String, Sendable {
        case symbolTable, dynamicSymbol, none
    }

    private var cache: [UInt: Symbol] = [:]
    /// The object base `resolve` saw last.
    private var lastBase: UInt = 0
    private var demangled: [String: String] = [:]

    public init() {}

    /// The symbol of a sample's frame: `exact` for the interrupted PC (frame 0); a return
    /// address (every other frame) is looked up at `address - 1`, inside the call
    /// instruction, so a call that ends its function does not name the next one.
    public func symbol(for address: UInt, exact: Bool) -> Symbol {
        let lookup = exact || address == 0 ? address : address - 1
        if let s = cache[lookup] { return s }
        var s = resolve(lookup)
        s.objectOffset = s.path.isEmpty ? 0 : lookup &- lastBase
        cache[lookup] = s
        return s
    }

    /// Addresses resolved so far.
    public var cachedAddresses: Int { cache.count }

    private func resolve(_ address: UInt) -> Symbol {
        var name = [CChar](repeating: 0, count: 4096)
        var path = [CChar](repeating: 0, count: 4096)
        var base: UInt = 0
        var start: UInt = 0
        let known = csampler_dladdr(address, &name, name.count, &path, path.count, &base, &start) != 0
        lastBase = base
        let objectPath = known ? String(cString: path) : ""
        let dynamicName = known && name[0] != 0 ? String(cString: name) : nil
        let module = objectPath.split(separator: "/").last.map(String.init) ?? ""

        var offset: UInt = 0
        var functionStart: UInt = 0
        switch csampler_proc_name(address, &name, name.count, &offset, &functionStart) {
        case 1:
            return Symbol(name: demangle(String(cString: name)), module: module, path: objectPath,
                          offset: offset, source: .symbolTable)
        case 2:
            // A local function of a stripped object: named by its start, one frame per function.
            let rel = functionStart &- base
            return Symbol(name: "\(module)+0x\(String(rel, radix: 16))", module: module, path: objectPath,
                          offset: address &- functionStart, source: .none)
        default:
            break
        }
        if let dynamicName {
            return Symbol(name: demangle(dynamicName), module: module, path: objectPath,
                          offset: address &- start, source: .dynamicSymbol)
        }
        let rel = address &- base
        let label = known ? "\(module)+0x\(String(rel, radix: 16))" : "0x\(String(address, radix: 16))"
        return Symbol(name: label, module: module, path: objectPath, offset: rel, source: .none)
    }

    /// Swift (`$s…`, `_$s…`, `$S…`, `_T0…`) and C++ (`_Z…`) names demangled; others as given.
    public func demangle(_ mangled: String) -> String {
        if let d = demangled[mangled] { return d }
        let d = Demangler.demangle(mangled) ?? mangled
        demangled[mangled] = d
        return d
    }
}

/// The runtime's demanglers, found at run time: `swift_demangle` (libswiftCore) and
/// `__cxa_demangle` (libstdc++).
public enum Demangler {
    private typealias SwiftDemangle = @convention(c) (UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?,
                                                      UnsafeMutablePointer<Int>?, UInt32) -> UnsafeMutablePointer<CChar>?
    private typealias CxaDemangle = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?,
                                                    UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<CChar>?

    private static let swiftDemangle: SwiftDemangle? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_demangle")
        .map { unsafeBitCast($0, to: SwiftDemangle.self) }
    private static let cxaDemangle: CxaDemangle? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__cxa_demangle")
        .map { unsafeBitCast($0, to: CxaDemangle.self) }

    /// Whether `name` looks like a Swift mangled name.
    public static func isSwiftMangled(_ name: String) -> Bool {
        name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S") || name.hasPrefix("_$S")
            || name.hasPrefix("$e") || name.hasPrefix("_$e") || name.hasPrefix("_T0")
    }

    /// The demangled name, or nil when `name` is not mangled (or not understood).
    public static func demangle(_ name: String) -> String? {
        if isSwiftMangled(name), let f = swiftDemangle {
            return name.withCString { p -> String? in
                guard let out = f(p, strlen(p), nil, nil, 0) else { return nil }
                defer { free(out) }
                return String(cString: out)
            }
        }
        if name.hasPrefix("_Z"), let f = cxaDemangle {
            return name.withCString { p -> String? in
                var status: Int32 = 0
                guard let out = f(p, nil, nil, &status), status == 0 else { return nil }
                defer { free(out) }
                return String(cString: out)
            }
        }
        return nil
    }
}

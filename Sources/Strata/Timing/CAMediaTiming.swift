import Foundation

enum FillBits {
    static let forwards: UInt8 = 1
    static let backwards: UInt8 = 2
}


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

import Foundation

/// One recorded frame of a scene's player, in the player's format (`PlayerEncoding.swift`):
/// a key frame draws from nothing; a delta frame holds only what changed since the frame just
/// before it, so consecutive frames of motion cost little beyond their first.
public struct PlayerFrame: Sendable {
    public let index: Int
    public let time: Double
    public let frameMilliseconds: Double
    public let isKey: Bool
    public let bytes: [UInt8]

    init(index: Int, time: Double, frameMilliseconds: Double, isKey: Bool, bytes: [UInt8]) {
        self.index = index
        self.time = time
        self.frameMilliseconds = frameMilliseconds
        self.isKey = isKey
        self.bytes = bytes
    }

    public var byteCount: Int { bytes.count }
}

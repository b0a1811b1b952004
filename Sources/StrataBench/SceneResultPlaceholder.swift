// TEMPORARY placeholder so the rest of StrataBench compiles while FrameTimeRecorder.swift is
// being written: DELETE THIS FILE as soon as FrameTimeRecorder.swift defines SceneResult.
public struct SceneResult: Codable, Equatable {
    public var name: String
    public var frames: Int
    public var p50: Double
    public var p99: Double
    public var max: Double
    public var withinBudget8: Double
}

/// The phases of one scene frame, in the order a frame runs them: the app's setters (each
/// runs the action lookup) and other changes, commits (the explicit ones and the implicit
/// commit at `beginFrame`), render (evaluation), the render snapshot, and `endFrame`
/// (retiring finished animations, delegate callbacks and completion blocks).
public enum FramePhase: Int, CaseIterable, Codable, Sendable {
    case setters, commit, render, snapshot, endFrame

    /// The phase's name in reports.
    public var name: String {
        switch self {
        case .setters: return "setters"
        case .commit: return "commit"
        case .render: return "render"
        case .snapshot: return "snapshot"
        case .endFrame: return "endFrame"
        }
    }
}

/// Hears where a scene frame's phases begin, so a measurement can be split by phase (the
/// deterministic counts: callgrind dumps, malloc counters). The runner calls `enter` only
/// when the phase changes; a frame starts in `.setters`.
public protocol FramePhaseProbe: AnyObject {
    /// Work from here on belongs to `phase`.
    func enter(_ phase: FramePhase)
}

/// The current media time of this thread's engine: the time of the frame being rendered
/// (`CARenderer.beginFrame(atTime:)`), 0 before the first frame. Tests and benchmarks
/// drive it; nothing reads a wall clock. (The frame loop's clock: a face of Frames.)
public func CACurrentMediaTime() -> Double { EngineContext.current.now }

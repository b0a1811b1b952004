/// The capacity limits of this thread's engine. The defaults are what Int32 row and record
/// indices allow; tests lower them to reach the limits quickly.
@_spi(Benchmarks)
public struct CapacityLimits: Equatable, Sendable {
    public var layers: Int
    public var animations: Int
    public init(layers: Int, animations: Int) { self.layers = layers; self.animations = animations }
}

@_spi(Benchmarks)
extension StrataEngine {
    /// This thread's engine's capacity limits (at most the Int32 defaults).
    public static var capacityLimits: CapacityLimits {
        get { CapacityLimits(layers: EngineContext.current.maxLayers, animations: EngineContext.current.maxAnimations) }
        set {
            let c = EngineContext.current
            c.maxLayers = min(max(0, newValue.layers), Int(Int32.max) - 1)
            c.maxAnimations = min(max(0, newValue.animations), Int(Int32.max) - 1)
        }
    }
}

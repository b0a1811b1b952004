// Core Graphics' value types (CGColor, CGPath, CATransform3D, CGAffineTransform) live in
// StrataGeometry, shared with the reference engine; `import Strata` brings them along, as
// `import QuartzCore` does on Apple's systems.
@_exported import StrataGeometry

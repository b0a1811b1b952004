@_exported import StrataReference
@_exported import StrataScript

/// Which engine this runner drives.
public let scriptEngineName = "StrataReference"

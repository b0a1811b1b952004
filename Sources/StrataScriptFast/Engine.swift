@_exported import Strata
@_exported import StrataScript

/// Which engine this runner drives.
public let scriptEngineName = "Strata"

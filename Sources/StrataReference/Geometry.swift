@_exported import StrataGeometry

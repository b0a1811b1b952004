// The report model and the history are part of the harness's API: `import StrataBench` keeps
// giving the report types, `compare`, `merge`, the statistics and the history store, as it did
// before they had targets of their own.
@_exported import StrataHistory
@_exported import StrataReportModel

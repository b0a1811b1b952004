// The report model is part of the harness's API: `import StrataBench` keeps giving the report
// types, `compare`, `merge` and the statistics, as it did before they had a target of their own.
@_exported import StrataReportModel

import StrataBenchmark

// strata-bench: the StrataBenchmark command line over Strata's own suites and scenes.
StrataBenchmark.registerBuiltIns()
StrataBenchmark.main()

"""What the tests share that is not a fixture: independent solvers, the browser, the fuzzers."""

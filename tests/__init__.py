"""The test suite, by package layer: rules, engine, evolve, analysis, play, runs, reproduce, project."""

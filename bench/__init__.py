"""The benchmark (`bench/run`, a script) and its modules: the large-city generator and the measurements."""

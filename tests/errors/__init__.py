"""bleuprint.errors and what comes out when things go wrong: clear errors on bad input, the
catalogue of hostile inputs, hypothesis-driven hostile input, the core's limits, Ctrl-C."""

"""Tables, PNG plots and the static HTML report every benchmark writes (the statistics
they show are computed in `diagbench.scoring.metrics`)."""

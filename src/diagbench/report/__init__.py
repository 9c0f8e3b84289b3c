"""Tables, PNG plots, statistical tests and the static HTML report every benchmark writes."""

"""Where heavy phases run: in local processes, or as Ray tasks and actors on a cluster;
the outputs are the same either way (`protocol.Executor`)."""

"""Model adapters behind one protocol, the runner, and the SQLite response cache."""

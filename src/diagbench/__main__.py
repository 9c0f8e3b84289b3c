"""`python -m diagbench` runs the CLI."""

from diagbench.cli import main

main()

"""Script-vs-script metrics: the paper-faithful line-diff method and the semantic method
(`compare.pair.compare_scripts`), and the paired test of models scored on the same files
(`compare.significance`)."""

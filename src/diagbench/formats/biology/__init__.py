"""Readers and generators of the biology languages (STRUDEL's biology domain, paper 004
Table 1): Newick trees (`newick`) and FASTA sequences (`fasta`), each read by Biopython."""

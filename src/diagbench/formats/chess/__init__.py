"""Chess (STRUDEL's games-and-music domain, paper 004 Table 1: chess boards): the FEN
reader (`fen`), its seeded generator (`synth`), a small UCI client of Stockfish (`uci`,
the separate GPL program, never imported) and the facts asked about a board (`facts`)."""

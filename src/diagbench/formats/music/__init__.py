"""Reader and generator of music notation (STRUDEL's music domain, paper 004 Table 1):
ABC tunes (`abc`), read by music21; `synth` writes seeded tunes."""

"""Readers, generators and facts of the geography language (STRUDEL's geography domain,
paper 004 Table 1): GeoJSON maps (`geojson`), countries from countryinfo (`synth`,
`facts`)."""

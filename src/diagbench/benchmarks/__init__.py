"""One package per benchmark: how its samples are built, prompted and scored."""

"""Scaled copies, the STRUDEL quality filters, and `diagbench render` end to end."""

from __future__ import annotations

import json
import subprocess
import sys

from PIL import Image

from diagbench.render.filters import (
    Looks,
    aspect_ratio,
    code_duplicates,
    looks,
    near_blank,
    perceptual_duplicates,
)
from diagbench.render.images import fit, scaled_copy

SEQUENCE = "@startuml\nAlice -> Bob : hello\nBob --> Alice : hi\n@enduml\n"


def render_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diagbench", "render", *args],
                          capture_output=True, text=True, timeout=300, check=False)


def test_fit_scales_then_caps_the_longest_side():
    assert fit((200, 100), 1.5, None) == (300, 150)
    assert fit((200, 100), 2.0, 256) == (256, 128)
    assert fit((100, 2000), 1.0, 1024) == (51, 1024)


def test_scaled_copy_uses_one_render(tmp_path):
    src = tmp_path / "a.png"
    Image.new("RGB", (120, 80), "white").save(src)
    w, h, sha = scaled_copy(src, tmp_path / "b.png", 1.5, None)
    assert (w, h) == (180, 120) and len(sha) == 64
    with Image.open(tmp_path / "b.png") as img:
        assert img.size == (180, 120)


def test_perceptual_duplicates_measure_the_hamming_distance_to_each_hash_kept():
    # distances worked out by hand: 0b1111 is 4 bits from 0 (a duplicate at 4), 0b11111
    # 5 bits (kept); bit 63 + 0b1111 is 5 bits from 0 and 2 from 0b11111 (kept second:
    # item 1); 0xFF…F is 64 bits from 0 and 59 from 0b11111 (kept)
    hashes = [0, 0b1111, 0b11111, (1 << 63) | 0b1111, (1 << 64) - 1]
    kept, removed = perceptual_duplicates(hashes, lambda h: Looks(10.0, h), 4)
    assert kept == [0, 0b11111, (1 << 64) - 1]
    assert removed == [(0b1111, "looks like item 0 kept (pHash distance 4 <= 4)"),
                       ((1 << 63) | 0b1111, "looks like item 1 kept (pHash distance 2 <= 4)")]


def test_filters_report_what_they_remove(tmp_path):
    blank, drawn, twin = tmp_path / "blank.png", tmp_path / "drawn.png", tmp_path / "twin.png"
    Image.new("RGB", (64, 64), "white").save(blank)
    img = Image.new("RGB", (64, 64), "white")
    for x in range(8, 56):
        img.putpixel((x, 32), (0, 0, 0))
        img.putpixel((32, x // 2), (0, 0, 0))
    img.save(drawn)
    img.putpixel((1, 1), (250, 250, 250))
    img.save(twin)
    kept, removed = near_blank([blank, drawn], looks)
    assert kept == [drawn] and removed[0][0] == blank and "near blank" in removed[0][1]
    kept, removed = perceptual_duplicates([drawn, twin, blank], looks)
    assert kept == [drawn, blank] and removed[0][0] == twin
    kept, removed = aspect_ratio([(10, 200), (100, 100)], lambda s: s, low=0.1, high=10)
    assert kept == [(100, 100)] and "0.05" in removed[0][1]
    kept, removed = code_duplicates(["a -> b", "a  ->  b\n", "c"], lambda c: c)
    assert kept == ["a -> b", "c"] and removed == [("a  ->  b\n", "same code as item 0")]


def test_render_command_writes_scaled_images_and_reports_invalid(tmp_path):
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "seq.puml").write_text(SEQUENCE, encoding="utf-8")
    (src / "sub" / "graph.dot").write_text("digraph { a -> b }\n", encoding="utf-8")
    (src / "sub" / "two.puml").write_text(
        "@startuml\nA -> B\n@enduml\n@startuml\nA -> B\nthis ) is ( junk\n@enduml\n", "utf-8")
    (src / "binary.puml").write_bytes(b"\x89PNG\x00\x00")
    out = tmp_path / "out"
    done = render_cli(str(src), "--out", str(out), "--scale", "1", "--scale", "2",
                      "--json", str(tmp_path / "r.json"))
    assert done.returncode == 3, done.stderr  # an unreadable file
    assert "rendered 3 of 5 diagrams" in done.stdout
    # the junk is line 3 of the second block, line 6 of the file
    assert "two.puml[1] line 6: Syntax Error" in done.stdout
    records = {(r["file"].rsplit("/", 1)[-1], r["block"]): r
               for r in json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))}
    seq = records[("seq.puml", 0)]
    assert seq["ok"] and seq["engine"] == "plantuml" and (out / "seq.png").is_file()
    [double] = seq["scaled"]
    assert (double["width"], double["height"]) == (2 * seq["width"], 2 * seq["height"])
    assert (out / "sub" / "graph.png").is_file() and records[("graph.dot", 0)]["ok"]
    assert records[("binary.puml", 0)]["error"].startswith("binary file")
    assert "Traceback" not in done.stderr


def test_render_svg_gives_statistics_and_exit_1_on_invalid(tmp_path):
    (tmp_path / "seq.puml").write_text(SEQUENCE, encoding="utf-8")
    (tmp_path / "bad.puml").write_text("@startuml\nA -> B\n) junk (\n@enduml\n", "utf-8")
    done = render_cli(str(tmp_path / "seq.puml"), str(tmp_path / "bad.puml"), "--out",
                      str(tmp_path / "o"), "--format", "svg", "--json", "-")
    assert done.returncode == 1
    ok = next(r for r in json.loads(done.stdout) if r["ok"])
    assert ok["stats"]["participants"] == 2 and ok["stats"]["messages"] == 2
    assert render_cli(str(tmp_path), "--out", "o", "--format", "svg", "--scale", "2"
                      ).returncode == 2


def test_render_svg_of_a_science_language_gives_its_own_statistics(tmp_path):
    """A Newick tree's SVG is read by the tree statistics (leaves and their labels),
    not as a software diagram."""
    (tmp_path / "t.nwk").write_text("((Apis,Bombus),(Canis,Felis),Homo);\n", "utf-8")
    done = render_cli(str(tmp_path / "t.nwk"), "--out", str(tmp_path / "o"), "--format",
                      "svg", "--json", "-")
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)
    assert record["engine"] == "phylo"
    assert record["stats"]["leaves"] == 5
    assert sorted(record["stats"]["leaf_names"]) == ["Apis", "Bombus", "Canis", "Felis", "Homo"]


def test_render_png_gives_statistics_and_lists_skipped_files(tmp_path):
    """PNG records carry what the engine drew too (here a note told apart from the two
    classes, and the note's connector from the one relation), and a file of a folder
    without a diagram suffix is named, not silently left out."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "c.puml").write_text("@startuml\nclass A\nclass B\nA --> B\n"
                                   "note right of A: hi\n@enduml\n", "utf-8")
    (folder / "board.txt").write_text("8/8/8/8/8/8/8/K6k w - - 0 1\n", "utf-8")
    done = render_cli(str(folder), "--out", str(tmp_path / "o"), "--json", "-")
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)
    assert record["stats"] == {"diagram_type": "class", "entities": 2, "relations": 1,
                               "clusters": 0, "notes": 1}
    assert "skipped 1 file(s) without a diagram suffix" in done.stderr
    assert str(folder / "board.txt") in done.stderr

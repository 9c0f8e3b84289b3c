"""Widen the vocabulary from WordNet 3.0 (Debian's `wordnet-base`, read directly from its
database files): is-a chains from hypernyms, whole → part pairs from part meronyms
(composition) and group → member pairs from member meronyms (aggregation). A whole's parts
are also its hyponyms' parts, as WordNet's meronymy is inherited down the is-a hierarchy
(Miller 1990, "Nouns in WordNet"): Car ◆ Wheel gives StationWagon ◆ Wheel, down
`INHERIT_DEPTH` levels, for wholes that are not people (every person has a Shoulder, a
prior no reader holds of a Physicist). WordNet has no dependency ("uses") relation: the
curated groups of `vocabulary.json` give those.

Only common words are used, so that the prior stays unambiguous (§3.1, constraint ii):
a synset is named by a lemma whose most frequent sense it is, tagged at least
`min_count` times in the SemCor counts (`cntlist.rev`), written in CamelCase
(`golden_retriever` → GoldenRetriever). Synsets without such a name are skipped
(is-a is transitive, so a chain steps over them); the abstract top of the
hierarchy and abstract nouns are left out: only synsets of concrete things (the
`CONCRETE` lexicographer files) and, as wholes of members, groups.
"""

from __future__ import annotations

import re
from pathlib import Path

WORDNET_DIR = Path("/usr/share/wordnet")
#: Lexicographer files of concrete things, whose is-a and part-of priors are plain:
#: animal, artifact, body, food, location, object, person, plant, substance.
CONCRETE = frozenset({"05", "06", "08", "13", "15", "17", "18", "20", "27"})
GROUP = "14"  # noun.group: the wholes of member meronyms (herd, team, orchestra)
_LEMMA = re.compile(r"^[a-z]{3,}(?:_[a-z]{2,})*$")  # no initials or one-letter names
_POINTERS = {"@": "hypernym", "~": "hyponym", "%p": "part", "%m": "member"}
MAX_CHAIN = 4
INHERIT_DEPTH = 3
PERSON = "18"  # noun.person


class WordNetError(ValueError):
    """WordNet's database files are missing or unreadable."""


def _camel(lemma: str) -> str:
    return "".join(part.capitalize() for part in lemma.split("_"))


def _counts(root: Path) -> dict[str, int]:
    """Tag count of each noun lemma's first sense."""
    counts = {}
    for line in (root / "cntlist.rev").read_text(encoding="latin-1").splitlines():
        key, sense, count = line.split()
        lemma, _, rest = key.partition("%")
        if rest.startswith("1:") and sense == "1":
            counts[lemma] = int(count)
    return counts


def _names(root: Path, min_count: int) -> dict[str, str]:
    """{synset offset: CamelCase name} of synsets that are a common lemma's first sense."""
    counts = _counts(root)
    best: dict[str, tuple[int, str]] = {}
    for line in (root / "index.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        lemma, count = fields[0], counts.get(fields[0], 0)
        if count < min_count or not _LEMMA.match(lemma) or len(lemma) > 24:
            continue
        offset = fields[-int(fields[2])]  # the synsets come last, most frequent first
        if count > best.get(offset, (0, ""))[0]:
            best[offset] = (count, _camel(lemma))
    return {offset: name for offset, (_, name) in best.items()}


def _links(root: Path) -> tuple[dict[str, dict[str, list[str]]], dict[str, str]]:
    """Pointers of every noun synset by kind, and its lexicographer file."""
    links: dict[str, dict[str, list[str]]] = {}
    lexfiles = {}
    for line in (root / "data.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split(" | ")[0].split()
        offset, lexfile, words = fields[0], fields[1], int(fields[3], 16)
        lexfiles[offset] = lexfile
        at = 4 + 2 * words
        mine: dict[str, list[str]] = {}
        for k in range(int(fields[at])):
            symbol, target, pos = fields[at + 1 + 4 * k: at + 4 + 4 * k]
            if symbol in _POINTERS and pos == "n":
                mine.setdefault(_POINTERS[symbol], []).append(target)
        links[offset] = mine
    return links, lexfiles


def wordnet_chains(root: Path = WORDNET_DIR, min_count: int = 2) -> dict[str, list[list[str]]]:
    """Chains in the vocabulary's format (source → target) for inheritance, composition
    and aggregation."""
    if not (root / "data.noun").is_file():
        raise WordNetError(f"WordNet not found in {root} (on Debian: apt-get install "
                           "wordnet-base)")
    links, lexfiles = _links(root)
    names = _names(root, min_count)
    concrete = {o: n for o, n in names.items() if lexfiles.get(o) in CONCRETE}
    chains: dict[str, list[list[str]]] = {"inheritance": [], "composition": [],
                                          "aggregation": [], "dependency": []}
    for offset, name in sorted(concrete.items()):
        chain, current, seen = [name], offset, {offset}
        while len(chain) < MAX_CHAIN:
            parents = links.get(current, {}).get("hypernym", [])
            if not parents or lexfiles.get(parents[0]) not in CONCRETE or parents[0] in seen:
                break
            current = parents[0]
            seen.add(current)
            if current in concrete and concrete[current] not in chain:
                chain.append(concrete[current])
        if len(chain) > 1:
            chains["inheritance"].append(chain)
        chains["composition"] += [[concrete[whole], concrete[p]]
                                  for p in links[offset].get("part", []) if p in concrete
                                  for whole in _below(offset, links, INHERIT_DEPTH)
                                  if whole in concrete and concrete[whole] != concrete[p]
                                  and (whole == offset or lexfiles[whole] != PERSON)]
    for offset, name in sorted(names.items()):
        if lexfiles.get(offset) == GROUP:
            chains["aggregation"] += [[name, concrete[m]]
                                      for m in links[offset].get("member", [])
                                      if m in concrete and concrete[m] != name]
    return chains


def _below(offset: str, links: dict[str, dict[str, list[str]]], depth: int) -> list[str]:
    """`offset` and its hyponyms down `depth` levels, nearest first."""
    out, level = [offset], [offset]
    for _ in range(depth):
        level = [h for o in level for h in links.get(o, {}).get("hyponym", [])]
        out += level
    return out

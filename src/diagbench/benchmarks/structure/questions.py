"""Closed-ended questions written by the generating model (paper 004 §3.4, Fig. 10).

Every kept sample's code goes back to the generating model with the closed-ended
question prompt of Fig. 10 (verbatim; the paper's `{question_type}` is not given: ours,
`QUESTION_TYPES`, asks for one of multiple choice, yes/no, numerical or text label,
drawn per sample from the seed). The reply is read strictly (`parse_question`):

- `User:` then `Assistant:`, each once, both non-empty;
- choice: the question lists (A), (B), (C) and (D), and the answer opens with one letter;
- yes_no: the answer opens with yes or no;
- number: the answer states a number (`scoring.strict.parse_number`) and holds no other;
- label: the answer is one line of at most 80 characters, written in the code (compared
  as `scoring.name_keys.answer_key` folds it).

Anything else is dropped with its reason and counted in build.json. The question kept
becomes a `model_question` task (`tasks.derive`) scored by the strict readers.

`answer_question` is how baseline:synth answers the prompt offline: it parses the code
it is given with diagbench's readers and asks about what the parsed model holds (a
count, an option among counts, whether two elements are connected, the element a leaf
is connected to or the first message's label), so its gold answers are right.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.benchmarks.structure.counting import statistics
from diagbench.benchmarks.structure.planned import Planned
from diagbench.benchmarks.structure.records import ModelQuestion, QuestionsInfo, Rejection
from diagbench.benchmarks.structure.templates import counting_questions, shown_names

QUESTION_SYSTEM = ("You are an helpful AI assistant expert in generating realistic "
                   "question-answer pairs.")
QUESTION_USER = (
    "Given a code representation in the code language {language}, generate a natural user "
    "question that refers to the image of a {category} which will be rendered from this "
    "code.\n\n"
    "The image will represent exactly what is contained in the code. Use the code "
    "internally as ground truth to understand the contents and visual structure of the "
    "image.\n\n"
    "Also generate an assistant response that gives the correct answer, derived directly "
    "from the code. The answer must match exactly what is in the image.\n\n"
    "The code will not be present in the final dataset, so the question and answer must "
    "sound like they refer to the image itself, not the code. Do not mention, quote, or "
    "reference the code or the code language in the question or answer. Derive every "
    "detail of the question and answer only from what is unambiguously implied by the "
    "code. Do not invent content.\n\n"
    "Frame the question such that it requires visual interpretation of the rendered image. "
    "{question_type}\n\n"
    "Code:\n\n```\n{code}\n```\n\n"
    "Now, please output your results in the format below by filling in the placeholders "
    "in <...>:\n\n"
    "User: <user question>\n\n"
    "Assistant: <assistant answer>")
#: `{question_type}` per answer type (diagbench's wording).
QUESTION_TYPES = {
    "choice": "Ask a multiple choice question with exactly four options, written as (A), "
              "(B), (C) and (D), exactly one of them right; the assistant answer is the "
              "letter of the right option.",
    "yes_no": "Ask a binary question answered with yes or no; the assistant answer is yes "
              "or no.",
    "number": "Ask a numerical question whose answer is one number; the assistant answer "
              "is that number only.",
    "label": "Ask a question whose answer is one text label written in the image; the "
             "assistant answer is that label only, exactly as written.",
}
MAX_LABEL = 80
_REPLY = re.compile(r"^[\s*_`#]*User[\s*_`]*:(?P<q>.*?)^[\s*_`#]*Assistant[\s*_`]*:(?P<a>.*)\Z",
                    re.S | re.M | re.I)
_ROLE = re.compile(r"^[\s*_`#]*(User|Assistant)[\s*_`]*:", re.M | re.I)
_WRAP = " \t\n*_`\"'<>“”"
_LETTER = re.compile(r"^\(?([A-D])(?:\)|\.|:|,|\s|$)")
_YES_NO = re.compile(r"^(yes|no)\b", re.I)
_NUMBERS = re.compile(r"(?<![\w.])[-+]?\d+(?:[.,]\d+)?(?![\w])")


def question_prompt(language: str, category: str, answer_type: str, code: str
                    ) -> tuple[str, str]:
    """(system, user) prompts of Fig. 10 for one code."""
    return QUESTION_SYSTEM, QUESTION_USER.format(
        language=language, category=category, question_type=QUESTION_TYPES[answer_type],
        code=code.strip("\n"))


def question_template_hash() -> str:
    return hashlib.sha256((QUESTION_SYSTEM + QUESTION_USER + "".join(QUESTION_TYPES.values())
                           ).encode()).hexdigest()[:16]


def parse_question(text: str | None, answer_type: str, code: str
                   ) -> tuple[ModelQuestion | None, str]:
    """(the question read, "") or (None, why it is dropped).

    >>> parse_question("User: Is A linked to B?\\nAssistant: Yes.", "yes_no", "A -> B")[0]
    ModelQuestion(type='yes_no', question='Is A linked to B?', answer='yes')
    """
    from diagbench.scoring.name_keys import answer_key
    from diagbench.scoring.strict import parse_number

    m = _REPLY.search(text or "")
    if m is None or len(_ROLE.findall(text or "")) != 2:
        return None, "not one `User:` and one `Assistant:` part"
    question, answer = m.group("q").strip(_WRAP), m.group("a").strip(_WRAP)
    if not question or not answer:
        return None, "empty question or answer"
    if answer_type == "choice":
        if any(question.count(f"({x})") != 1 for x in "ABCD"):
            return None, "choice question without options (A) to (D)"
        letter = _LETTER.match(answer)
        if letter is None:
            return None, "choice answer is not a letter A to D"
        return ModelQuestion("choice", question, letter.group(1)), ""
    if answer_type == "yes_no":
        yes_no = _YES_NO.match(answer)
        if yes_no is None:
            return None, "answer is not yes or no"
        return ModelQuestion("yes_no", question, yes_no.group(1).lower()), ""
    if answer_type == "number":
        number = parse_number(answer, question)
        if number.status != "parsed" or not isinstance(number.value, float) \
                or len(_NUMBERS.findall(answer)) != 1:
            return None, "answer is not one number"
        value = number.value
        return ModelQuestion("number", question, int(value) if value.is_integer() else value), ""
    label = answer.rstrip(".").strip(_WRAP)
    if "\n" in label or len(label) > MAX_LABEL:
        return None, f"label answer longer than one line of {MAX_LABEL} characters"
    if not answer_key(label) or answer_key(label) not in answer_key(code):
        return None, "label answer not written in the code"
    return ModelQuestion("label", question, label), ""


def answer_type_of(seed: int, sample: str) -> str:
    """The answer type asked for a sample (seeded)."""
    return random.Random(f"{seed}:{sample}").choice(sorted(QUESTION_TYPES))


def ask_questions(samples: list[Planned], settings: Any, data: Path, seed: int,
                  max_connections: int = 8, bars: Bars = no_bars
                  ) -> tuple[dict[str, ModelQuestion], QuestionsInfo]:
    """Ask the generating model for one question per sample (through the runner:
    responses in DATA/generation/question_responses.jsonl); (the questions read by
    sample id, what build.json records)."""
    from diagbench.benchmarks.structure.per_sample import ask_each
    from diagbench.languages import category_named, named

    types = {s.id: answer_type_of(seed, s.id) for s in samples}
    kept, dropped, failed = ask_each(
        samples, lambda s: question_prompt(named(s.language).title,
                                           category_named(s.category).title, types[s.id],
                                           s.code or ""),
        lambda s, text: parse_question(text, types[s.id], s.code or ""), settings,
        data / "generation" / "question_responses.jsonl", max_connections, bars,
        "asking questions")
    rejected = [Rejection(s.id, reason, detail, types[s.id]) for s, reason, detail in failed]
    info = QuestionsInfo(question_template_hash(), len(samples), len(kept),
                         dict(sorted(Counter(types.values()).items())),
                         dict(sorted(dropped.items())), rejected)
    return kept, info


# --- baseline:synth's answer --------------------------------------------------------------

_PROMPT = re.compile(r"in the code language (?P<lang>.+?), generate a natural user question "
                     r".*?visual interpretation of the rendered image\. (?P<type>.*?)\n\n"
                     r"Code:\n\n```\n(?P<code>.*)\n```\n\nNow, please output", re.S)
PROMPT_START = "Given a code representation in the code language "


def _links(d: Any) -> list[tuple[str, str]]:
    """(from, to) pairs drawn: relations of a graph, messages of a sequence diagram."""
    from diagbench.diagram.graph import GraphDiagram

    if isinstance(d, GraphDiagram):
        return [(r.source, r.target) for r in d.relations if r.source != r.target]
    return [(m.sender, m.receiver) for m in d.messages if m.sender != m.receiver]


def fact_question(facts: list[Any], answer_type: str, rng: random.Random, code: str
                  ) -> tuple[str, Any] | None:
    """(question, answer) of `answer_type` made of a language's facts (`Fact`s read off
    the parsed model of `code`): a number fact asked as it is (number), with four
    options (choice), or as whether it is one value (yes_no, where no fact is yes or
    no); a fact whose text (or number) is written in the code (label). None: no fact
    fits."""
    from diagbench.scoring.name_keys import answer_key

    numbers = [f for f in facts if isinstance(f.answer, int) and not isinstance(f.answer, bool)]
    truths = [f for f in facts if isinstance(f.answer, bool)]
    written = answer_key(code)
    texts = [f for f in facts if isinstance(f.answer, str | int) and not isinstance(
        f.answer, bool) and answer_key(str(f.answer)) and answer_key(str(f.answer)) in written]
    if answer_type == "number" and numbers:
        f = rng.choice(numbers)
        return f.question, f.answer
    if answer_type == "choice" and numbers:
        f = rng.choice(numbers)
        options = [*rng.sample([x for x in range(max(0, f.answer - 3), f.answer + 4)
                                if x != f.answer], 3), f.answer]
        rng.shuffle(options)
        listed = "\n".join(f"({x}) {o}" for x, o in zip("ABCD", options, strict=True))
        return f"{f.question}\n{listed}", "ABCD"[options.index(f.answer)]
    if answer_type == "yes_no" and truths:
        f = rng.choice(truths)
        return f.question, "yes" if f.answer else "no"
    if answer_type == "yes_no" and numbers:
        f = rng.choice(numbers)
        shown = f.answer if rng.random() < 0.5 else f.answer + rng.choice((-1, 1, 2))
        return (f"{f.question.rstrip('?')}: is it {max(shown, 0)}?",
                "yes" if max(shown, 0) == f.answer else "no")
    if answer_type == "label" and texts:
        f = rng.choice([f for f in texts if isinstance(f.answer, str)] or texts)
        return f.question, str(f.answer)
    return None


def synth_question(parsed: Any, answer_type: str, rng: random.Random
                   ) -> tuple[str, Any] | None:
    """(question, answer) of `answer_type` about a parsed diagram, or None when it has
    nothing to ask of that type."""
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.diagram.sequence import SequenceDiagram

    d = parsed.diagram
    graph = isinstance(d, GraphDiagram)
    if not graph and not isinstance(d, SequenceDiagram):
        return None  # another domain's model: its language's facts are asked instead
    if answer_type in ("number", "choice"):
        counting = counting_questions(statistics(parsed)[0])
        if not counting:
            return None
        question, n = rng.choice(counting)
        if answer_type == "number":
            return question, n
        options = [*rng.sample([x for x in range(max(0, n - 3), n + 4) if x != n], 3), n]
        rng.shuffle(options)
        listed = "\n".join(f"({x}) {o}" for x, o in zip("ABCD", options, strict=True))
        return f"{question}\n{listed}", "ABCD"[options.index(n)]
    named = shown_names(d)[0]
    links = _links(d)
    if answer_type == "yes_no":
        linked = {frozenset(p) if graph else p for p in links}
        pairs = [(a, b) for a in named for b in named if a != b]
        yes = [p for p in pairs if (frozenset(p) if graph else p) in linked]
        no = [p for p in pairs if (frozenset(p) if graph else p) not in linked]
        if not pairs:
            return None
        answer = "yes" if (rng.random() < 0.5 and yes) or not no else "no"
        a, b = rng.choice(yes if answer == "yes" else no)
        if graph:
            return (f"Are '{named[a]}' and '{named[b]}' directly connected to each other in "
                    "the diagram?", answer)
        return f"Does '{named[a]}' send a message to '{named[b]}' in the diagram?", answer
    if not graph:
        first = d.messages[0] if d.messages else None
        if first is not None and first.label.strip() and "\n" not in first.label:
            return "What is the label of the first message, at the top of the diagram?", \
                first.label.strip()
        return None
    neighbours: dict[str, set[str]] = {}
    for a, b in links:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    leaves = [(e, next(iter(n))) for e, n in neighbours.items()
              if e in named and len(n) == 1 and next(iter(n)) in named]
    if leaves:
        e, other = rng.choice(sorted(leaves))
        return (f"Which element is '{named[e]}' directly connected to in the diagram?",
                named[other])
    between = Counter(frozenset(p) for p in links)
    labelled = [r for r in d.relations if r.source in named and r.target in named
                and r.source != r.target and between[frozenset((r.source, r.target))] == 1
                and r.label.strip() and "\n" not in r.label and "\\n" not in r.label]
    if not labelled:
        return None
    r = rng.choice(labelled)
    return (f"What is the label written on the connection between '{named[r.source]}' and "
            f"'{named[r.target]}' in the diagram?", r.label.strip())


def answer_question(prompt: str) -> str:
    """baseline:synth's reply to a Fig. 10 prompt: a question of the type asked about the
    code's parsed model, with its answer; "User:" alone when it has nothing to ask."""
    from diagbench.languages import named, titled

    m = _PROMPT.search(prompt)
    types = {text: name for name, text in QUESTION_TYPES.items()}
    if m is None or m.group("type") not in types:
        return "User:"
    language = titled(m.group("lang")) or named("plantuml")
    parsed = language.read(m.group("code"))
    rng = random.Random(hashlib.sha256(prompt.encode()).hexdigest())
    found = synth_question(parsed[0], types[m.group("type")], rng) if parsed else None
    if found is None and parsed:  # another domain's model: a question from its facts
        found = fact_question(language.facts(parsed[0].diagram), types[m.group("type")],
                              rng, m.group("code"))
    if found is None:
        return "User:"
    return f"User: {found[0]}\n\nAssistant: {found[1]}"

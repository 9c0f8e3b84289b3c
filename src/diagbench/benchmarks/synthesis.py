"""Diagram code written by a model (paper 004_34f8485b6a3a0424.txt §3.1, STRUDEL), shared
by the benchmarks that generate it (`structure` builds its data set with it, `codegen`
measures it): the complexity levels, the prompts of both approaches, the split of an
answer, and the rounds of asking. The categories and their FRLs (formal representation
languages) are the table's (`diagbench.languages`); a sample's persona and domain of
application, `diagbench.benchmarks.personas`'.

- **all-in-one** (Fig. 7): one call writes the problem statement, the functional
  description, the code and the assistant's answer;
- **sequential** (§3.1 and Fig. 8): a first call writes the problem statement the
  persona might have; a second, given that statement and the same input signals,
  writes the functional description and the code. Fig. 8's text is not in the paper:
  ours reuse Fig. 7's sentences, split between the two calls.

Fig. 7's `{code_instruct}` and `{phrasing}` placeholders are not given in the paper;
ours are `CODE_INSTRUCT` and `PHRASING`. Every prompt ends with the input signals, one
per line (`Category:`, `FRL:`, `Complexity:`, `Domain:`), as the paper's example
samples list them, so that an answer can be traced to its inputs.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from diagbench import languages

if TYPE_CHECKING:  # the asking layer loads the image libraries: not at start-up
    from diagbench.benchmarks.asking import Answer, Ask

COMPLEXITIES = ("low", "medium", "high")
Prompting = Literal["all-in-one", "sequential"]
PROMPTINGS: tuple[Prompting, ...] = ("all-in-one", "sequential")

#: The system prompt of each call, as STRUDEL's generators send them: the solution given
#: a problem statement (`SYSTEM`), the all-in-one call, the problem statement alone.
SYSTEM = ("You are a helpful AI assistant expert in generating solutions with functional "
          "descriptions for the problem statements of users.")
SYSTEM_ALL_IN_ONE = ("You are an AI assistant expert at simulating user interactions and "
                     "generating solutions with functional descriptions.")
SYSTEM_PROBLEM = "You are an AI assistant expert at simulating user interactions."
CODE_INSTRUCT = ("Write the code in {lang} so that it draws one {category}; put it in one "
                 "fenced code block.")
PHRASING = ("Phrase the problem statement as this persona would, in the first person, and "
            "set it in the domain {domain}.")
_SIGNALS = "Category: {category}\nFRL: {lang}\nComplexity: {complexity}\nDomain: {domain}\n"
ALL_IN_ONE = (
    "Given a persona, generate a prompt with one problem statement that this persona might "
    "give to an AI assistant. The problem should deal with a {category} and should lead to a "
    "solution using the code language {lang}. Consider that the problem should be of "
    "{complexity} complexity. Then generate a code implementation as solution to the problem "
    "statement using the specific defined code language. {code_instruct} Don't use Python or "
    "any other programming language. Don't add any comments in the code. The code should be "
    "syntactically correct and compile and run without errors. Also provide a functional "
    "description of the solution implementation. Do not mention and not use the code "
    "language in the problem statement or in the functional description. {phrasing} "
    "Finally, generate an answer with which the AI assistant will respond to the problem "
    "statement described in the persona's prompt.\n\n"
    "Persona: {persona}\n\n"
    "Now, please output your results in the format below by filling in the placeholders in "
    "<...>:\n\nProblem:\n\n<problem statement>\n\nFunctionality:\n\n<functional description>"
    "\n\nCode:\n\n```\n\n<code implementation>\n\n```\n\nAnswer:\n\n<assistant answer>\n\n"
    + _SIGNALS)
PROBLEM = (
    "Given a persona, generate a prompt with one problem statement that this persona might "
    "give to an AI assistant. The problem should deal with a {category} and should lead to a "
    "solution using the code language {lang}. Consider that the problem should be of "
    "{complexity} complexity. Do not mention and not use the code language in the problem "
    "statement. {phrasing}\n\n"
    "Persona: {persona}\n\n"
    "Now, please output your result in the format below by filling in the placeholder in "
    "<...>:\n\nProblem:\n\n<problem statement>\n\n" + _SIGNALS)
SOLUTION = (
    "Given a persona and the problem statement this persona gave to an AI assistant, "
    "generate a code implementation as solution to the problem statement using the code "
    "language {lang}. The problem deals with a {category} of {complexity} complexity in the "
    "domain {domain}. {code_instruct} Don't use Python or any other programming language. "
    "Don't add any comments in the code. The code should be syntactically correct and "
    "compile and run without errors. Also provide a functional description of the solution "
    "implementation. Do not mention and not use the code language in the functional "
    "description. Finally, generate an answer with which the AI assistant will respond to "
    "the problem statement.\n\n"
    "Persona: {persona}\n\n"
    "Problem statement: {problem}\n\n"
    "Now, please output your results in the format below by filling in the placeholders in "
    "<...>:\n\nFunctionality:\n\n<functional description>\n\nCode:\n\n```\n\n"
    "<code implementation>\n\n```\n\nAnswer:\n\n<assistant answer>\n\n" + _SIGNALS)


@dataclass(frozen=True, slots=True)
class Signals:
    """The input signals of one sample to generate (§3.1), its id and the approach."""

    id: str
    category: str  # a category's name (`diagbench.languages.category_named`)
    language: str  # a language's name (`diagbench.languages.named`)
    complexity: str
    persona: str
    domain: str
    prompting: Prompting = "all-in-one"

    def fill(self, template: str, **more: str) -> str:
        title = languages.category_named(self.category).title
        lang = languages.named(self.language).title
        return template.format(category=title, lang=lang, complexity=self.complexity,
                               persona=self.persona, domain=self.domain,
                               code_instruct=CODE_INSTRUCT.format(lang=lang, category=title),
                               phrasing=PHRASING.format(domain=self.domain), **more)


def template_hash(prompting: Prompting = "all-in-one") -> str:
    """A hash of the templates of one approach (the manifests record it)."""
    texts = (SYSTEM_ALL_IN_ONE, ALL_IN_ONE) if prompting == "all-in-one" else \
        (SYSTEM_PROBLEM, PROBLEM, SYSTEM, SOLUTION)
    return hashlib.sha256(("".join(texts) + CODE_INSTRUCT + PHRASING).encode()
                          ).hexdigest()[:16]


PromptKind = Literal["all-in-one", "problem", "solution"]


def prompt_kind(prompt: str) -> PromptKind | None:
    """Which generation prompt `prompt` is (None: none of them), by the placeholders of
    its output format."""
    problem, description = "<problem statement>" in prompt, "<functional description>" in prompt
    if problem and description:
        return "all-in-one"
    return "problem" if problem else "solution" if description else None


_SECTION = re.compile(r"^[^\w\n]*(Problem|Functionality|Code|Answer)[^\w\n]*:[^\w\n]*$",
                      re.M | re.I)
_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.M | re.S)


@dataclass(frozen=True, slots=True)
class Split:
    """A generation answer split into its parts (None: the part is missing)."""

    problem: str | None
    description: str | None
    code: str | None
    answer: str | None
    fenced: bool


def split_answer(text: str) -> Split:
    """Problem statement, functional description, code (fenced or not: the last fenced
    block of the Code part, else the whole Code part) and assistant answer.

    >>> s = split_answer("Problem:\\nP\\nFunctionality:\\nD\\nCode:\\n```dot\\ndigraph{}\\n```\\n")
    >>> (s.problem, s.description, s.code.strip(), s.fenced)
    ('P', 'D', 'digraph{}', True)
    """
    marks = list(_SECTION.finditer(text))
    parts: dict[str, str] = {}
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        parts.setdefault(m.group(1).lower(), text[m.end():end].strip())
    code_part = parts.get("code")
    fenced = False
    code = None
    if code_part is not None:
        blocks = _FENCE.findall(code_part + "\n")
        if blocks:
            code, fenced = blocks[-1][1].strip("\n") + "\n", True
        elif code_part:
            code = code_part.strip("\n") + "\n"
    elif (blocks := _FENCE.findall(text)):
        code, fenced = blocks[-1][1].strip("\n") + "\n", True
    return Split(parts.get("problem") or None, parts.get("functionality") or None,
                 code if code and code.strip() else None, parts.get("answer") or None, fenced)


CALL_FAILED = "the call failed"
NO_PROBLEM = "no problem statement in the answer"
NO_CODE = "no code in the answer"


@dataclass(frozen=True, slots=True)
class Generated:
    """What the model wrote for one sample, or why there is nothing to use: `failure`
    is None, `CALL_FAILED` (`detail`: the error), `NO_PROBLEM` (the first sequential
    answer is empty) or `NO_CODE`."""

    problem: str | None = None
    description: str | None = None
    code: str | None = None
    fenced: bool = False
    failure: str | None = None
    detail: str = ""


#: Answers a batch of asks (live through the runner, or replayed from a run).
AskFn = Callable[[list["Ask"]], Mapping[str, "Answer"]]
SOLUTION_ID = "{id}/solution"


def first_ask(s: Signals) -> Ask:
    """The first call of a sample: Fig. 7 (all-in-one), or the problem statement."""
    from diagbench.benchmarks.asking import Ask

    if s.prompting == "all-in-one":
        return Ask(s.id, s.fill(ALL_IN_ONE), None, SYSTEM_ALL_IN_ONE)
    return Ask(s.id, s.fill(PROBLEM), None, SYSTEM_PROBLEM)


def ask_all(samples: Sequence[Signals], ask: AskFn) -> dict[str, Answer]:
    """Every answer of every sample, by `Ask.id`: the first calls, then the second call
    of each sequential sample whose problem statement came back (given it). Each later
    batch repeats the asks before it, so that a run's responses keep every round: the
    answered ones come back from the run, a failed one is tried again (as a resumed run
    does), and when that gives a problem statement, its second call follows in the next
    batch. Replayed from a run's responses, the same batches give the same answers."""
    from diagbench.benchmarks.asking import Ask

    asked = [first_ask(s) for s in samples]
    answers = dict(ask(asked))
    done: set[str] = set()
    while True:
        more = []
        for s in samples:
            problem = _problem(answers.get(s.id)) if s.prompting == "sequential" else None
            if problem and s.id not in done:
                done.add(s.id)
                more.append(Ask(SOLUTION_ID.format(id=s.id),
                                s.fill(SOLUTION, problem=problem), None, SYSTEM))
        if not more:
            return answers
        asked += more
        answers = dict(ask(asked))


def _problem(answer: Answer | None) -> str | None:
    """The problem statement of a first-round sequential answer."""
    if answer is None or answer.status != "ok" or not answer.text:
        return None
    return split_answer(answer.text).problem or answer.text.strip() or None


def assemble(s: Signals, answers: Mapping[str, Answer]) -> Generated:
    """What the model wrote for sample `s`, from the answers of `ask_all`."""
    first = answers.get(s.id)
    if first is None or first.status != "ok":
        return Generated(failure=CALL_FAILED, detail=str(first.error if first else "not asked"))
    if s.prompting == "all-in-one":
        split = split_answer(first.text or "")
        problem = split.problem
    else:
        problem = _problem(first)
        if problem is None:
            return Generated(failure=NO_PROBLEM)
        second = answers.get(SOLUTION_ID.format(id=s.id))
        if second is None or second.status != "ok":
            return Generated(problem, failure=CALL_FAILED, detail="solution: " + str(
                second.error if second else "not asked"))
        split = split_answer(second.text or "")
    if split.code is None:
        return Generated(problem, split.description, failure=NO_CODE)
    return Generated(problem, split.description, split.code, split.fenced)

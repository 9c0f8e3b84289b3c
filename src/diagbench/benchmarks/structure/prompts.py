"""The prompts of the structure benchmark: generation (paper 004 Appendix, Figs. 7–8),
the tasks (§3.4), and the split of a generation answer into its parts.

Fig. 7's `{code_instruct}` and `{phrasing}` placeholders are not given in the paper;
ours are `CODE_INSTRUCT` and `PHRASING`. The prompt ends with the fields again, one
per line (`Category:`, `FRL:`, `Complexity:`, `Domain:`, `Persona:`), as the paper's
example samples list them, so an answer can be traced to its inputs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

SYSTEM = ("You are a helpful AI assistant expert in generating solutions with functional "
          "descriptions for the problem statements of users.")
CODE_INSTRUCT = ("Write the code in {lang} so that it draws one {category}; put it in one "
                 "fenced code block.")
PHRASING = ("Phrase the problem statement as this persona would, in the first person, and "
            "set it in the domain {domain}.")
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
    "Category: {category}\nFRL: {lang}\nComplexity: {complexity}\nDomain: {domain}\n")


def generation_prompt(category: str, lang: str, complexity: str, persona: str,
                      domain: str) -> str:
    """Fig. 7 (all-in-one) filled in."""
    return ALL_IN_ONE.format(
        category=category, lang=lang, complexity=complexity, persona=persona, domain=domain,
        code_instruct=CODE_INSTRUCT.format(lang=lang, category=category),
        phrasing=PHRASING.format(domain=domain))


def template_hash() -> str:
    return hashlib.sha256((SYSTEM + ALL_IN_ONE + CODE_INSTRUCT + PHRASING).encode()
                          ).hexdigest()[:16]


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

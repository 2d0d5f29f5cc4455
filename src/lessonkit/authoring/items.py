"""How well questions are written: item-writing rules that advise by default.

Each is a rule of the book (a course may switch it off, or raise it to a warning) and
works on one lesson and its bank: objectives without questions, where the right answer
sits, short explanations, catch-all options, options that differ only in spelling, and
a correct option that gives itself away by its length.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter

from pydantic import Field

from lessonkit.authoring.policy import Rule, RuleSettings, Subject
from lessonkit.bank import yamldoc
from lessonkit.bank.questions import ChoiceQuestion, SingleQuestion
from lessonkit.errors import Problem

# One question proves an objective is assessed at all; how many a quiz samples is the
# insight count's job, so asking for more here would double the same advice.
MIN_PER_OBJECTIVE = 1
# Two options are "nearly the same" when they differ only in spelling (a plural, a typo),
# punctuation or little words. A contrast of whole words, numbers or code is a deliberate
# minimal pair: `Vec<T>` vs `&Vec<T>`, "127" vs "128", "always" vs "sometimes". Tuned on
# the Rust Book's 141 multiple-choice questions (cognitive-engineering-lab/rust-book):
# difflib's ratio ≥ 0.85 alone flagged 112 option pairs there, every one deliberate.
SAME_SPELLING = 0.8  # two words this alike (difflib ratio) are one word spelled twice
_LITTLE_WORDS = frozenset(
    {"a", "an", "the", "of", "to", "in", "on", "at", "by", "for", "and", "or", "is", "are"}
    | {"it", "its", "this", "that"}
)
_TOKEN = re.compile(r"`[^`]*`|\w+|[^\w\s]")
LONG_CORRECT = 1.5  # a correct option this many times its distractors' average length…
LONG_CORRECT_CHARS = 20  # …and at least this many characters longer gives itself away
SHORT_EXPLANATION_WORDS = 6
DOMINANT_SHARE = 0.5  # one position holding more than this share of the correct answers
DOMINANT_MIN_QUESTIONS = 4  # fewer single-choice questions than this say nothing

_CATCH_ALL = re.compile(
    r"\b(all|none|both|neither) of (the )?(above|these|those)\b|\bboth [a-d] and [a-d]\b",
    re.IGNORECASE,
)


def letter(position: int) -> str:
    return chr(ord("A") + position)


def correct_positions(subject: Subject) -> Counter[int]:
    """0-based position of the correct option in each `single` question."""
    questions = subject.bank.questions if subject.bank else []
    return Counter(
        next(i for i, o in enumerate(q.options) if o.correct)
        for q in questions
        if isinstance(q, SingleQuestion)
    )


def _objectives(subject: Subject, settings: RuleSettings) -> list[Problem]:
    if subject.bank is None:
        return []
    lesson = subject.lesson
    # set(): a question that lists an objective twice still assesses it once.
    assessed = Counter(n for q in subject.bank.questions for n in set(q.objectives))
    return [
        lesson.front.problem(
            ("objectives", number - 1),
            f"objective {number} has no questions",
            f"add `{number}` to the `objectives:` of the questions that assess it, "
            "or write one that does",
        )
        for number in range(1, len(lesson.meta.objectives) + 1)
        if assessed[number] < MIN_PER_OBJECTIVE
    ]


def _positions(subject: Subject, settings: RuleSettings) -> list[Problem]:
    positions = correct_positions(subject)
    total = sum(positions.values())
    if subject.document is None or total < DOMINANT_MIN_QUESTIONS:
        return []
    position, count = max(positions.items(), key=lambda item: (item[1], -item[0]))
    if count / total <= DOMINANT_SHARE:
        return []
    return [
        subject.document.problem(
            ("questions",),
            f"the correct option is {letter(position)} in {count} of {total} single-choice "
            "questions",
            "vary where the right answer sits; learners on the site see the written order",
            key=True,
        )
    ]


class ShortExplanation(RuleSettings):
    min_words: int = Field(
        SHORT_EXPLANATION_WORDS, ge=1, description="Fewest words in an explanation."
    )


def _explanations(subject: Subject, settings: ShortExplanation) -> list[Problem]:
    if subject.bank is None or subject.document is None:
        return []
    return [
        subject.document.problem(
            ("questions", index, "explanation"),
            f"questions[{index}].explanation is short",
            "say why the answer is right and what the common wrong answer misses",
        )
        for index, question in enumerate(subject.bank.questions)
        if len(question.explanation.split()) < settings.min_words
    ]


def _choices(subject: Subject) -> list[tuple[yamldoc.Document, int, ChoiceQuestion]]:
    if subject.bank is None or subject.document is None:
        return []
    document = subject.document
    return [
        (document, index, question)
        for index, question in enumerate(subject.bank.questions)
        if isinstance(question, ChoiceQuestion)
    ]


def _catch_alls(subject: Subject, settings: RuleSettings) -> list[Problem]:
    found: list[Problem] = []
    for document, index, question in _choices(subject):
        for number, option in enumerate(question.options):
            catch_all = _CATCH_ALL.search(" ".join(option.text.casefold().split()))
            if catch_all:
                found.append(
                    document.problem(
                        ("questions", index, "options", number, "text"),
                        f'questions[{index}].options[{number}] is a catch-all ("'
                        f'{catch_all.group(0)}")',
                        "write a real answer; catch-alls test reading strategy, not the lesson",
                    )
                )
    return found


def _similar(subject: Subject, settings: RuleSettings) -> list[Problem]:
    found: list[Problem] = []
    for document, index, question in _choices(subject):
        texts = [" ".join(o.text.casefold().split()) for o in question.options]
        for number, text in enumerate(texts):
            for other in range(number):
                if question.options[number].value is not None and question.options[other].value:
                    continue  # their numbers differ, draw by draw: validate's sweep checks them
                if nearly_same(texts[other], text):
                    ratio = difflib.SequenceMatcher(None, texts[other], text).ratio()
                    found.append(
                        document.problem(
                            ("questions", index, "options", number, "text"),
                            f"questions[{index}].options[{number}] is nearly the same as "
                            f"options[{other}] ({ratio:.0%} alike)",
                            "make each option a different answer",
                        )
                    )
    return found


def nearly_same(first: str, second: str) -> bool:
    """Whether two options differ only in spelling, punctuation or little words."""
    before, after = _TOKEN.findall(first.casefold()), _TOKEN.findall(second.casefold())
    if "```" in first or "```" in second:
        return False  # code blocks: every difference is meant
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        changed = before[i1:i2] + after[j1:j2]
        if all(_trivial(token) for token in changed):
            continue
        if tag == "replace" and i2 - i1 == 1 and j2 - j1 == 1:
            old, new = before[i1], after[j1]
            if old.isalpha() and new.isalpha() and _spelled_alike(old, new):
                continue
        return False
    return True


def _trivial(token: str) -> bool:
    return token in _LITTLE_WORDS or not (token[0].isalnum() or token[0] in "`_")


def _spelled_alike(old: str, new: str) -> bool:
    return difflib.SequenceMatcher(None, old, new).ratio() >= SAME_SPELLING


def _long_correct(subject: Subject, settings: RuleSettings) -> list[Problem]:
    found: list[Problem] = []
    for document, index, question in _choices(subject):
        if not isinstance(question, SingleQuestion):
            continue
        right = next(i for i, o in enumerate(question.options) if o.correct)
        length = len(question.options[right].text)
        others = [len(o.text) for o in question.options if not o.correct]
        average = sum(others) / len(others)
        if length < LONG_CORRECT * average or length - average < LONG_CORRECT_CHARS:
            continue
        found.append(
            document.problem(
                ("questions", index, "options", right, "text"),
                f"questions[{index}]: the correct option is {length / average:.1f} times as "
                "long as the others",
                "learners pick the longest option; trim it or give the distractors the same detail",
            )
        )
    return found


OBJECTIVES = Rule(
    "objectives-covered",
    "Every objective in a lesson's front matter is assessed by at least one question "
    "(`objectives: [1, 3]` on the question).",
    "an objective no question assesses is a promise the quiz does not check",
    default="advice",
    lesson_check=_objectives,
)
ANSWER_POSITION = Rule(
    "answer-position",
    "In a bank with four or more single-choice questions, no one position holds the correct "
    "option in more than half of them.",
    "learners on the site see the written order and learn to guess the favourite letter",
    default="advice",
    lesson_check=_positions,
)
SHORT_EXPLANATIONS = Rule(
    "short-explanation",
    "An explanation has at least {min_words} words.",
    "it says why the answer is right and what the tempting wrong answer misses",
    default="advice",
    settings=ShortExplanation,
    lesson_check=_explanations,
)
CATCH_ALL = Rule(
    "catch-all",
    'No "all of the above", "none of the above" or "both A and B" options.',
    "catch-alls test reading strategy, not the lesson",
    default="advice",
    lesson_check=_catch_alls,
)
SIMILAR_OPTIONS = Rule(
    "similar-options",
    "No two options of a question differ only in spelling, punctuation or little words.",
    "two options that say the same thing make a question with one real choice fewer",
    default="advice",
    lesson_check=_similar,
)
LONG_CORRECT_OPTION = Rule(
    "long-correct",
    "The correct option of a single-choice question is not far longer than the others.",
    "learners pick the longest option when they do not know the answer",
    default="advice",
    lesson_check=_long_correct,
)

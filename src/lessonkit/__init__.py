"""lessonkit: lessons on a static site, quizzes graded locally in the terminal.

The public API is re-exported here lazily: `import lessonkit` stays cheap, so the
quiz can show its first question before pydantic is even imported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "Bank": "bank.models",
    "Lesson": "bank.models",
    "Plan": "bank.models",
    "Question": "bank.questions",
    "Problem": "errors",
    "LessonkitError": "errors",
    "ContentError": "errors",
    "UsageError": "errors",
    "load_bank": "bank.loader",
    "read_lesson": "course.lessons",
    "Course": "course.course",
    "check_course": "authoring.rulebook",
    "load_course": "authoring.rulebook",
    "Grade": "grading.credit",
    "grade": "questiontypes.registry",
}

__all__ = [
    "Bank",
    "ContentError",
    "Course",
    "Grade",
    "Lesson",
    "LessonkitError",
    "Plan",
    "Problem",
    "Question",
    "UsageError",
    "__version__",
    "check_course",
    "grade",
    "load_bank",
    "load_course",
    "read_lesson",
]

if TYPE_CHECKING:
    from lessonkit.authoring.rulebook import check_course, load_course
    from lessonkit.bank.loader import load_bank
    from lessonkit.bank.models import Bank, Lesson, Plan
    from lessonkit.bank.questions import Question
    from lessonkit.course.course import Course
    from lessonkit.course.lessons import read_lesson
    from lessonkit.errors import ContentError, LessonkitError, Problem, UsageError
    from lessonkit.grading.credit import Grade
    from lessonkit.questiontypes.registry import grade


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'lessonkit' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)

"""lessonkit: lessons on a static site, quizzes graded locally in the terminal.

The public API is re-exported here lazily: `import lessonkit` stays cheap, so the
quiz can show its first question before pydantic is even imported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "Bank": "models",
    "Lesson": "models",
    "Plan": "models",
    "Question": "models",
    "Problem": "errors",
    "LessonkitError": "errors",
    "ContentError": "errors",
    "UsageError": "errors",
    "load_bank": "loader",
    "read_lesson": "lessons",
    "Course": "course",
    "check_course": "rulebook",
    "load_course": "rulebook",
    "Grade": "grader",
    "grade": "grader",
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
    from .course import Course
    from .errors import ContentError, LessonkitError, Problem, UsageError
    from .grader import Grade, grade
    from .lessons import read_lesson
    from .loader import load_bank
    from .models import Bank, Lesson, Plan, Question
    from .rulebook import check_course, load_course


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'lessonkit' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)

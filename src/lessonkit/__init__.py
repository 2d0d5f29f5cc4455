"""lessonkit: lessons on a static site, quizzes graded locally in the terminal."""

__version__ = "0.1.0"

"""`python -m lessonkit`: the same as the `lessonkit` command."""

import sys

from lessonkit.cli import main

sys.exit(main())

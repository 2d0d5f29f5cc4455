"""`python -m lessonkit`: the same as the `lessonkit` command."""

import sys

from .cli import main

sys.exit(main())

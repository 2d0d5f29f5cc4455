"""Opening the history database: WAL, migrations, and setting unusable files aside."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from lessonkit.errors import LessonkitError

DB_NAME = "history.db"
# Long enough to wait out another terminal's commit (milliseconds), short enough to report.
BUSY_TIMEOUT_MS = 30_000
# SQLite keeps these beside the database; they belong to it and move with it.
COMPANIONS = ("-wal", "-shm", "-journal")

TAKEN_BACK = """CREATE {temp}TABLE taken_back (
    answer_id INTEGER PRIMARY KEY REFERENCES answers (id),
    taken TEXT NOT NULL)"""
# What reading an older schema without migrating it needs: empty stand-ins for later tables.
STAND_INS: dict[int, tuple[str, ...]] = {1: (TAKEN_BACK.format(temp="TEMP "),)}

# Entry N moves the schema from version N to N+1; never edit one that has shipped.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE attempts (
            id INTEGER PRIMARY KEY,
            bank TEXT NOT NULL,
            kind TEXT NOT NULL DEFAULT 'quiz' CHECK (kind IN ('quiz', 'review')),
            seed TEXT NOT NULL,
            question_order TEXT NOT NULL,
            pass_mark REAL,
            started TEXT NOT NULL,
            finished TEXT,
            passed INTEGER,
            abandoned TEXT)""",
        "CREATE INDEX attempts_by_bank ON attempts (bank, id)",
        """CREATE TABLE answers (
            id INTEGER PRIMARY KEY,
            attempt_id INTEGER NOT NULL REFERENCES attempts (id),
            question_id TEXT NOT NULL,
            key_hash TEXT NOT NULL,
            response TEXT NOT NULL,
            score REAL NOT NULL,
            max_score REAL NOT NULL,
            correct INTEGER NOT NULL,
            answered TEXT NOT NULL)""",
        "CREATE INDEX answers_by_attempt ON answers (attempt_id, id)",
        """CREATE TABLE cards (
            bank TEXT NOT NULL,
            question_id TEXT NOT NULL,
            key_hash TEXT NOT NULL,
            state TEXT NOT NULL,
            PRIMARY KEY (bank, question_id, key_hash))""",
        """CREATE TABLE key_notices (
            bank TEXT NOT NULL,
            question_id TEXT NOT NULL,
            key_hash TEXT NOT NULL,
            shown TEXT NOT NULL,
            PRIMARY KEY (bank, question_id, key_hash))""",
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    # An answer the learner took back with `u`: kept in history, no longer counted.
    (TAKEN_BACK.format(temp=""),),
    # The numbers a parameterised question drew for this answer (JSON; NULL for fixed ones).
    ("ALTER TABLE answers ADD COLUMN params TEXT",),
    # What `history --export` shares for class results: the bank's version when the attempt
    # started, and per answer the seconds it took and the hints asked for (NULL: not recorded).
    (
        "ALTER TABLE attempts ADD COLUMN bank_version TEXT",
        "ALTER TABLE answers ADD COLUMN seconds REAL",
        "ALTER TABLE answers ADD COLUMN hints INTEGER",
    ),
)

# Errors that mean "this file cannot be our database", as opposed to a busy or full disk.
_UNUSABLE = {"SQLITE_NOTADB", "SQLITE_CORRUPT", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM"}


class StoreError(LessonkitError):
    """The history database could not be opened or written; the message says what to do."""


class Unusable(Exception):
    """The file at the database's path cannot be used; it is to be set aside."""

    def __init__(self, label: str, reason: str, after: str = "") -> None:
        super().__init__(reason)
        self.label = label  # goes into the new file name: history.<label>-<time>.db
        self.reason = reason  # "was damaged (...)": what the learner is told
        self.after = after  # what to do about it, if anything
        # Left open until the file is renamed: closing first lets SQLite delete its -wal.
        self.con: sqlite3.Connection | None = None

    def notice(self, path: Path, kept: Path) -> str:
        return (
            f"history database {path} {self.reason}; kept it as {kept} "
            f"and started a fresh one{self.after}"
        )

    def recovered(self, path: Path, kept: Path, con: sqlite3.Connection) -> str:
        """Recover what can be read of the damaged file now at ``kept`` into ``con`` (the
        fresh database), and say so: why, where the damaged file is, what is back and
        what is lost."""
        from lessonkit.history.recovery import recover

        try:
            words = recover(kept, con).words()
        except (OSError, sqlite3.Error) as e:
            words = f"Nothing could be recovered from it ({e}), so your history starts afresh."
        return f"history database {path} {self.reason}. It is kept, unchanged, as {kept}. {words}"


def resolve_data_dir(explicit: Path | None = None) -> Path:
    """The learner's data folder: `--data-dir`, else `LESSONKIT_HOME`, else the platform's."""
    if explicit is not None:
        return explicit
    home = os.environ.get("LESSONKIT_HOME")
    if home:
        return Path(home)
    import platformdirs  # imported here: only needed when nothing overrides it

    return Path(platformdirs.user_data_dir("lessonkit"))


def database_path(explicit: Path | None = None) -> Path:
    """The history database's path, its folder created if need be."""
    folder = resolve_data_dir(explicit)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError(
            f"cannot create the history folder {folder}: {e.strerror}; "
            "set LESSONKIT_HOME or --data-dir to a folder you can write to"
        ) from e
    return folder / DB_NAME


def open_database(path: Path, now: datetime) -> tuple[sqlite3.Connection, list[str]]:
    """Connect to the database at `path`, migrated to the latest schema.

    Anything that cannot be used is renamed beside it (never deleted), a fresh
    database is started, and a notice for the learner says so.
    """
    notices: list[str] = []
    damaged: tuple[Unusable, Path] | None = None
    for _ in range(3):  # another process may be replacing the file as we look
        before = _identity(path)
        try:
            con = _connect(path)
        except Unusable as bad:
            try:
                if _identity(path) == before:
                    kept = set_aside(path, bad.label, now)
                    if bad.label == "corrupt":  # what can be read of it goes into the new one
                        damaged = bad, kept
                    else:
                        notices.append(bad.notice(path, kept))
            finally:
                if bad.con is not None:
                    bad.con.close()
            continue
        if damaged is not None:
            notices.append(damaged[0].recovered(path, damaged[1], con))
        return con, notices
    raise StoreError(f"cannot open the history database {path}: it keeps changing; try again")


def open_readonly(path: Path, now: datetime) -> tuple[sqlite3.Connection | None, list[str]]:
    """Connect to the database at `path` only to read it; None when there is none yet.

    Nothing is created, migrated or set aside, so `history` and `list` work on a data
    folder the learner cannot write. Reading a WAL database needs its -shm file; when
    that cannot be created either, and no -wal holds commits not yet in the file (the
    last writer closed cleanly), the file is read as immutable. A damaged file is
    repaired as a quiz would repair it (kept aside, what can be read recovered into a
    fresh one), so what is shown is what the next quiz will see; where the folder
    cannot be written, what can be read is recovered into memory and shown.
    """
    try:
        return _open_readonly(path)
    except Damaged as damaged:
        try:
            con, notices = open_database(path, now)
        except StoreError as error:  # cannot be repaired here: shown from memory
            return _recovered_in_memory(path, damaged, error)
        return con, notices


class Damaged(Exception):
    """A database found damaged while only reading it."""


def _recovered_in_memory(
    path: Path, damaged: Damaged, error: StoreError
) -> tuple[sqlite3.Connection, list[str]]:
    from lessonkit.history.recovery import recover

    con = sqlite3.connect(":memory:", isolation_level=None)
    con.row_factory = sqlite3.Row
    migrate(con)
    try:
        words = recover(path, con).words()
    except (OSError, sqlite3.Error) as e:
        words = f"Nothing could be recovered from it ({e})."
    why = "this folder cannot be written" if not os.access(path.parent, os.W_OK) else error
    return con, [
        f"history database {path} {damaged}. It cannot be repaired here ({why}), so what "
        f"is shown is what could be read of it. {words}"
    ]


def _open_readonly(path: Path) -> tuple[sqlite3.Connection | None, list[str]]:
    if not path.exists():
        return None, []
    if not path.is_file():
        raise StoreError(f"cannot read the history database {path}: it is a folder, not a file")
    uri = path.absolute().as_uri()
    whole = not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    error: sqlite3.Error | None = None
    for mode in ("mode=ro", "immutable=1") if whole else ("mode=ro",):
        try:
            con = sqlite3.connect(f"{uri}?{mode}", uri=True, isolation_level=None)
        except sqlite3.Error as e:
            error = e
            continue
        try:
            con.row_factory = sqlite3.Row
            con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            version = _version(con)  # the first read: fails here if the file cannot be read
            if version == 0:  # an empty file: no history yet
                con.close()
                return None, []
            if version > len(MIGRATIONS):
                con.close()
                raise StoreError(
                    f"cannot read the history database {path}: it was written by a newer "
                    f"lessonkit (schema {version}); upgrade lessonkit to read it"
                )
            check = _damage(con)
            if check is not None:
                con.close()
                raise Damaged(f"is damaged: some of it cannot be read ({check})")
            for steps in range(version, len(MIGRATIONS)):
                for sql in STAND_INS.get(steps, ()):
                    con.execute(sql)
            return con, []
        except sqlite3.Error as e:
            con.close()
            error = e
    problem = _classify(error, path) if error is not None else None
    if isinstance(problem, Unusable) and problem.label == "corrupt":
        raise Damaged(problem.reason)
    raise StoreError(f"cannot read the history database {path}: {error}") from error


def migrate(con: sqlite3.Connection, migrations: Sequence[Sequence[str]] = MIGRATIONS) -> None:
    """Bring the schema up to date, each migration in order, all in one transaction."""
    _refuse_newer(_version(con), len(migrations))
    if _version(con) == len(migrations):
        return
    con.execute("BEGIN IMMEDIATE")
    try:
        version = _version(con)  # read again under the lock: another process may have migrated
        _refuse_newer(version, len(migrations))
        for steps in migrations[version:]:
            for sql in steps:
                _step(con, sql)
        con.execute(f"PRAGMA user_version = {len(migrations)}")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def set_aside(path: Path, label: str, now: datetime) -> Path:
    """Rename `path` (and SQLite's companion files) to a new, unused name beside it."""
    stamp = now.strftime("%Y%m%dT%H%M")
    stem = path.name.removesuffix(".db")
    kept = path.with_name(f"{stem}.{label}-{stamp}.db")
    count = 1
    while any(Path(f"{kept}{end}").exists() for end in ("", *COMPANIONS)):
        count += 1
        kept = path.with_name(f"{stem}.{label}-{stamp}-{count}.db")
    try:
        path.rename(kept)
        for end in COMPANIONS:
            companion = Path(f"{path}{end}")
            if companion.exists():
                companion.rename(f"{kept}{end}")
    except OSError as e:
        raise StoreError(
            f"the history database {path} cannot be used and could not be moved aside: "
            f"{e.strerror}; move it away yourself, then try again"
        ) from e
    return kept


def _connect(path: Path) -> sqlite3.Connection:
    if path.exists() and not path.is_file():
        raise Unusable("not-a-file", "was a folder, not a file")
    try:
        con = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    except sqlite3.Error as e:
        raise _classify(e, path) from e
    try:
        _configure(con)
        migrate(con)
    except sqlite3.Error as e:
        problem = _classify(e, path)
        if isinstance(problem, Unusable):
            problem.con = con
        else:
            con.close()
        raise problem from e
    except Unusable as bad:
        bad.con = con
        raise
    return con


def _configure(con: sqlite3.Connection) -> None:
    con.row_factory = sqlite3.Row
    con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    con.execute("PRAGMA foreign_keys = ON")
    # Checked before anything writes, so a damaged file is kept exactly as it was found.
    check = _damage(con)
    if check is not None:
        raise Unusable("corrupt", f"is damaged: some of it cannot be read ({check})")
    _use_wal(con)
    con.execute("PRAGMA synchronous = FULL")  # every answer's commit reaches the disk


def _use_wal(con: sqlite3.Connection) -> None:
    """Switch to WAL, so one terminal can read while another writes.

    The switch does not wait on the busy timeout: when two processes open a new
    file at once, one of them gets "database is locked". It retries until then.
    WAL is a property of the file, so once set this is a single read.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                con.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            busy = getattr(e, "sqlite_errorname", "") in {"SQLITE_BUSY", "SQLITE_LOCKED"}
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _damage(con: sqlite3.Connection) -> str | None:
    """SQLite's first complaint about the file's pages, or None when it finds none."""
    lines = [str(row[0]) for row in con.execute("PRAGMA quick_check")]
    if lines == ["ok"]:
        return None
    said = [line for line in lines if not line.startswith("***")] or lines
    return said[0].strip()


def _classify(error: sqlite3.Error, path: Path) -> Exception:
    name = getattr(error, "sqlite_errorname", "")
    if name == "SQLITE_CORRUPT" and path.exists():
        return Unusable("corrupt", f"is damaged: some of it cannot be read ({error})")
    if name == "SQLITE_NOTADB" and path.exists():
        return Unusable("corrupt", f"cannot be read at all ({error})")
    if name in _UNUSABLE and path.exists():
        return Unusable("corrupt", f"was unreadable ({error})")
    if name in {"SQLITE_BUSY", "SQLITE_LOCKED"}:
        hint = "another lessonkit is holding it; close it and try again"
    else:
        hint = "check that you can write to that folder, or set LESSONKIT_HOME or --data-dir"
    return StoreError(f"cannot open the history database {path}: {error}; {hint}")


def _step(con: sqlite3.Connection, sql: str) -> None:
    try:
        con.execute(sql)
    except sqlite3.OperationalError as e:
        if getattr(e, "sqlite_errorname", "") != "SQLITE_ERROR":
            raise  # busy, full disk…: not the file's fault
        # e.g. "table attempts already exists": some other program's database.
        raise Unusable("unknown-schema", f"held tables lessonkit does not know ({e})") from e


def _version(con: sqlite3.Connection) -> int:
    version: int = con.execute("PRAGMA user_version").fetchone()[0]
    return version


def _refuse_newer(version: int, known: int) -> None:
    # A newer lessonkit wrote this file: writing to it could break what that version
    # expects, and blocking every quiz until an upgrade would stop the learner cold.
    # So it is kept whole under a new name, to be renamed back after upgrading.
    if version > known:
        raise Unusable(
            "newer-schema",
            f"was written by a newer lessonkit (schema {version}; this one knows up to {known})",
            f". To use it again, upgrade lessonkit and rename it back to {DB_NAME}",
        )


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino)

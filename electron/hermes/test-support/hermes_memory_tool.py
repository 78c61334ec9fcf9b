"""Hermes Agent's memory file behaviour, for Vigil's tests, written from its documented rules.

Usage:
  hermes_memory_tool.py drift LIMIT FILE...     print "1" (drifted) or "0" per FILE, one per line
  hermes_memory_tool.py add FILE ENTRY...        add each ENTRY as Hermes's memory tool does: flock
                                                 FILE.lock, read FILE in text mode, split on "\\n§\\n",
                                                 strip, drop empties and duplicates, append, replace the
                                                 file atomically (joined by "\\n§\\n", no final newline)

The drift rule: a file drifts when raw.strip() differs from its entries re-joined with "\\n§\\n", or
when one entry is longer than the file's whole limit. `raw` is Path.read_text(encoding="utf-8").
"""
import fcntl
import os
import sys
import tempfile
from pathlib import Path

DELIMITER = "\n§\n"


def entries_of(raw):
    if not raw.strip():
        return []
    return [part.strip() for part in raw.split(DELIMITER) if part.strip()]


def drifts(path, limit):
    raw = Path(path).read_text(encoding="utf-8")
    if not raw.strip():
        return False
    parsed = entries_of(raw)
    longest = max((len(entry) for entry in parsed), default=0)
    return raw.strip() != DELIMITER.join(parsed) or longest > limit


def add(path, entry):
    memory_file = Path(path)
    lock = open(str(memory_file) + ".lock", "a+", encoding="utf-8")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        raw = memory_file.read_text(encoding="utf-8") if memory_file.exists() else ""
        entries = list(dict.fromkeys(entries_of(raw)))
        content = entry.strip()
        if content in entries:
            return
        entries.append(content)
        fd, temp = tempfile.mkstemp(dir=str(memory_file.parent), prefix=".mem_", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(DELIMITER.join(entries))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, str(memory_file))
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def main():
    mode = sys.argv[1]
    if mode == "drift":
        limit = int(sys.argv[2])
        for path in sys.argv[3:]:
            sys.stdout.write("1\n" if drifts(path, limit) else "0\n")
    elif mode == "add":
        for entry in sys.argv[3:]:
            add(sys.argv[2], entry)
        sys.stdout.write("added\n")
    else:
        raise SystemExit(f"unknown mode {mode}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Hermes Agent's memory locking, for Vigil's tests: tools/memory_tool.py's `_file_lock`.

Usage: hermes_memory_lock.py MODE LOCK_PATH [MEMORY_FILE ENTRY]
  hold  flock LOCK_PATH, print "locked", keep it until a line "release" arrives (or stdin closes)
  try   print "busy" if someone else holds LOCK_PATH, else "free"
  wait  flock LOCK_PATH (waiting as long as it takes), print "locked", exit
  rmw   flock LOCK_PATH, read MEMORY_FILE, print "read", wait for a line "go", append ENTRY to the
        entries read (joined by "\\n§\\n"), replace the file atomically, print "written", exit
"""
import fcntl
import os
import sys
import tempfile

DELIMITER = "\n§\n"


def open_lock(path):
    # Exactly as Hermes: a separate .lock file opened "a+", flocked exclusively.
    handle = open(path, "a+", encoding="utf-8")
    return handle


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main():
    mode, lock_path = sys.argv[1], sys.argv[2]
    handle = open_lock(lock_path)
    if mode == "try":
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            say("free")
        except BlockingIOError:
            say("busy")
        return
    fcntl.flock(handle, fcntl.LOCK_EX)
    if mode == "hold":
        say("locked")
        for line in sys.stdin:
            if line.strip() == "release":
                break
    elif mode == "wait":
        say("locked")
    elif mode == "rmw":
        memory_file, entry = sys.argv[3], sys.argv[4]
        text = open(memory_file, encoding="utf-8").read() if os.path.exists(memory_file) else ""
        entries = [part for part in text.split(DELIMITER) if part.strip()] if text else []
        say("read")
        for line in sys.stdin:
            if line.strip() == "go":
                break
        entries.append(entry)
        fd, temp = tempfile.mkstemp(dir=os.path.dirname(memory_file), prefix=".mem_", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(DELIMITER.join(entries))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, memory_file)
        say("written")
    fcntl.flock(handle, fcntl.LOCK_UN)
    handle.close()


main()

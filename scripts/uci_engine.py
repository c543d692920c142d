"""A UCI engine driven through pipes, for the scripts beside this file."""

import subprocess
import sys


class Engine:
    """An engine process speaking UCI; `uci` is sent and `uciok` awaited at the start."""

    def __init__(self, cmd, who="engine"):
        self.who = who
        self.p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        """The lines read up to and with the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"{self.who}: the engine ended while waiting for `{prefix}`")
            lines.append(line.strip())
            if lines[-1].startswith(prefix):
                return lines

    def variant(self, name):
        self.send(f"setoption name UCI_Variant value {name}")
        self.send("isready")
        self.until("readyok")

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)

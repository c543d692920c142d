#!/usr/bin/env python3
"""Runs `polymachy datagen` (or `polymachy match`) as many tasks on a HyperQueue cluster.

datagen: the run is cut into N shards (`--shard I/N`), one HyperQueue task each; when every
shard is done they are merged (`polymachy datagen --merge`) into one file, byte-identical to
what a single process writes with the same settings. A shard that fails is named with the end
of its standard error, and nothing is merged. Started again with the same command, each shard
resumes where its file ends (the shard files stay in the work folder until the merge).

match: N tasks of `polymachy match`, task I with seed SEED+I (its random openings) and its
own PGN; the PGNs are joined into one file in task order, and each task's result is printed
with their sum.

The cluster is either a running HyperQueue server (`--server-dir`, default: HyperQueue's own
default server folder) or a local one started here (`--local-workers K`). On a cluster of
several machines, the polymachy binary and the work folder must be at the same path on every
worker (a shared file system).

Needs the `hyperqueue` Python package (`pip install hyperqueue`; scripts/install-deps.sh
installs it). Exit status: 0 done, 1 a task or the merge failed, 2 bad arguments or no cluster.

Examples:
  scripts/cluster.py datagen --local-workers 4 --shards 8 --out mm.data -- -v metamachy --games 2000
  scripts/cluster.py datagen --server-dir ~/hq --shards 64 --out mm.data -- -v metamachy --games 100000
  scripts/cluster.py match --local-workers 2 --tasks 4 --pgn all.pgn -- \\
      --engine "polymachy uci" --engine "polymachy uci" --games 10 --random-plies 4
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PROG = "cluster"
# The result line of `polymachy match`: "... 2 games, +0 =1 -1, score ..."
SCORE = re.compile(r"games, \+(\d+) =(\d+) -(\d+),")
STDERR_LINES = 20


class Failure(Exception):
    """A task, the merge or the cluster failed: exit status 1."""


class Usage(Exception):
    """Bad arguments or no cluster: exit status 2."""


def say(msg):
    print(f"{PROG}: {msg}", file=sys.stderr, flush=True)


# Options of the polymachy command that this script sets itself, per subcommand.
OWN_OPTIONS = {
    "datagen": {
        "--out": "--out",
        "--shard": "--shards",
        "--merge": "--out",
        "--jobs": "--cores-per-task",
        "-j": "--cores-per-task",
    },
    "match": {"--pgn": "--pgn", "--seed": "--seed"},
}


def check_passed(command, passed):
    """Refuses the options that this script gives each task itself."""
    own = OWN_OPTIONS[command]
    for arg in passed:
        for opt, ours in own.items():
            short = len(opt) == 2
            if arg == opt or arg.startswith(opt + "=") or (short and arg.startswith(opt) and not arg.startswith("--")):
                raise Usage(f"`{arg}` after `--`: {PROG}.py gives each task its own {opt} (see its {ours})")


def find_polymachy(given):
    """The polymachy binary as an absolute path: --polymachy, else PATH, else this checkout's release build."""
    if given:
        p = Path(given)
    else:
        found = shutil.which("polymachy")
        p = Path(found) if found else Path(__file__).resolve().parent.parent / "target" / "release" / "polymachy"
        if not found and not p.is_file():
            raise Usage("no polymachy binary: not on PATH and no target/release/polymachy here; give --polymachy")
    if not p.is_file() or not os.access(p, os.X_OK):
        raise Usage(f"{p}: not an executable file (the polymachy binary; give --polymachy)")
    return p.resolve()


def tail(path, lines=STDERR_LINES):
    try:
        text = Path(path).read_text(errors="replace").replace("\r", "\n")
    except OSError as e:
        return [f"(cannot read {path}: {e.strerror})"]
    kept = [line for line in text.splitlines() if line.strip()]
    return kept[-lines:] if kept else ["(empty)"]


def hq_error(e):
    """HyperQueue's error text without the native backtrace it carries when RUST_BACKTRACE is set."""
    text = str(e).split("Stack backtrace:")[0]
    lines = [line.strip() for line in text.splitlines()]
    return "; ".join(line for line in lines if line and line != "Caused by:")


class Cluster:
    """A client of a running HyperQueue server, or of a local cluster started (and stopped) here."""

    def __init__(self, args):
        if args.quiet or not sys.stderr.isatty():
            os.environ["TQDM_DISABLE"] = "1"  # HyperQueue's progress bar; read when it is imported
        try:
            import hyperqueue
            from hyperqueue.cluster import WorkerConfig
        except ImportError:
            raise Usage("the hyperqueue Python package is missing (pip install hyperqueue, or scripts/install-deps.sh)")
        self.hq = hyperqueue
        self.local = None
        self.server_tmp = None
        if args.local_workers is not None:
            if args.local_workers < 1:
                raise Usage(f"--local-workers {args.local_workers}: expected 1 or more")
            cores = args.cores_per_worker or max(1, (os.cpu_count() or 1) // args.local_workers)
            if cores < args.cores_per_task:
                raise Usage(f"--cores-per-worker {cores} is less than --cores-per-task {args.cores_per_task}: no task would run")
            self.server_tmp = tempfile.mkdtemp(prefix="polymachy-hq-")
            try:
                # The server prints a table of its addresses on standard output: not ours to show.
                with stdout_to_devnull():
                    self.local = hyperqueue.LocalCluster(server_dir=self.server_tmp)
                    for _ in range(args.local_workers):
                        self.local.start_worker(WorkerConfig(cores=cores))
            except Exception as e:
                self.close()
                raise Failure(f"the local HyperQueue cluster did not start: {hq_error(e)}")
            say(f"local HyperQueue cluster: {args.local_workers} worker(s) of {cores} core(s)")
            self.client = self.local.client()
        else:
            where = args.server_dir or "HyperQueue's default server folder"
            try:
                self.client = hyperqueue.Client(args.server_dir)
            except Exception as e:  # the binding raises a bare Exception
                raise Usage(f"no HyperQueue server reachable in {where}: {hq_error(e)}")

    def run(self, name, tasks, cores_per_task, work):
        """Runs `tasks` (label, argv, stdout path, stderr path) as one job; returns {index: error} of the failed ones."""
        from hyperqueue.ffi.protocol import ResourceRequest

        job = self.hq.Job(default_workdir=work, max_fails=None, name=name)
        for label, argv, out, err in tasks:
            job.program(
                [str(a) for a in argv],
                name=label,
                stdout=str(out),
                stderr=str(err),
                resources=ResourceRequest(cpus=cores_per_task),
            )
        try:
            submitted = self.client.submit(job)
            say(f"job {submitted.id}: {len(tasks)} {name} task(s) submitted")
            self.client.wait_for_jobs([submitted], raise_on_error=False)
            return {i: ctx.error for i, ctx in self.client.get_failed_tasks(submitted).items()}
        except Exception as e:
            raise Failure(f"HyperQueue: {hq_error(e)}")

    def close(self):
        if self.local is not None:
            with stdout_to_devnull():
                self.local.stop()
            self.local = None
        if self.server_tmp is not None:
            shutil.rmtree(self.server_tmp, ignore_errors=True)
            self.server_tmp = None


class stdout_to_devnull:
    """Points file descriptor 1 at /dev/null for a while (output from HyperQueue's native code)."""

    def __enter__(self):
        sys.stdout.flush()
        self.saved = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)

    def __exit__(self, *exc):
        sys.stdout.flush()
        os.dup2(self.saved, 1)
        os.close(self.saved)


def report(failed, tasks, outcome):
    for i in sorted(failed):
        label, _, _, err = tasks[i]
        say(f"{label} failed: {failed[i]}")
        say(f"  the end of its standard error ({err}):")
        for line in tail(err):
            print(f"    {line}", file=sys.stderr)
    raise Failure(f"{len(failed)} of {len(tasks)} tasks failed; {outcome}")


def datagen(args, passed, cluster, binary):
    if args.shards < 1:
        raise Usage(f"--shards {args.shards}: expected 1 or more")
    out = Path(args.out).resolve()
    work = Path(args.work_dir).resolve() if args.work_dir else out.with_name(out.name + ".shards")
    work.mkdir(parents=True, exist_ok=True)
    n = args.shards
    tasks, files = [], []
    for i in range(n):
        stem = work / f"shard-{i}-of-{n}"
        data = stem.with_suffix(".data")
        files.append(data)
        argv = [binary, "datagen", *passed, "--shard", f"{i}/{n}", "-j", args.cores_per_task, "--out", data]
        tasks.append((f"datagen shard {i}/{n}", argv, stem.with_suffix(".stdout"), stem.with_suffix(".stderr")))
    failed = cluster.run("datagen", tasks, args.cores_per_task, work)
    if failed:
        report(failed, tasks, f"nothing merged (the shards are kept in {work}: the same command again resumes them)")
    merge = subprocess.run([binary, "datagen", "--merge", out, *files], capture_output=True, text=True)
    sys.stdout.write(merge.stdout)
    if merge.returncode != 0:
        sys.stderr.write(merge.stderr)
        raise Failure(f"the merge failed (exit status {merge.returncode}); the shards are kept in {work}")
    if args.keep_shards:
        say(f"shards kept in {work}")
    else:
        shutil.rmtree(work)


def match(args, passed, cluster, binary):
    if args.tasks < 1:
        raise Usage(f"--tasks {args.tasks}: expected 1 or more")
    out = Path(args.pgn).resolve()
    work = Path(args.work_dir).resolve() if args.work_dir else out.with_name(out.name + ".tasks")
    work.mkdir(parents=True, exist_ok=True)
    tasks, pgns = [], []
    for i in range(args.tasks):
        stem = work / f"match-{i}"
        pgn = stem.with_suffix(".pgn")
        pgns.append(pgn)
        argv = [binary, "match", *passed, "--seed", args.seed + i, "--pgn", pgn]
        tasks.append((f"match task {i} (seed {args.seed + i})", argv, stem.with_suffix(".stdout"), stem.with_suffix(".stderr")))
    failed = cluster.run("match", tasks, args.cores_per_task, work)
    if failed:
        report(failed, tasks, f"nothing joined (the tasks' files are kept in {work})")
    with open(out, "wb") as joined:
        for pgn in pgns:
            joined.write(pgn.read_bytes())
    total = [0, 0, 0]
    for label, _, stdout, _ in tasks:
        last = tail(stdout, 2)
        print(f"{label}: {' | '.join(last)}")
        score = SCORE.search("\n".join(last))
        if score is None:
            total = None
        elif total is not None:
            total = [t + int(n) for t, n in zip(total, score.groups())]
    if total is not None:
        w, d, l = total
        print(f"all {args.tasks} tasks: {w + d + l} games, +{w} ={d} -{l}, score {w + d / 2:g}/{w + d + l} for engine 1")
    print(f"{out}: the games of {args.tasks} task(s)")
    if args.keep_shards:
        say(f"task files kept in {work}")
    else:
        shutil.rmtree(work)


def parser():
    common = argparse.ArgumentParser(add_help=False)
    where = common.add_mutually_exclusive_group()
    where.add_argument("--server-dir", metavar="DIR", help="the folder of a running HyperQueue server (default: HyperQueue's own default)")
    where.add_argument("--local-workers", type=int, metavar="K", help="start a local cluster of K workers instead, stopped at the end")
    common.add_argument("--cores-per-worker", type=int, metavar="C", help="cores of each local worker (default: this machine's cores shared out)")
    common.add_argument("--cores-per-task", type=int, default=1, metavar="C", help="cores each task asks HyperQueue for (datagen -j C; default 1)")
    common.add_argument("--polymachy", metavar="BIN", help="the polymachy binary (default: on PATH, else target/release/polymachy)")
    common.add_argument("--work-dir", metavar="DIR", help="where the tasks' files go (default: next to the output)")
    common.add_argument("--keep-shards", action="store_true", help="keep the tasks' files after the merge")
    common.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    p = argparse.ArgumentParser(
        prog="cluster.py",
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("datagen", parents=[common], help="self-play data in N shards, merged into one file",
                       usage="cluster.py datagen --shards N --out FILE [options] -- DATAGEN-ARGS...")
    d.add_argument("--shards", type=int, required=True, metavar="N", help="number of shards (tasks)")
    d.add_argument("--out", required=True, metavar="FILE", help="the merged data file")
    d.add_argument("rest", nargs=argparse.REMAINDER, metavar="DATAGEN-ARGS", help="after --: arguments of `polymachy datagen`")
    m = sub.add_parser("match", parents=[common], help="N matches, their PGNs joined",
                       usage="cluster.py match --tasks N --pgn FILE [options] -- MATCH-ARGS...")
    m.add_argument("--tasks", type=int, required=True, metavar="N", help="number of matches (tasks)")
    m.add_argument("--pgn", required=True, metavar="FILE", help="the joined PGN file")
    m.add_argument("--seed", type=int, default=1, help="task I plays with seed SEED+I (default 1)")
    m.add_argument("rest", nargs=argparse.REMAINDER, metavar="MATCH-ARGS", help="after --: arguments of `polymachy match`")
    return p


def main(argv):
    args = parser().parse_args(argv)
    passed = args.rest[1:] if args.rest[:1] == ["--"] else args.rest
    cluster = None
    try:
        if args.cores_per_task < 1:
            raise Usage(f"--cores-per-task {args.cores_per_task}: expected 1 or more")
        check_passed(args.command, passed)
        binary = find_polymachy(args.polymachy)
        cluster = Cluster(args)
        (datagen if args.command == "datagen" else match)(args, passed, cluster, binary)
        return 0
    except Usage as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except Failure as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    finally:
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

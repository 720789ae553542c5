"""grounding-audit on Apache Spark: grade partitions where the data lives,
ship only partial results, merge them on the driver.

    spark-submit job.py --binary ./grounding-audit --input logs/ \
        [--command summary|report|check] [--partitions N] \
        [--format FORMAT] [--merge "MERGE FLAGS"] [--out FILE] \
        [--engine sql|python|files] [-- flags of the command, e.g. --by model --tz Europe/Berlin]

The flags after `--` make each partition's state (filters, grammar, --by,
--limit, --cursor ...); `--format` and `--merge` are merge's output flags
(for check: the gates, e.g. --merge "--min-rate 0.9 --junit out.xml").

With `--engine sql` (the default) no Python worker touches a line:

1. Reads JSONL lines (plain or .gz, a directory, a glob or an object-store
   prefix such as s3a://bucket/turns/2026-08-*/) with the DataFrame text
   reader, each with its position in the input (file path, then
   monotonically_increasing_id, which follows line order within a file).
2. Computes the turn key in the JVM (see with_key: a regular expression for a
   native line whose first key is `turn_id`, a plain string or an integer, else
   get_json_object of `turn_id`, the trace ids of span dialects, the run id of
   agentfootprint events, else the line itself), repartitions by it
   (hash partitioning) and sorts each partition by input position. Every copy
   of a turn, and every span of a trace, lands in one partition, in input
   order, so `grounding-audit`'s de-duplication and trace assembly keep what
   a single pass would.
3. Ships the binary to the executors (SparkContext.addFile, i.e. --files) and
   streams each partition through `grounding-audit COMMAND --partial - -`
   with Spark SQL's script transformation (SELECT TRANSFORM ... USING).
4. Gathers the partials (one small JSON document per partition) on the
   driver, writes them to temporary files in partition order and runs
   `grounding-audit merge` with the chosen output flags. The job's exit code
   is merge's: for check 0 pass, 1 a gate failed, 3 more invalid lines than
   --max-invalid (see docs/scale-out.md).

`--engine python` does steps 1-3 with Python RDDs instead (textFile,
zipWithIndex, a Python turn_key, repartitionAndSortWithinPartitions, a pipe
from mapPartitionsWithIndex): the same partitioning rule, at a per-line cost
in the Python worker (docs/scale-out.md has both measured).

`--engine files` skips steps 1-2 for input already partitioned by turn key
(every line of a turn, and every copy of it, in one file) on paths the
executors can open: the files are dealt into partitions and each
partition's binary reads its files itself (partials_files).
"""

import argparse
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import zlib

from pyspark import SparkConf, SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

BINARY_NAME = "grounding-audit"


def _id(v):
    """An id's text: strings as they are, integers as digits (`9` and "9"
    are the same turn, as grounding-audit reads them)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (str, int)):
        return str(v)
    return None


# A native line whose first key is `turn_id`, with a string value free of
# escapes or an integer: its key is read without parsing the line (exact: the
# first key of the object is a top-level one). Anything else is parsed.
_FIRST_TURN_ID = re.compile(r'\s*\{\s*"turn_id"\s*:\s*(?:"([^"\\]*)"|(-?[0-9]+)\s*[,}])')


def turn_key(line):
    """The partition key of a line: what every line of one turn shares.

    - native turn log: `turn_id`;
    - span dialects (a turn is a trace): `traceId` (OTLP/JSON flat spans,
      Langfuse observations), `context.trace_id` (Phoenix), `trace_id`
      (LangSmith runs), the first span's `traceId` of an OTLP export request
      (a request holding spans of several traces is keyed by its first);
    - agentfootprint events (a turn is a run): `meta.runId`;
    - anything else (blank, invalid, unknown lines): a hash of the line.
    """
    m = _FIRST_TURN_ID.match(line)
    if m:
        return "t:" + (m.group(1) if m.group(1) is not None else m.group(2))
    try:
        doc = json.loads(line)
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        return "l:" + line
    tid = _id(doc.get("turn_id"))
    if tid is not None:
        return "t:" + tid
    ctx = doc.get("context")
    for trace in (
        doc.get("traceId"),
        ctx.get("trace_id") if isinstance(ctx, dict) else None,
        doc.get("trace_id"),
        _first_otlp_trace(doc),
    ):
        trace = _id(trace)
        if trace is not None:
            return "x:" + trace
    meta = doc.get("meta")
    run = _id(meta.get("runId")) if isinstance(meta, dict) else None
    if run is not None:
        return "r:" + run
    return "l:" + line


def _first_otlp_trace(doc):
    for rs in doc.get("resourceSpans") or []:
        for ss in (rs or {}).get("scopeSpans") or []:
            for span in (ss or {}).get("spans") or []:
                if isinstance(span, dict) and "traceId" in span:
                    return span["traceId"]
    return None


# The JVM turn key (--engine sql): what every line of one turn shares, as
# turn_key below. A native line whose first key is `turn_id`, with a string
# free of escapes or an integer, is keyed by a regular expression on its
# first HEAD characters (the common case: no parse, and no copy of a long
# line); anything else by get_json_object (which reads `9` and "9" alike,
# and decodes escapes), in turn_key's order; a line with none of these by
# its text. Lines grouped together that need not be (a `turn_id` of another JSON
# type, `-0` with `0`) only cost balance, never exactness.
HEAD = 256
FAST_TURN_ID = r'^\s*\{\s*"turn_id"\s*:\s*("[^"\\]*"|(?:-?[1-9][0-9]*|0)(?=\s*[,}]))'
KEY_PATHS = [
    ("t:", "$.turn_id"),
    ("x:", "$.traceId"),
    ("x:", "$.context.trace_id"),
    ("x:", "$.trace_id"),
    ("x:", "$.resourceSpans[0].scopeSpans[0].spans[0].traceId"),
    ("r:", "$.meta.runId"),
]


def with_key(lines):
    """`lines` with a column `key`, the turn key of its `value`."""
    value = F.col("value")
    df = lines.withColumn("fast", F.regexp_extract(F.substring(value, 1, HEAD), FAST_TURN_ID, 1))
    # The fast id token as written: a string (quotes stripped: it holds none
    # inside) or an integer. get_json_object runs only where the ones before
    # it found nothing (one parse of the line each).
    parts = [F.when(F.col("fast") != "", F.concat(F.lit("t:"), F.translate(F.col("fast"), '"', "")))]
    for prefix, path in KEY_PATHS:
        parts.append(F.concat(F.lit(prefix), F.get_json_object(value, path)))
    parts.append(F.concat(F.lit("l:"), value))
    return df.withColumn("key", F.coalesce(*parts)).drop("fast")


def sql_literal(text):
    """A Spark SQL string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def script_command(sc, command, flags, paths=False):
    """The shell command (bash, as Spark runs it) of the script
    transformation: the shipped binary (the driver's SparkFiles copy in
    local mode, the executor's working directory on a cluster), made
    executable, run on the partition's lines, or with `paths` on the files
    its lines name."""
    local = shlex.quote(os.path.join(SparkFiles.getRootDirectory(), BINARY_NAME))
    run = " ".join(shlex.quote(a) for a in ["--quiet", command, *flags, "--partial", "-"])
    inputs = "-"
    if paths:
        # The paths become the positional parameters ("$@": Spark SQL
        # substitutes ${...} in a query's text, so no braces).
        run = 'set --; while IFS= read -r f; do set -- "$@" "$f"; done; ' + f'exec "$b" {run}'
        inputs = '-- "$@"'
    else:
        run = f'exec "$b" {run}'
    return (
        f"b={local}; [ -f \"$b\" ] || b=./{BINARY_NAME}; "
        f"[ -x \"$b\" ] || chmod +x \"$b\"; {run} {inputs}"
    )


def partials_sql(spark, args, n):
    """[(partition, partial document)] of --engine sql."""
    lines = spark.read.text(args.input)
    several = len(lines.inputFiles()) > 1
    cols = [F.col("value"), F.monotonically_increasing_id().alias("pos")]
    order = ["pos"]
    if several:
        cols.append(F.col("_metadata.file_path").alias("file"))
        order = ["file", "pos"]
    keyed = with_key(lines.select(*cols))
    parts = keyed.repartition(n, "key").sortWithinPartitions(*order).select("value")
    return transformed(spark, parts, script_command(spark.sparkContext, args.command, args.flags))


def transformed(spark, rows, cmd):
    """The partial documents of piping each partition of `rows` (one string
    column) through the shell command `cmd` with Spark SQL's script
    transformation: one a partition, in partition order."""
    view = f"grounding_audit_rows_{os.getpid()}"
    rows.toDF("value").createOrReplaceTempView(view)
    graded = spark.sql(f"SELECT TRANSFORM(value) USING {sql_literal(cmd)} AS (line STRING) FROM {view}")
    out = graded.select(
        F.spark_partition_id().alias("p"), F.monotonically_increasing_id().alias("i"), "line"
    ).collect()
    spark.catalog.dropTempView(view)
    return gathered(out)


def partials_files(spark, args, n):
    """[(partition, partial document)] of --engine files: the binary reads
    the input files itself, each Spark partition a group of them, with no
    key, no shuffle and no sort; no JVM row and no Python worker holds a
    line. Exact only when the input is partitioned by turn key already
    (every line of a turn, and every copy of it, in one file). The files
    must be local paths on every executor: a local disk in local mode, or a
    mount the cluster shares (NFS, /dbfs, /Volumes)."""
    files = local_files(spark.read.text(args.input).inputFiles())
    if not files:
        return []
    check_layout(files)
    groups = file_groups(files, n)
    # One row a partition, each the newline-separated paths of its group.
    listing = F.array(*[F.lit("\n".join(g)) for g in groups])
    rows = spark.range(0, len(groups), numPartitions=len(groups)).select(
        F.element_at(listing, (F.col("id") + 1).cast("int")).alias("paths")
    )
    cmd = script_command(spark.sparkContext, args.command, args.flags, paths=True)
    return transformed(spark, rows, cmd)


def local_files(uris):
    """The input files as local paths, or an error naming the first that is
    not one (an object store's files cannot be opened by the binary)."""
    from urllib.parse import unquote, urlparse

    paths = []
    for uri in sorted(uris):
        u = urlparse(uri)
        if u.scheme not in ("", "file"):
            refuse(
                f"--engine files: {uri} is not a local path; the binary opens the files itself, "
                "so they must be on a local disk or a shared mount: use --engine sql"
            )
        path = unquote(u.path)
        if "\n" in path:
            refuse(f"--engine files: a path holds a newline: {path!r}")
        paths.append(path)
    return paths


def refuse(message):
    """Stops the job on input it cannot grade exactly: exit 2, as a usage
    error of the binary."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


EDGE = 1 << 16


def edge_keys(path):
    """The turn keys of the whole lines in the first and last EDGE bytes of
    a file (of a gzipped file, its first EDGE bytes once decompressed)."""
    import gzip

    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        head = f.read(EDGE + 1)
        # A line cut at the end of what was read is left out.
        lines = head.split(b"\n") if len(head) <= EDGE else head.split(b"\n")[:-1]
        if not path.endswith(".gz"):
            size = os.path.getsize(path)
            if size > 2 * EDGE:
                f.seek(size - EDGE)
                lines += f.read().split(b"\n")[1:]  # the first may be cut
    keys = set()
    for line in lines:
        text = line.decode("utf-8", "surrogateescape").rstrip("\r")
        key = turn_key(text) if text.strip() else "l:"
        if not key.startswith("l:"):  # a line with no turn key says nothing of the layout
            keys.add(key)
    return keys


def check_layout(paths):
    """Refuses input that is plainly not partitioned by turn key: a turn key
    found near the start or end of two files (logs cut by time put the
    turns that span the cut there). Not a proof of the layout: a copy far
    from both ends goes unseen."""
    seen = {}
    for path in paths:
        for key in edge_keys(path):
            other = seen.setdefault(key, path)
            if other != path:
                refuse(
                    f"--engine files: the turn key {key[2:]!r} is in {other} and in {path}: "
                    "the input is not partitioned by turn key (partition_by_key.py lays it "
                    "out so), or use --engine sql"
                )


def file_groups(paths, n):
    """The files in at most `n` groups of about equal bytes (largest first,
    each to the lightest group), each group in path order."""
    groups = [[] for _ in range(max(1, min(n, len(paths))))]
    load = [0] * len(groups)
    for p in sorted(paths, key=lambda p: (-os.path.getsize(p), p)):
        k = load.index(min(load))
        groups[k].append(p)
        load[k] += os.path.getsize(p)
    return [sorted(g) for g in groups if g]


def gathered(rows):
    """The partial documents of TRANSFORM's output rows (partition, row id,
    line), one a partition, in partition order."""
    docs = {}
    for p, _, line in sorted(rows, key=lambda r: (r[0], r[1])):
        docs.setdefault(p, []).append(line if line is not None else "")
    return [(p, "\n".join(ls) + "\n") for p, ls in sorted(docs.items())]


def stable_hash(key):
    """A hash that is the same on every executor (Python's hash() is salted)."""
    return zlib.crc32(key.encode("utf-8", "surrogatepass"))


def grade_partition(command, flags):
    def run(index, rows):
        binary = SparkFiles.get(BINARY_NAME)
        mode = os.stat(binary).st_mode
        if not mode & stat.S_IXUSR:
            os.chmod(binary, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        cmd = [binary, "--quiet", command, *flags, "--partial", "-", "-"]
        with tempfile.TemporaryFile() as stderr:
            proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr
            )
            # Feed stdin from a thread so a full stdout pipe cannot deadlock us.
            import threading

            def feed():
                try:
                    for _, line in rows:
                        proc.stdin.write(line.encode("utf-8", "surrogateescape"))
                        proc.stdin.write(b"\n")
                finally:
                    proc.stdin.close()

            t = threading.Thread(target=feed)
            t.start()
            out = proc.stdout.read()
            t.join()
            code = proc.wait()
            if code != 0:
                stderr.seek(0)
                raise RuntimeError(
                    f"partition {index}: {' '.join(cmd)} exited {code}: "
                    + stderr.read().decode("utf-8", "replace")[-2000:]
                )
        yield (index, out.decode("utf-8"))

    return run


def parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="the grounding-audit binary to ship")
    ap.add_argument("--input", help="file, directory, glob or prefix")
    ap.add_argument("--command", default="summary", choices=["summary", "report", "check"])
    ap.add_argument("--partitions", type=int, default=0, help="default: Spark's default parallelism")
    ap.add_argument("--format", help="merge --format (default: the command's own)")
    ap.add_argument("--merge", default="", help="more merge flags, as one shell-quoted string (check: the gates)")
    ap.add_argument("--out", help="write merge's output here (default: stdout)")
    ap.add_argument("--keep-partials", help="also copy the partials into this directory")
    ap.add_argument("--master", help="Spark master when not set by spark-submit (e.g. local[2])")
    ap.add_argument(
        "--conf",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a Spark setting when not set by spark-submit (e.g. spark.driver.memory=4g for local mode)",
    )
    ap.add_argument(
        "--engine",
        default="sql",
        choices=["sql", "python", "files"],
        help="sql: key, sort and pipe in the JVM (DataFrame reader, TRANSFORM ... USING); "
        "python: Python RDDs (every line through a Python worker); "
        "files: the binary reads the files itself, a group of them a partition, no key and no "
        "shuffle, for input already partitioned by turn key (every line of a turn, and every "
        "copy, in one file) on local paths or a shared mount",
    )
    ap.add_argument(
        "--batch",
        help="run several jobs in one Spark context: a file with the arguments of one job a line "
        "(shell-quoted, --binary and --master aside); each job's exit code goes to stdout as "
        "`job N: exit C`, and the batch exits with the highest",
    )
    ap.add_argument("flags", nargs="*", help="flags of the command after --, passed to every partition")
    return ap


def partials_python(sc, args, n):
    """[(partition, partial document)] of --engine python."""
    lines = sc.textFile(args.input)
    keyed = lines.zipWithIndex().map(lambda li: ((stable_hash(turn_key(li[0])), li[1]), li[0]))
    parts = keyed.repartitionAndSortWithinPartitions(
        numPartitions=n,
        partitionFunc=lambda k: k[0],
        keyfunc=lambda k: k[1],
    )
    return sorted(parts.mapPartitionsWithIndex(grade_partition(args.command, args.flags)).collect())


def audit(spark, binary, args):
    """One job: partition, grade, gather, merge. Returns merge's exit code."""
    sc = spark.sparkContext
    n = args.partitions or sc.defaultParallelism
    if args.engine == "sql":
        partials = partials_sql(spark, args, n)
    elif args.engine == "files":
        partials = partials_files(spark, args, n)
    else:
        partials = partials_python(sc, args, n)
    if not partials:
        # No partition held a line (an empty input): one partial of nothing.
        cmd = [binary, "--quiet", args.command, *args.flags, "--partial", "-", "-"]
        partials = [(0, subprocess.run(cmd, input=b"", stdout=subprocess.PIPE, check=True).stdout.decode())]
    tmp = tempfile.mkdtemp(prefix="grounding-audit-partials-")
    try:
        paths = []
        for index, doc in partials:
            p = os.path.join(tmp, f"part-{index:05d}.json")
            with open(p, "w", encoding="utf-8") as f:
                f.write(doc)
            paths.append(p)
        if args.keep_partials:
            os.makedirs(args.keep_partials, exist_ok=True)
            for p in paths:
                shutil.copy(p, args.keep_partials)
        cmd = [binary, "merge", *(["--format", args.format] if args.format else [])]
        cmd += [*shlex.split(args.merge), *paths]
        out = open(args.out, "wb") if args.out else None
        try:
            return subprocess.call(cmd, stdout=out)
        finally:
            if out:
                out.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    ap = parser()
    args = ap.parse_args(argv)
    if not args.batch and not args.input:
        ap.error("--input is required (or --batch)")
    conf = SparkConf().setAppName("grounding-audit")
    if args.master:
        conf = conf.setMaster(args.master)
    for kv in args.conf:
        key, _, val = kv.partition("=")
        conf = conf.set(key, val)
    spark = SparkSession.builder.config(conf=conf).getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    binary = os.path.abspath(args.binary)
    sc.addFile(binary)
    try:
        if not args.batch:
            return audit(spark, binary, args)
        worst = 0
        with open(args.batch, encoding="utf-8") as f:
            jobs = [line for line in f if line.strip()]
        for i, line in enumerate(jobs):
            job = ap.parse_args(["--binary", args.binary, "--engine", args.engine, *shlex.split(line)])
            code = audit(spark, binary, job)
            print(f"job {i}: exit {code}", flush=True)
            worst = max(worst, code)
        return worst
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""A PDN Explorer run in PyTorch Geometric.

This folder holds one run of the explorer: its graph as a bundle (graph/: nodes.csv,
edges.csv, meta.json and, for sparse features, features.csv), the weights it trained
(weights.json, named as the modules below name them) and this script. The script builds the
same architecture with PyTorch Geometric's layers and

  1. loads the explorer's trained weights and reports the test accuracy they give here;
  2. trains the architecture from scratch with the run's hyperparameters and seed (RUN below)
     and reports the test accuracy it reaches.

The last line of stdout is one JSON object (test_accuracy is the training's result at its
last epoch, exported_test_accuracy that of the explorer's weights; where the bundle has
validation nodes, test_accuracy_at_best_validation is read at the epoch of best accuracy on
them).

It trains in float64, the explorer's own precision (its engine computes every product in float64,
natively and in the browser's worker alike), so that the explorer's weights give the explorer's
test accuracy here to the last prediction; --float32 asks for float32, faster where the dense node
features dominate (Cora: about half the time), its predictions a few apart. Before torch loads it
says how long the run is expected to take (its epochs at a cost calibrated below, COST), and after
its first three epochs what they took here and what the whole run will then take.

Needs torch and torch_geometric (2.3 or later): `pip install torch torch_geometric`, or put a
folder that holds torch_geometric/ on PYTHONPATH.

usage: python3 run_pyg.py [--bundle DIR] [--weights FILE|none] [--epochs N] [--seed N]
                          [--lr X] [--weight-decay X] [--threads N] [--float32]

Each number is read as the explorer reads it (decimal digits, a sign, a fraction, an exponent;
no nan, inf or 0x…) and held to the explorer's range for its row; a value outside, an argument
given twice or one the script does not know ends the run with one line naming it, exit status 2.
"""
import argparse
import csv
import errno
import io
import json
import math
import os
import re
import stat
import statistics
import sys
import time
import unicodedata

# The run as the explorer trained it: its model, hyperparameters and seed.
RUN = json.loads(r"""{{.}}""")

# The most threads torch may be given: more than any machine this runs on has cores.
MAX_THREADS = 1024


def refuse(msg):
    """Ends the run with msg, on stderr and as the JSON line a caller reads."""
    print("run_pyg.py: " + msg, file=sys.stderr)
    print(json.dumps({"model": RUN["model"], "error": msg}), flush=True)
    sys.exit(2)


WHOLE = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def number(name, whole, lo, hi):
    """An argparse type: a whole or decimal number in [lo, hi], as the explorer reads its rows
    (internal/numtext: ASCII digits only, no nan, inf, 0x…, underscores or other digits)."""
    want = "a whole number" if whole else "a decimal number"
    span = "in [%s, %s]" % (lo, hi)

    def read(text):
        t = text.strip()
        if not (WHOLE if whole else DECIMAL).fullmatch(t):
            raise argparse.ArgumentTypeError("%r is not %s; want one %s" % (text, want, span))
        v = int(t) if whole else float(t)
        if not lo <= v <= hi:  # inf too: a decimal too large for a float
            raise argparse.ArgumentTypeError("%s is outside [%s, %s]" % (text, lo, hi))
        return v
    return read


class Arguments(argparse.ArgumentParser):
    """argparse, but every mistake is one line naming the argument, exit status 2, as refuse()."""

    def error(self, message):
        refuse("%s (python3 run_pyg.py --help lists the arguments)" % message)


def parse_args(argv, here):
    """The arguments, read before torch loads: a mistake is said at once, torch or not."""
    lim = RUN["ranges"]
    ap = Arguments(description="Train the explorer's run in PyTorch Geometric.", allow_abbrev=False)
    ap.add_argument("--bundle", default=os.path.join(here, "graph"), help="the graph bundle (default: graph/ beside this script)")
    ap.add_argument("--weights", default=os.path.join(here, "weights.json"), help="the explorer's trained weights, or none")
    ap.add_argument("--epochs", type=number("--epochs", True, *lim["epochs"]), default=RUN["epochs"],
                    help="epochs to train, in [%d, %d] (default the run's, %d)" % (*lim["epochs"], RUN["epochs"]))
    ap.add_argument("--seed", type=number("--seed", True, *lim["seed"]), default=RUN["seed"],
                    help="seed of the initial weights and of dropout, in [%d, %d] (default the run's, %d)" % (*lim["seed"], RUN["seed"]))
    ap.add_argument("--lr", type=number("--lr", False, *lim["lr"]), default=RUN["lr"],
                    help="Adam's learning rate, in [%g, %g] (default the run's, %g)" % (*lim["lr"], RUN["lr"]))
    ap.add_argument("--weight-decay", type=number("--weight-decay", False, *lim["weight_decay"]), default=RUN["weight_decay"],
                    help="L2 weight decay, in [%g, %g] (default the run's, %g)" % (*lim["weight_decay"], RUN["weight_decay"]))
    ap.add_argument("--threads", type=number("--threads", True, 1, MAX_THREADS), default=2,
                    help="threads torch computes on, in [1, %d] (default 2)" % MAX_THREADS)
    ap.add_argument("--float32", action="store_true", help="train in float32, faster; the default is float64, the explorer's own precision, in which its weights give its test accuracy exactly")
    given = set()
    for arg in argv:
        if arg == "--":
            break
        name = arg.split("=", 1)[0]
        if name.startswith("--") and name in given:
            refuse("%s is given twice; give it once" % name)
        flag = ap._option_string_actions.get(name)
        if "=" in arg and flag is not None and flag.nargs == 0:
            refuse("%s takes no value: give %s alone, or leave it out" % (name, name))
        given.add(name)
    return ap.parse_args(argv)


def what(path):
    """What is at path, in the explorer's words for kinds of files (internal/input), found without
    opening it: "a folder", "a file", "a named pipe (FIFO)", "a device", …; None where nothing is."""
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        if err.errno == errno.ELOOP:
            return "a symbolic link that leads back to itself (a loop of links)"
        if os.path.islink(path):
            return "a symbolic link to %s, which does not exist" % os.readlink(path)
        if err.errno == errno.ENOENT:
            return None
        return "a path that cannot be looked at (%s)" % err.strerror
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISREG, "a file"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device")):
        if test(mode):
            return kind
    return "not a regular file"


def read_file(path):
    """The bytes of the regular file at path; anything else (a pipe, whose reading would wait
    forever, a device such as /dev/zero, which never ends, a folder) is refused by what it is."""
    kind = what(path)
    if kind != "a file":
        refuse("%s: is %s, not a file" % (path, kind or "missing"))
    with open(path, "rb") as f:
        return f.read()


def once(path):
    """A json object_pairs_hook that refuses a key given twice in one object, which json (as Go's
    encoding/json) would read as its last value without a word."""
    def pairs(items):
        seen = {}
        for k, v in items:
            if k in seen:
                refuse("%s: key %r is given twice in one object; the file was changed after the explorer wrote it" % (path, k))
            seen[k] = v
        return seen
    return pairs


def read_json(path, what_it_is):
    """The JSON object of the file at path, as the explorer reads it: UTF-8 with or without its
    byte-order mark, each key once, numbers finite (no NaN or Infinity, which Python's json reads)."""
    data = read_file(path)

    def constant(name):
        refuse("%s: %s is no number the explorer writes; %s" % (path, name, what_it_is))
    try:
        v = json.loads(data.decode("utf-8-sig"), object_pairs_hook=once(path), parse_constant=constant)
    except (UnicodeDecodeError, ValueError) as err:
        refuse("%s: not JSON as the explorer writes it (%s); %s" % (path, err, what_it_is))
    if not isinstance(v, dict):
        refuse("%s: not a JSON object; %s" % (path, what_it_is))
    return v


def check_inputs(a):
    """Refuses, by name and by what it is, a bundle or weights file that is not there or is no
    folder or file: this script reads a bundle (meta.json, nodes.csv, edges.csv), which
    pdn gen -data PATH -out DIR writes from any graph the explorer opens (an OGB folder, a MUSAE
    folder, GraphML), and the explorer's weights.json."""
    kind = what(a.bundle)
    if kind is None:
        refuse("--bundle %s: no such folder; want a bundle folder (meta.json, nodes.csv, edges.csv)" % a.bundle)
    if kind != "a folder":
        refuse("--bundle %s: is %s, not a folder; want a bundle folder (meta.json, nodes.csv, edges.csv), "
               "as pdn gen -data PATH -out DIR writes it" % (a.bundle, kind))
    missing = [n for n in ("meta.json", "nodes.csv", "edges.csv") if what(os.path.join(a.bundle, n)) is None]
    if missing:
        refuse("--bundle %s: not a bundle, it lacks %s; write one from any graph the explorer opens with "
               "pdn gen -data %s -out DIR" % (a.bundle, ", ".join(missing), a.bundle))
    if a.weights != "none":
        kind = what(a.weights)
        if kind is None:
            refuse("--weights %s: no such file; give the explorer's weights.json, or none to train only" % a.weights)
        if kind != "a file":
            refuse("--weights %s: is %s, not a file; give the explorer's weights.json (pdn train -export writes it), "
                   "or none to train only" % (a.weights, kind))
        read_weights(a.weights)


WEIGHTS = {}  # the weights files read, by path: read once, before torch loads


def read_weights(path):
    """weights.json as the explorer writes it: a JSON object whose parameters are each a name and
    a list of numbers (and, for a model over PDN's learned graph, graph_weight a list of numbers),
    read before torch loads: any other file (meta.json, nodes.csv) is refused in one line."""
    if path in WEIGHTS:
        return WEIGHTS[path]
    advice = "give the weights.json pdn train -export wrote, or none to train only"
    w = read_json(path, advice)

    def numbers(v):
        return isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in v)
    if not isinstance(w.get("parameters"), list):
        refuse("%s: not the explorer's weights.json (it holds no list of parameters); %s" % (path, advice))
    for k, p in enumerate(w["parameters"]):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not numbers(p.get("values")):
            refuse("%s: parameter %d is not a name and a list of numbers; %s" % (path, k + 1, advice))
    if "graph_weight" in w and not numbers(w["graph_weight"]):
        refuse("%s: graph_weight is not a list of numbers; %s" % (path, advice))
    WEIGHTS[path] = w
    return w


def quote(s):
    """A cell as the explorer's messages quote it (Go's strconv.Quote), cut short if long."""
    r = s[:40]
    return json.dumps(r, ensure_ascii=False) + ("… (%d characters)" % len(s) if len(s) > 40 else "")


def group(n):
    """A count as the explorer writes it in a message: 1,000."""
    return "{:,}".format(n)


class Table:
    """A bundle's CSV file read as the explorer reads it (datasets' bundle reader): UTF-8, with
    or without its byte-order mark, any other byte refused at its line; every row as wide as
    the header, none repeating it; numbers plain decimals (no nan, inf, 0x…, 1_0, which Python's
    float reads). A fault is one line naming the file, the line and the column, exit status 2,
    in the explorer's words."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        data = read_file(path)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            line = data[:err.start].count(b"\n") + 1
            refuse("%s:%d: byte 0x%02X is not UTF-8: save the file as UTF-8 (pdn gen writes it so)"
                   % (path, line, data[err.start]))
        lines = list(csv.reader(io.StringIO(text, newline="")))
        if not lines:
            refuse("%s: empty, want a header" % path)
        self.head, self.rows = lines[0], lines[1:]
        head = [h.strip() for h in self.head]
        for c, h in enumerate(head):
            if h and h in head[:c]:
                refuse("%s:1: column %s: is named twice in the header (columns %d and %d): which one is meant cannot "
                       "be told: rename one, and open it again" % (path, h, head.index(h) + 1, c + 1))
        for i, r in enumerate(self.rows):
            if [c.strip() for c in r] == head:
                self.fault(i, None, "this row repeats the header (line 1): were two files joined into one? Delete it "
                                    "(and see that the rows after it belong here), save it, and open it again")
            if len(r) != len(self.head):
                self.fault(i, None, "%s column: %d values, the header has %d"
                           % ("extra" if len(r) > len(self.head) else "missing", len(r), len(self.head)))

    def fault(self, i, col, msg):
        """Ends the run naming row i (0 the first after the header; None the header) and column col."""
        at = "%s:%d" % (self.path, 1 if i is None else i + 2)
        refuse("%s: %s%s" % (at, "" if col is None else "column %s: " % self.head[col], msg))

    def at(self, i, col, whole=False, lo=None, hi=None):
        """Row i's value in column col, a number in [lo, hi] where they are given."""
        cell = self.rows[i][col]
        text = cell.strip()
        if not (WHOLE if whole else DECIMAL).fullmatch(text):
            if whole:
                self.fault(i, col, "%s is not a whole number in [%s, %s]" % (quote(cell), lo, hi))
            self.fault(i, col, "%s is not a decimal number" % quote(cell))
        v = int(text) if whole else float(text)
        if math.isinf(v):
            self.fault(i, col, "%s is too large to be a finite number" % quote(cell))
        if lo is not None and v < lo or hi is not None and v > hi:
            self.fault(i, col, "%d is out of range [%s, %s]" % (v, lo, hi))
        return v

    def header(self, fixed, prefix):
        """The header: fixed, then prefix0, prefix1, …; the number of those."""
        if self.head[:len(fixed)] != fixed:
            refuse("%s:1: header must start with %s" % (self.path, ",".join(fixed)))
        for i, h in enumerate(self.head[len(fixed):]):
            if h != "%s%d" % (prefix, i):
                refuse("%s:1: column %s: want %s%d" % (self.path, h, prefix, i))
        return len(self.head) - len(fixed)


READ = {}  # the bundles read, by folder: read once, before torch loads

# The explorer's rule for a bundle's label (datasets.IsNoClass), written into RUN from it: a cell
# that is one of pandas' missing values, or the number -1, is a node without a class.
LABELS = RUN["labels"]
# The explorer's rule for the rest of a bundle (datasets.Rules): meta.json's counts, by their
# names and the names other tools give them, and their ranges.
BUNDLE = RUN["bundle"]


def no_class(cell):
    """Whether a label cell says its node has no class, as the explorer reads it."""
    t = cell.strip()
    return t in LABELS["missing"] or DECIMAL.fullmatch(t) is not None and float(t) == LABELS["no_class"]


def key_form(k):
    """A key without case or separators: num_nodes, numNodes and NUM-NODES are one."""
    return "".join(c.lower() for c in k if c not in "_- .")


def one_edit_apart(a, b):
    """Whether a and b differ by one letter added, dropped or changed, or two neighbours swapped."""
    if len(a) < len(b):
        a, b = b, a
    if len(a) - len(b) > 1:
        return False
    i = 0
    while i < len(b) and a[i] == b[i]:
        i += 1
    if len(a) > len(b):
        return a[i + 1:] == b[i:]
    if i == len(a):
        return False
    if a[i + 1:] == b[i + 1:]:
        return True
    return i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:]


def json_text(v):
    """v as JSON writes it, as the explorer shows a value of meta.json."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e21:
        v = int(v)
    t = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return t[:40] + "…" if len(t) > 40 else t


def read_meta(path):
    """meta.json as the explorer reads it (datasets' readMeta): a name, class_names a list of
    strings, each count (nodes, edges, classes, features, under any of their names) a whole number
    in its range, given twice only alike; a key one letter from one the explorer reads refused."""
    meta = read_json(path, "write the bundle again with pdn gen -data PATH -out DIR")
    if not isinstance(meta.get("name"), str) or meta["name"] == "":
        refuse("%s: key name: missing or not a string" % path)
    names = meta.get("class_names")
    if "class_names" in meta and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        refuse("%s: key class_names: want a list of the classes' names, as strings, in the order of their numbers" % path)
    read = list(BUNDLE["keys_read"]) + [c["key"] for c in BUNDLE["counts"]]
    counts = {}
    for key in sorted(k for k in meta if k != "class_names"):
        form = key_form(key)
        c = next((c for c in BUNDLE["counts"] if form in [key_form(a) for a in [c["key"]] + c["aliases"]]), None)
        if c is None:
            near = [k for k in read if len(key) >= 6 and len(k) >= 6 and key != k and one_edit_apart(key.lower(), k)]
            if near:
                refuse("%s: key %s: is no key the explorer reads: did you mean %s? Rename it (a key of your own, kept as "
                       "the bundle's metadata, is best named apart from the keys the explorer reads)" % (path, key, near[0]))
            continue
        v = meta[key]
        if isinstance(v, str):
            refuse("%s: key %s: is text (%s), not a number: write it without quotes" % (path, key, quote(v)))
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != math.floor(v) or not c["lo"] <= v <= c["hi"]:
            refuse("%s: key %s: %s is not a whole number in [%d, %d]" % (path, key, json_text(v), c["lo"], c["hi"]))
        was = counts.get(c["key"])
        if was is not None and was[1] != int(v):
            refuse("%s: key %s: says %s, and %s says %s: one count, given twice, disagrees with itself: keep one"
                   % (path, key, group(int(v)), was[0], group(was[1])))
        counts[c["key"]] = (key, int(v))
    return meta, counts


def agrees(path, counts, n, e, c, f):
    """Holds meta.json's counts to what the files hold, as the explorer does (datasets' agrees)."""
    held = {"nodes": (n, "nodes.csv holds %s nodes" % group(n)),
            "edges": (e, "edges.csv holds %s edges" % group(e)),
            "classes": (c, "nodes.csv's labels hold %s classes (0 to %d)" % (group(c), c - 1)),
            "features": (f, "the node features are %s wide" % group(f))}
    for count in BUNDLE["counts"]:
        key = count["key"]
        if key in counts and counts[key][1] != held[key][0]:
            refuse("%s: key %s: says %s, but %s: the files disagree (one cut short, or edited by hand?): correct the "
                   "count, or leave it out" % (path, counts[key][0], group(counts[key][1]), held[key][1]))


def read_bundle(bundle):
    """The bundle as plain lists, held to the explorer's rules (datasets' ReadBundleFS, in its
    order: meta.json, nodes.csv, features.csv, edges.csv, then meta.json's counts against the
    files), read before torch loads, so that a fault is said at once, torch or not."""
    if bundle in READ:
        return READ[bundle]
    meta_path = os.path.join(bundle, "meta.json")
    meta, counts = read_meta(meta_path)
    nodes = Table(os.path.join(bundle, "nodes.csv"))
    width = nodes.header(["id", "label", "split"], "x")
    max_label = counts["classes"][1] - 1 if "classes" in counts else LABELS["max_classes"] - 1
    n = len(nodes.rows)
    labels, split = [], []
    for i, r in enumerate(nodes.rows):
        if not WHOLE.fullmatch(r[0].strip()) or int(r[0]) != i:
            nodes.fault(i, 0, "ids must be 0..N-1 in order: want %d, got %s" % (i, quote(r[0])))
        if r[2] not in ("train", "test", "val", "unlabelled"):
            nodes.fault(i, 2, "%s is not train, test, val or unlabelled" % quote(r[2]))
        none = no_class(r[1])
        if none and r[2] != "unlabelled":
            nodes.fault(i, 1, "%s says the node has no class, but its split is %s: a node without a class is in the "
                              "split unlabelled (label -1)" % (quote(r[1]), r[2]))
        if not none and r[2] == "unlabelled":
            nodes.fault(i, 2, "the split unlabelled is for a node without a class (label -1), and this node's label "
                              "is %s" % quote(r[1]))
        labels.append(LABELS["no_class"] if none else nodes.at(i, 1, whole=True, lo=0, hi=max_label))
        split.append(r[2])
    if n == 0:
        refuse("%s: no nodes: want a row per node after the header" % nodes.path)
    x = {"width": width, "rows": [[nodes.at(i, c) for c in range(3, len(nodes.head))] for i in range(n)]}
    sparse = os.path.join(bundle, "features.csv")
    if what(sparse) is not None:  # one line per non-zero: node,feature[,value]
        cells = Table(sparse)
        if width > 0:
            refuse("%s: nodes.csv already has %d feature columns: give the node features one way, as x columns or "
                   "here" % (cells.path, width))
        if cells.head not in (["node", "feature"], ["node", "feature", "value"]):
            refuse("%s:1: header must be node,feature or node,feature,value" % cells.path)
        f = counts["features"][1] if "features" in counts else BUNDLE["max_features"]
        entries = [(cells.at(k, 0, whole=True, lo=0, hi=n - 1), cells.at(k, 1, whole=True, lo=0, hi=f - 1),
                    cells.at(k, 2) if len(cells.head) > 2 else 1.0) for k in range(len(cells.rows))]
        if not entries:
            refuse("%s: no features: want a line per non-zero after the header" % cells.path)
        width = f if "features" in counts else 1 + max(j for _, j, _ in entries)
        x = {"width": width, "cells": entries}
    edges = Table(os.path.join(bundle, "edges.csv"))
    fixed = ["source", "target"] + (["kind"] if edges.head[2:3] == ["kind"] else [])
    names = edges.head[len(fixed):]
    if edges.head[:len(fixed)] != fixed or any(re.fullmatch(r"e\+?[0-9]+", h) for h in names):
        edges.header(fixed, "e")  # anonymous edge features, e0, e1, …
    for i, h in enumerate(names):  # or each named: a multiplex graph's layers
        if h.strip() == "":
            refuse("%s:1: edge feature %d has no name: name each column, or call them e0, e1, …" % (edges.path, i))
        if any(unicodedata.category(ch) == "Cc" for ch in h):
            refuse("%s:1: column %s: an edge feature's name holds a line break or a control character" % (edges.path, quote(h)))
    src, dst, z, seen = [], [], [], {}
    for k, r in enumerate(edges.rows):
        u = edges.at(k, 0, whole=True, lo=0, hi=n - 1)
        v = edges.at(k, 1, whole=True, lo=0, hi=n - 1)
        if u == v:
            edges.fault(k, 1, "self-loop on node %d" % u)
        pair = (min(u, v), max(u, v))
        if pair in seen:
            edges.fault(k, 1, "the pair (%d,%d) repeats line %d" % (u, v, seen[pair]))
        seen[pair] = k + 2
        if len(fixed) == 3 and r[2] not in ("intra", "inter", ""):
            edges.fault(k, 2, "%s is not intra or inter (or empty: an end without a class)" % quote(r[2]))
        src.append(u)
        dst.append(v)
        z.append([edges.at(k, i) for i in range(len(fixed), len(edges.head))])
    classes = 1 + max(labels, default=-1)
    agrees(meta_path, counts, n, len(src), classes, width)
    READ[bundle] = {"meta": meta, "n": n, "labels": labels, "split": split, "x": x, "src": src, "dst": dst, "z": z,
                    "d": len(edges.head) - len(fixed)}
    return READ[bundle]


# What an epoch costs here, in ms, by the units expected_ms counts: calibrated with torch 1.13
# (float64, one thread) and PyTorch Geometric 2.3.1 on a 2-core machine, on PDN's exports of the
# explorer's default graph (9 ms an epoch measured, 17 expected), Cora (28; 21), Citeseer (58; 50)
# and a generated graph of 6,144 nodes and 353,978 edges (915; 646): within a factor of 2 of
# each. float32 halves the dense products and takes three quarters of the edges' time. A busy
# machine is slower, and torch's threads waiting on each other there far slower (Cora on two
# threads at a load of 13: 462 ms an epoch, 28 on one): the first epochs say what they took.
COST = {"epoch": 3.0, "dense": 1.1e-7, "edge": 3e-6}


def expected_ms(run, n, f, d, c, e, float32):
    """The ms an epoch of the run's model is expected to take on a graph of n nodes, f node
    features (stored dense), d edge features, c classes and e edges, by the work it does: the
    dense products of the node features (multiply-adds) and the work per edge (messages and the
    pathfinder), a forward and a backward pass."""
    kind, h = run["model"], run["hidden"]
    arcs = 2 * e + n  # both directions and a self-loop a node
    dense, edge = n * f * h + n * h * c, arcs * (h + c)
    if kind == "pdn":
        widths = [d] + list(run["edge_hidden"]) + [1]
        edge += e * sum(a * b for a, b in zip(widths, widths[1:]))
    elif kind == "pdn-linear":
        edge += e * d
    elif kind == "gat":
        hd = run["gat_heads"] * run["gat_head_features"]
        dense, edge = n * f * hd + n * hd * c, arcs * (2 * hd + c)
    elif kind == "sage":
        dense *= 2
    elif kind == "cheb":
        dense, edge = dense * run["cheb_terms"], edge * run["cheb_terms"]
    elif kind == "sgc":
        dense, edge = n * f * c, arcs * f * run["sgc_hops"]
    elif kind == "appnp":
        edge = arcs * c * run["appnp_steps"]
    elif kind == "mlp":
        edge = 0
    ms = COST["epoch"] + 3 * (COST["dense"] * dense + COST["edge"] * edge)
    if float32:
        ms = COST["epoch"] + 3 * (COST["dense"] * dense / 2 + 0.75 * COST["edge"] * edge)
    return ms


def duration(sec):
    """A time as a person reads it: 0.4 s, 12 s, 7 min 10 s, 2 h 5 min."""
    if sec < 10:
        return "%.1f s" % sec
    if sec < 60:
        return "%d s" % round(sec)
    if sec < 3600:
        return "%d min %d s" % divmod(round(sec), 60)
    return "%d h %d min" % divmod(round(sec / 60), 60)


def plan(a, bundle):
    """What the run will take, said before torch loads: its epochs (the restarts' too) at the
    expected ms an epoch, each read on the validation nodes where the bundle has them."""
    b = read_bundle(bundle)
    ms = expected_ms(RUN, b["n"], b["x"]["width"], b["d"], 1 + max(b["labels"], default=0), len(b["src"]), a.float32)
    epochs = a.epochs
    if RUN["restarts"] > 0:
        epochs += (RUN["restarts"] - 1) * min(RUN["restart_epochs"], a.epochs)
    elif "val" in b["split"]:
        ms *= 5 / 3  # two forward passes an epoch more: validation and test
    p = {"epochs": epochs, "ms": ms, "threads": a.threads, "said": False, "took": []}
    print("expected: about %s to train %d epochs (%.0f ms an epoch in %s on a 2-core machine, one thread; "
          "the first epochs will say what they take here)" % (duration(epochs * ms / 1000), epochs, ms,
                                                               "float32" if a.float32 else "float64"), flush=True)
    return p


def measured(p, ms):
    """Takes an epoch's time, its validation included, and says, once the first three are timed,
    what the whole run will take at their pace, and where it is far slower than expected on
    several threads, that one may be faster."""
    p["took"].append(ms)
    if p["said"] or len(p["took"]) < 3:
        return
    p["said"] = True
    ms = statistics.median(p["took"])
    line = "measured: %.0f ms an epoch over the first %d: about %s for the %d epochs" % (
        ms, len(p["took"]), duration(p["epochs"] * ms / 1000), p["epochs"])
    if p["threads"] > 1 and ms > 4 * p["ms"]:
        line += ("; torch's %d threads may be waiting on each other on a busy machine: --threads 1 may be "
                 "several times faster" % p["threads"])
    print(line, flush=True)


if __name__ == "__main__":
    ARGS = parse_args(sys.argv[1:], os.path.dirname(os.path.abspath(__file__)))
    check_inputs(ARGS)
    read_bundle(ARGS.bundle)  # a fault in the bundle is said before torch loads
    PLAN = plan(ARGS, ARGS.bundle)  # and what the run will take, before it starts

try:
    import torch
    import torch.nn.functional as F
    import torch_geometric
    from torch_geometric.nn import APPNP, ChebConv, GATConv, GCNConv, SAGEConv, SGConv
    from torch_geometric.utils import scatter
except ImportError as err:
    sys.exit("run_pyg.py needs torch and torch_geometric (%s): pip install torch torch_geometric, "
             "or put a folder that holds torch_geometric/ on PYTHONPATH" % err)


def load(bundle, dtype):
    """The bundle as tensors: x, y, the split's masks, both directions of every edge and the
    undirected edges' features z (one row per edge as edges.csv lists it)."""
    b = read_bundle(bundle)
    n, labels = b["n"], b["labels"]
    y = torch.tensor(labels)
    if "cells" in b["x"]:
        x = torch.zeros(n, b["x"]["width"], dtype=dtype)
        for i, j, v in b["x"]["cells"]:
            x[i, j] += v
    else:
        x = torch.tensor(b["x"]["rows"], dtype=dtype).reshape(n, b["x"]["width"])
    z = torch.tensor(b["z"], dtype=dtype).reshape(len(b["src"]), b["d"])
    edge_index = torch.tensor([b["src"] + b["dst"], b["dst"] + b["src"]], dtype=torch.long)
    # A node without a class (label -1 in the split "unlabelled", PyG's y = -1) passes messages
    # but is in no mask: never trained, validated or tested on.
    masks = {s: torch.tensor([v == s and lab >= 0 for v, lab in zip(b["split"], labels)]) for s in ("train", "val", "test")}
    return x, y, masks, edge_index, z, int(b["meta"].get("classes", int(y.max()) + 1))


class LinearPathfinder(torch.nn.Module):
    """The pathfinder neuron with attention over its inputs: w_e = sigmoid(z_e . softmax(beta))."""

    def __init__(self, d):
        super().__init__()
        self.beta = torch.nn.Parameter(torch.empty(d).uniform_(-0.1, 0.1))

    def forward(self, z):
        return torch.sigmoid(z @ torch.softmax(self.beta, 0))


def pathfinder_mlp(d, hidden, alive):
    """The pathfinder MLP, D -> hidden... -> 1 with ReLUs (sigmoid applied by the caller)."""
    layers, width = [], d
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        if alive:  # hidden biases start at +0.5, so no ReLU starts dead on every input
            torch.nn.init.constant_(layers[-2].bias, 0.5)
        width = h
    return torch.nn.Sequential(*layers, torch.nn.Linear(width, 1))


def mean_loop_norm(edge_index, w, n):
    """The explorer's normalisation under self_loop "mean": node i's self-loop weighs the mean of
    its k_i edges' weights, S_i/k_i (add_self_loops' fill_value="mean"; 1 where it has none), so
    d_i = S_i + S_i/k_i and its own coefficient is 1/(k_i+1) whatever the weights' scale. Returns
    the edges with one self-loop per node and their coefficients, for GCNConv(normalize=False)."""
    col = edge_index[1]
    k = scatter(torch.ones_like(w), col, 0, dim_size=n, reduce="sum")
    s = scatter(w, col, 0, dim_size=n, reduce="sum")
    has = k > 0
    d = torch.where(has, s + s / k.clamp(min=1), torch.ones_like(s))
    r = torch.where(d > 0, d.clamp(min=torch.finfo(d.dtype).tiny).rsqrt(), torch.zeros_like(d))
    coef = r[edge_index[0]] * w * r[col]
    loops = torch.arange(n, device=edge_index.device)
    own = torch.where(has, 1 / (k + 1), torch.ones_like(k))
    return torch.cat([edge_index, torch.stack([loops, loops])], 1), torch.cat([coef, own])


class Net(torch.nn.Module):
    """The explorer's model of RUN["model"], built from PyTorch Geometric's layers."""

    def __init__(self, run, f, d, c, graph_weight=None):
        super().__init__()
        self.kind, self.p, self.edge_drop = run["model"], run["dropout"], run["edge_drop"]
        # PDN's learned graph, frozen (graph_from "pdn"): each edge's weight, both directions.
        self.gw = None if graph_weight is None else torch.cat([graph_weight, graph_weight])
        h = run["hidden"]
        if self.kind == "pdn":
            self.pathfinder = pathfinder_mlp(d, run["edge_hidden"], run["edge_init"] == "alive")
        elif self.kind == "pdn-linear":
            self.pathfinder = LinearPathfinder(d)
        # The explorer's mean self-loops on the pathfinder's learned weights, and on a PDN's frozen
        # graph, which keeps its PDN's rule: the coefficients are computed here (mean_loop_norm),
        # GCNConv, SGConv's propagation and APPNP only aggregate them.
        self.mean_loop = run["self_loop"] == "mean" and (self.kind in ("pdn", "pdn-linear") or graph_weight is not None)
        if self.kind in ("pdn", "pdn-linear", "gcn"):
            self.conv1 = GCNConv(f, h, normalize=not self.mean_loop)
            self.conv2 = GCNConv(h, c, normalize=not self.mean_loop)
        elif self.kind == "gat":
            heads, per_head = run["gat_heads"], run["gat_head_features"]
            self.conv1 = GATConv(f, per_head, heads=heads)
            self.conv2 = GATConv(heads * per_head, c, heads=1)
        elif self.kind == "sage":
            self.conv1, self.conv2 = SAGEConv(f, h), SAGEConv(h, c)
        elif self.kind == "cheb":
            self.conv1, self.conv2 = ChebConv(f, h, K=run["cheb_terms"]), ChebConv(h, c, K=run["cheb_terms"])
        elif self.kind == "sgc":
            self.conv = SGConv(f, c, K=run["sgc_hops"])
        elif self.kind in ("appnp", "mlp"):
            self.lin1, self.lin2 = torch.nn.Linear(f, h), torch.nn.Linear(h, c)
            if self.kind == "appnp":
                self.prop = APPNP(K=run["appnp_steps"], alpha=run["appnp_teleport"], normalize=not self.mean_loop)
        else:
            raise ValueError("model %r is not one this script builds" % self.kind)

    def edge_weight(self, z):
        """The learned weight of each edge, in both directions; None for a fixed graph."""
        if self.kind == "pdn":
            w = torch.sigmoid(self.pathfinder(z)).view(-1)
        elif self.kind == "pdn-linear":
            w = self.pathfinder(z)
        else:
            return self.gw
        if self.training and self.edge_drop > 0:  # DropEdge on the learned weights
            w = F.dropout(w, self.edge_drop)
        return torch.cat([w, w])

    def forward(self, x, edge_index, z):
        if self.kind in ("pdn", "pdn-linear", "gcn"):
            w = self.edge_weight(z)
            if self.mean_loop:
                edge_index, w = mean_loop_norm(edge_index, w, x.size(0))
            h = F.dropout(F.relu(self.conv1(x, edge_index, w)), self.p, self.training)
            return self.conv2(h, edge_index, w)
        if self.kind in ("sage", "cheb"):
            h = F.dropout(F.relu(self.conv1(x, edge_index)), self.p, self.training)
            return self.conv2(h, edge_index)
        if self.kind == "gat":
            x = F.dropout(x, self.p, self.training)
            h = F.dropout(F.elu(self.conv1(x, edge_index)), self.p, self.training)
            return self.conv2(h, edge_index)
        if self.kind == "sgc":
            if not self.mean_loop:
                return self.conv(x, edge_index, self.gw)
            # SGConv always normalises: its K propagations over the coefficients, then its lin.
            ei, coef = mean_loop_norm(edge_index, self.gw, x.size(0))
            for _ in range(self.conv.K):
                x = scatter(coef.view(-1, 1) * x[ei[0]], ei[1], 0, dim_size=x.size(0), reduce="sum")
            return self.conv.lin(x)
        h = self.lin2(F.dropout(F.relu(self.lin1(x)), self.p, self.training))
        if self.kind != "appnp":
            return h
        if self.mean_loop:
            ei, coef = mean_loop_norm(edge_index, self.gw, x.size(0))
            return self.prop(h, ei, coef)
        return self.prop(h, edge_index, self.gw)


def load_weights(model, path):
    """Copies the explorer's trained arrays into the model, by name (read_weights checked them)."""
    entries = [(p["name"], p["values"]) for p in read_weights(path)["parameters"]]
    params = dict(model.named_parameters())
    for pname, pvalues in entries:
        p = {"name": pname, "values": pvalues}
        name = p["name"]
        if name not in params and ".lin_src." in name:  # GATConv's one weight is "lin" from PyG 2.5 on
            name = name.replace(".lin_src.", ".lin.")
        if name not in params:
            refuse("%s: parameter %s is not one of the model's (%s): the weights are of another run or graph" % (path, p["name"], ", ".join(params)))
        target = params[name]
        try:
            values = torch.tensor(p["values"], dtype=target.dtype)
        except (TypeError, ValueError) as err:
            refuse("%s: parameter %s holds no array of numbers (%s)" % (path, p["name"], err))
        if values.numel() != target.numel():
            refuse("%s: parameter %s has %d values, the model's has %d: the weights are of another run or graph than --bundle" % (path, p["name"], values.numel(), target.numel()))
        with torch.no_grad():
            target.copy_(values.view(target.shape))


def accuracy(model, data, mask):
    x, y, masks, edge_index, z = data
    model.eval()
    with torch.no_grad():
        pred = model(x, edge_index, z).argmax(1)
    m = masks[mask]
    return float((pred[m] == y[m]).double().mean()) if int(m.sum()) else None


def train_loss(model, data):
    x, y, masks, edge_index, z = data
    model.eval()
    with torch.no_grad():
        return float(F.cross_entropy(model(x, edge_index, z)[masks["train"]], y[masks["train"]]))


def train(model, data, run, epochs, times, opt=None, best=None, plan=None):
    """Full-batch Adam on the training nodes' cross-entropy, as the explorer trains; opt goes
    on with an optimiser's state. With best (a dict), each epoch is read on the validation
    nodes and best keeps the test accuracy at the first epoch of best validation accuracy."""
    x, y, masks, edge_index, z = data
    if opt is None:
        opt = torch.optim.Adam(model.parameters(), lr=run["lr"], weight_decay=run["weight_decay"])
    for epoch in range(1, epochs + 1):
        t0 = time.perf_counter()
        model.train()
        opt.zero_grad()
        loss = F.cross_entropy(model(x, edge_index, z)[masks["train"]], y[masks["train"]])
        loss.backward()
        opt.step()
        times.append(1000 * (time.perf_counter() - t0))
        if best is not None:
            v = accuracy(model, data, "val")
            if v > best.get("validation", -1):
                best.update(validation=v, test=accuracy(model, data, "test"), at=epoch)
        if plan is not None:
            measured(plan, 1000 * (time.perf_counter() - t0))
    return opt


def fresh(run, shape, seed, graph_weight=None):
    torch.manual_seed(seed)
    return Net(run, *shape, graph_weight=graph_weight)


def learned_graph(path, edges, dtype):
    """PDN's learned graph that a model with graph_from "pdn" propagates over: weights.json's
    graph_weight, one weight per edge of edges.csv; None for a model over the input graph."""
    if RUN.get("graph_from") != "pdn":
        return None
    gw = read_weights(path).get("graph_weight")
    if gw is None:
        refuse("%s: no graph_weight: this run propagates over PDN's learned graph, which the explorer's "
               "weights.json carries" % path)
    if len(gw) != edges:
        refuse("%s: graph_weight has %d weights for %d edges: the weights are of another graph than --bundle"
               % (path, len(gw), edges))
    return torch.tensor(gw, dtype=dtype)


def main(a):
    here = os.path.dirname(os.path.abspath(__file__))
    run = dict(RUN, lr=a.lr, weight_decay=a.weight_decay)
    torch.set_num_threads(a.threads)
    dtype = torch.float32 if a.float32 else torch.float64
    torch.set_default_dtype(dtype)
    try:
        x, y, masks, edge_index, z, c = load(a.bundle, dtype)
    except (OSError, ValueError, IndexError, KeyError, RuntimeError) as err:
        refuse("%s: cannot read the bundle: %s" % (a.bundle, err))
    data = (x, y, masks, edge_index, z)
    shape = (x.shape[1], z.shape[1], c)
    print("graph: %d nodes, %d edges, %d node features, %d edge features, %d classes; model %s"
          % (x.shape[0], z.shape[0], x.shape[1], z.shape[1], c, RUN["model"]))

    out = {"model": RUN["model"], "torch_geometric": torch_geometric.__version__,
           "explorer_test_accuracy": RUN.get("test_accuracy")}
    gw = learned_graph(a.weights if a.weights != "none" else os.path.join(here, "weights.json"), z.shape[0], dtype)
    if a.weights != "none":
        model = Net(RUN, *shape, graph_weight=gw)
        load_weights(model, a.weights)
        out["exported_test_accuracy"] = accuracy(model, data, "test")
        print("the explorer's weights: test accuracy %s (the explorer showed %s)"
              % (out["exported_test_accuracy"], RUN.get("test_accuracy")))

    times = []
    # Model selection on the bundle's validation nodes, where it has them (not with restarts,
    # whose first epochs are spread over several initialisations).
    best = {} if int(masks["val"].sum()) and RUN["restarts"] == 0 else None
    restarts = RUN["restarts"]
    if restarts > 0:  # train each initialisation a while, keep the one of lowest training loss
        first = min(RUN["restart_epochs"], a.epochs)
        tried = []
        for r in range(restarts):
            m = fresh(RUN, shape, 1000 * a.seed + r, gw)
            opt = train(m, data, run, first, times, plan=PLAN)
            tried.append((train_loss(m, data), r, m, opt))
        _, kept, model, opt = min(tried, key=lambda t: (t[0], t[1]))
        print("restarts: kept %d of %d" % (kept, restarts))
        train(model, data, run, a.epochs - first, times, opt, plan=PLAN)
    else:
        model = fresh(RUN, shape, a.seed, gw)
        train(model, data, run, a.epochs, times, best=best, plan=PLAN)
    out.update({"test_accuracy": accuracy(model, data, "test"), "train_accuracy": accuracy(model, data, "train"),
                "epochs": a.epochs, "seed": a.seed, "lr": a.lr, "weight_decay": a.weight_decay,
                "epoch_ms_median": round(statistics.median(times), 3) if times else None,
                "expected_epoch_ms": round(PLAN["ms"], 3), "float32": a.float32})
    if best:
        out.update({"validation_nodes": int(masks["val"].sum()), "best_validation_epoch": best["at"],
                    "test_accuracy_at_best_validation": best["test"]})
    print("trained in PyTorch Geometric: test accuracy %s, train accuracy %s" % (out["test_accuracy"], out["train_accuracy"]))
    if best:
        print("read at the epoch of best validation accuracy (%d): test accuracy %s" % (best["at"], best["test"]))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main(ARGS)

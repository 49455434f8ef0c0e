#!/usr/bin/env python3
"""Fits the cost model's speeds (pdn/speeds.go) to BenchmarkCost's epochs.

  go test -run '^$' -bench 'BenchmarkCost|BenchmarkUpdate' -benchtime 1x ./pdn/ > native.txt   (natively, or under
  GOOS=js with the kernels for the browser: see the Makefile's test-wasm)
  python3 scripts/fit-cost.py browser|native RUN.txt [RUN.txt ...] [--skip SIZE/MODEL,...]
      [--weights GATHER,EXP]

Each kind's UpdateNs (a learned value's step) is the mean of BenchmarkUpdate's ns/update in the
runs given, or, for a kind it does not run, the largest of them; each epoch's updates
(M-updates × UpdateNs) are taken off it before the rest is fitted. Each epoch is the mean of the
runs given. The fit: one weight per kind of work (gather and
exponential against dense) and per model ns a unit and a fixed cost, so that the largest
|log(estimate/real)| over all epochs is least (least squares, reweighted towards the worst);
a model's set-up ns a unit from the set-ups of 50 ms or more. It prints the place's weights
and its column of the speeds table (pdn/speeds.go: one row a kind, browser and native; a
kind timed `like` another takes both columns once both places are fitted) and, on stderr,
estimate/real for every epoch. Every kind BenchmarkCost runs is fitted; a kind it does not
know is an error. With --weights, the place's weights are taken as given (the table's, say) and
only the kinds in the runs are fitted to them: rows for kinds not fitted yet, leaving the others
and the weights as they stand. Needs numpy and scipy; a mistake in the arguments (a place other
than browser or native, a run file that cannot be read or holds no BenchmarkCost epoch, weights
that are not two finite numbers above 0) is one line naming the argument, exit status 2, said
before numpy loads.
"""
import argparse
import math
import re
import sys

GO_NAMES = {'pdn': 'PDN', 'pdn-linear': 'PDNLinear', 'pdn-edgeconv': 'PDNEdgeConv',
            'pdn-multiscale': 'PDNMultiScale', 'gcn': 'GCN', 'gat': 'GAT', 'appnp': 'APPNP',
            'sgc': 'SGC', 'clustergcn': 'ClusterGCN', 'deepwalk': 'DeepWalk', 'mlp': 'MLP',
            'cheb': 'Cheb', 'sage': 'SAGE', 'grarep': 'GraRep', 'hope': 'HOPE', 'netmf': 'NetMF',
            'line': 'LINE', 'walklets': 'Walklets', 'aane': 'AANE', 'asne': 'ASNE', 'musae': 'MUSAE',
            'tadw': 'TADW', 'bane': 'BANE', 'tene': 'TENE', 'feather': 'FEATHER', 'mgcn': 'MGCN',
            'dmgi': 'DMGI', 'm2v': 'M2V', 'mell': 'MELL', 'mne': 'MNE'}
METRICS = ['real-ms', 'setup-s', 'M-dense', 'M-gather', 'M-exp', 'M-setup-dense', 'M-setup-gather', 'M-setup-exp', 'M-updates']

# What a run file holds and --weights takes, as the arguments' help and their refusals say them.
RUN_FILE = "a readable file of go test -bench BenchmarkCost's output"
WEIGHTS = "GATHER,EXP: two decimal numbers above 0 and finite, as 1.5,20 (the place's Work weights beside Dense: 1)"
DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def epochs(path, text):
    """The names of the epochs a run file holds (its BenchmarkCost lines with real-ms), read as
    load reads them; a line load could not read is an argparse.ArgumentTypeError."""
    names = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith('BenchmarkCost/'):
            continue
        f = line.split()
        vals = {}
        for i in range(len(f) - 1):
            if f[i + 1] in METRICS:
                try:
                    vals[f[i + 1]] = float(f[i])
                except ValueError:
                    raise argparse.ArgumentTypeError('%s, line %d: %s is %r, not a number' % (path, n, f[i + 1], f[i]))
                if not math.isfinite(vals[f[i + 1]]) or vals[f[i + 1]] < 0:
                    raise argparse.ArgumentTypeError('%s, line %d: %s is %s; want a finite number, 0 or more'
                                                     % (path, n, f[i + 1], f[i]))
        if 'real-ms' not in vals:
            continue
        lacking = [m for m in ('M-dense', 'M-gather', 'M-exp') if m not in vals]
        if lacking or vals['real-ms'] == 0:
            raise argparse.ArgumentTypeError('%s, line %d: an epoch %s; want BenchmarkCost\'s real-ms above 0 and its M-dense, '
                                             'M-gather and M-exp' % (path, n, 'without ' + ', '.join(lacking) if lacking else 'of 0 ms'))
        names.add(re.sub(r'-\d+$', '', f[0][len('BenchmarkCost/'):]))
    return names


def read(path):
    with open(path) as f:
        return f.read()


def run_file(path):
    """An argparse type: a run file, readable, with at least one BenchmarkCost epoch."""
    try:
        text = read(path)
    except OSError as err:
        raise argparse.ArgumentTypeError('%s: %s; want %s' % (path, err.strerror, RUN_FILE))
    except UnicodeDecodeError:
        raise argparse.ArgumentTypeError('%s is not text; want %s' % (path, RUN_FILE))
    if not epochs(path, text):
        raise argparse.ArgumentTypeError('%s holds no BenchmarkCost epoch (a line "BenchmarkCost/SIZE/MODEL ... real-ms ..."); '
                                         'want %s' % (path, RUN_FILE))
    return path


def weights(text):
    """An argparse type: GATHER,EXP, two finite decimal numbers above 0 (no nan, inf, 0x… or _)."""
    parts = text.split(',')
    if len(parts) != 2 or not all(DECIMAL.fullmatch(p.strip()) for p in parts):
        raise argparse.ArgumentTypeError('%r is not %s' % (text, WEIGHTS))
    vals = [float(p) for p in parts]
    if not all(0 < v < math.inf for v in vals):  # inf too: a number too large for a float
        raise argparse.ArgumentTypeError('%s is outside (0, %g]; want %s' % (text, sys.float_info.max, WEIGHTS))
    return vals


class Arguments(argparse.ArgumentParser):
    """argparse, but every mistake is one line naming the argument, exit status 2."""

    def error(self, message):
        m = re.fullmatch(r'argument (--\S+): expected one argument', message)
        if m and m.group(1) in self._option_string_actions:  # say what it wants, not only that it wants one
            message += ': %s' % self._option_string_actions[m.group(1)].help
        self.exit(2, 'fit-cost.py: %s (python3 scripts/fit-cost.py --help lists the arguments)\n' % message)


def parse_args(argv):
    """The arguments, read before numpy loads: a mistake is said at once, numpy or not."""
    ap = Arguments(prog='fit-cost.py', description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                   allow_abbrev=False)
    ap.add_argument('place', choices=['browser', 'native'], help='where the runs were timed: the column of speeds fitted')
    ap.add_argument('runs', nargs='+', type=run_file, metavar='RUN.txt', help=RUN_FILE + '; each epoch is the mean of the runs')
    ap.add_argument('--skip', type=lambda v: set(v.split(',')), default=set(), metavar='SIZE/MODEL,...',
                    help='SIZE/MODEL,...: epochs of the runs to leave out, separated by commas')
    ap.add_argument('--weights', type=weights, metavar='GATHER,EXP', help=WEIGHTS + ', taken as given')
    given = set()
    for arg in argv:
        if arg == '--':
            break
        name = arg.split('=', 1)[0]
        if name in ap._option_string_actions and name in given:
            ap.error('%s is given twice; give it once' % name)
        given.add(name)
    a = ap.parse_intermixed_args(argv)
    names = set().union(*(epochs(p, read(p)) for p in a.runs))
    if not names - a.skip:
        ap.error('argument --skip: it leaves none of the runs\' %d epochs to fit; want SIZE/MODEL,... naming only some'
                 % len(names))
    return a


if __name__ == '__main__':
    ARGS = parse_args(sys.argv[1:])

try:
    import numpy as np
    from scipy.optimize import least_squares
except ImportError as err:
    sys.exit('fit-cost.py needs numpy and scipy (%s)' % err)


def load(paths):
    runs = {}
    for path in paths:
        for line in open(path):
            if not line.startswith('BenchmarkCost/'):
                continue
            f = line.split()
            name = re.sub(r'-\d+$', '', f[0][len('BenchmarkCost/'):])
            vals = {f[i + 1]: float(f[i]) for i in range(len(f) - 1) if f[i + 1] in METRICS}
            runs.setdefault(name, []).append(vals)
    out = {}
    for name, rs in runs.items():
        out[name] = {m: np.mean([r[m] for r in rs if m in r]) for m in METRICS if any(m in r for r in rs)}
    return out


def update_ns(paths, models):
    """Each kind's ns a learned value's step: BenchmarkUpdate's mean, or the largest measured."""
    runs = {}
    for path in paths:
        for line in open(path):
            f = line.split()
            if line.startswith('BenchmarkUpdate/') and 'ns/update' in f:
                kind = re.sub(r'-\d+$', '', f[0][len('BenchmarkUpdate/'):])
                runs.setdefault(kind, []).append(float(f[f.index('ns/update') - 1]))
    if not runs:
        sys.exit("fit-cost.py: no BenchmarkUpdate line in the runs (run -bench 'BenchmarkCost|BenchmarkUpdate'): "
                 "the epochs' weight updates cannot be taken off")
    upd = {k: float(np.mean(v)) for k, v in runs.items()}
    slowest = max(upd.values())
    return {m: upd.get(m, slowest) for m in models}


def main(a):
    var, paths, skip, given = a.place, a.runs, a.skip, a.weights
    data = load(paths)
    keys = sorted(k for k, v in data.items() if 'real-ms' in v and k not in skip)
    models = sorted(set(k.split('/')[1] for k in keys))
    mi = {m: i for i, m in enumerate(models)}
    nm = len(models)
    upd = update_ns(paths, models)
    y = np.array([data[k]['real-ms'] * 1e6 - data[k].get('M-updates', 0) * 1e6 * upd[k.split('/')[1]] for k in keys])
    D = np.array([[data[k]['M-dense'], data[k]['M-gather'], data[k]['M-exp']] for k in keys]) * 1e6
    M = np.array([mi[k.split('/')[1]] for k in keys])

    def pred(p):
        gg, gx = np.exp(p[0:2])
        f, fx = np.exp(p[2:2 + nm]), np.exp(p[2 + nm:])
        return f[M] * (D[:, 0] + D[:, 1] * gg + D[:, 2] * gx) + fx[M]

    def res(p):
        return np.log(pred(p) / y)

    p0 = np.concatenate([np.log([1.5, 20]), np.log(np.full(nm, 0.3)), np.log(np.full(nm, 3e4))])
    lb = np.concatenate([[-5, -5], np.full(nm, -10), np.full(nm, 0)])
    ub = np.concatenate([[5, 8], np.full(nm, 5), np.full(nm, 16)])
    best = None
    rng = np.random.default_rng(5)
    for trial in range(0 if given else 12):
        q = np.clip(p0 + rng.normal(0, 1.0, len(p0)) * (trial > 0), lb + 1e-6, ub - 1e-6)
        q = least_squares(res, q, bounds=(lb, ub)).x
        w = np.ones(len(y))
        for _ in range(60):
            q = least_squares(lambda r: w * res(r), q, bounds=(lb, ub)).x
            a = np.abs(res(q))
            w = w * (1 + a / a.max())
        s = np.max(np.abs(res(q)))
        if best is None or s < best[0]:
            best = (s, q)
    p = best[1] if best else np.concatenate([np.log(given), p0[2:]])
    gg, gx = np.exp(p[0:2])
    # Each model's own ns a unit and fixed cost, minimax over its epochs.
    U = D[:, 0] + D[:, 1] * gg + D[:, 2] * gx
    for m in models:
        idx = np.where(M == mi[m])[0]
        choice = None
        for fx in np.concatenate([[0], np.logspace(2, 6.5, 400)]):
            lo, hi = 1e-4, 10.0
            for _ in range(100):
                f = np.sqrt(lo * hi)
                r = np.log((f * U[idx] + fx) / y[idx])
                if r.max() + r.min() > 0:
                    hi = f
                else:
                    lo = f
            if choice is None or np.max(np.abs(r)) < choice[0]:
                choice = (np.max(np.abs(r)), f, fx)
        p[2 + mi[m]], p[2 + nm + mi[m]] = np.log(choice[1]), np.log(max(choice[2], 1e-9))
    ratios = pred(p) / y
    print('est/real of every epoch in [%.2f, %.2f]:' % (ratios.min(), ratios.max()), file=sys.stderr)
    for k, r in sorted(zip(keys, ratios), key=lambda t: t[1]):
        print('  %-36s %.2f' % (k, r), file=sys.stderr)
    setup = {}
    for m in models:
        pts = [k for k, v in data.items() if k.split('/')[1] == m and v.get('setup-s', 0) >= 0.05
               and v.get('M-setup-dense', 0) + v.get('M-setup-gather', 0) + v.get('M-setup-exp', 0) > 0]
        if not pts:
            continue
        u = [1e6 * (data[k]['M-setup-dense'] + data[k]['M-setup-gather'] * gg + data[k]['M-setup-exp'] * gx) for k in pts]
        per = [data[k]['setup-s'] * 1e9 / ui for k, ui in zip(pts, u)]
        setup[m] = float(np.sqrt(min(per) * max(per)))
    print('var %sWeights = Work{Dense: 1, Gather: %.3g, Exp: %.3g}' % (var, gg, gx))
    unknown = [m for m in models if m not in GO_NAMES]
    if unknown:
        sys.exit('fit-cost.py: kinds with no Go name: %s (add them to GO_NAMES)' % ', '.join(unknown))
    print('// the %s column of the speeds table (pdn/speeds.go)' % var)
    for m in models:
        print('experiment.%s: %s: Speed{EpochNs: %.3g, FixedNs: %.3g, SetupNs: %.3g, UpdateNs: %.3g},' % (
            GO_NAMES[m], var, np.exp(p[2 + mi[m]]), round(np.exp(p[2 + nm + mi[m]]), -2), setup.get(m, 1), upd[m]))


if __name__ == '__main__':
    main(ARGS)

#!/usr/bin/env python3
"""Fits the cost model's speeds (pdn/speeds.go) to BenchmarkCost's epochs.

  go test -run '^$' -bench BenchmarkCost -benchtime 1x ./pdn/ > native.txt   (natively, or under
  GOOS=js with the kernels for the browser: see the Makefile's test-wasm)
  python3 scripts/fit-cost.py browser|native RUN.txt [RUN.txt ...] [--skip SIZE/MODEL,...]
      [--weights GATHER,EXP]

Each epoch is the mean of the runs given. The fit: one weight per kind of work (gather and
exponential against dense) and per model ns a unit and a fixed cost, so that the largest
|log(estimate/real)| over all epochs is least (least squares, reweighted towards the worst);
a model's set-up ns a unit from the set-ups of 50 ms or more. It prints the place's weights
and its column of the speeds table (pdn/speeds.go: one row a kind, browser and native; a
kind timed `like` another takes both columns once both places are fitted) and, on stderr,
estimate/real for every epoch. Every kind BenchmarkCost runs is fitted; a kind it does not
know is an error. With --weights, the place's weights are taken as given (the table's, say) and
only the kinds in the runs are fitted to them: rows for kinds not fitted yet, leaving the others
and the weights as they stand. Needs numpy and scipy.
"""
import re
import sys

import numpy as np
from scipy.optimize import least_squares

GO_NAMES = {'pdn': 'PDN', 'pdn-linear': 'PDNLinear', 'pdn-edgeconv': 'PDNEdgeConv',
            'pdn-multiscale': 'PDNMultiScale', 'gcn': 'GCN', 'gat': 'GAT', 'appnp': 'APPNP',
            'sgc': 'SGC', 'clustergcn': 'ClusterGCN', 'deepwalk': 'DeepWalk', 'mlp': 'MLP',
            'cheb': 'Cheb', 'sage': 'SAGE'}
METRICS = ['real-ms', 'setup-s', 'M-dense', 'M-gather', 'M-exp', 'M-setup-dense', 'M-setup-gather', 'M-setup-exp']


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


def main():
    args = sys.argv[1:]
    skip = set()
    if '--skip' in args:
        i = args.index('--skip')
        skip = set(args[i + 1].split(','))
        args = args[:i] + args[i + 2:]
    given = None
    if '--weights' in args:
        i = args.index('--weights')
        given = [float(v) for v in args[i + 1].split(',')]
        if len(given) != 2 or min(given) <= 0:
            sys.exit('fit-cost.py: --weights wants GATHER,EXP, two positive numbers (the place\'s Work weights beside Dense: 1)')
        args = args[:i] + args[i + 2:]
    var, paths = args[0], args[1:]
    data = load(paths)
    keys = sorted(k for k, v in data.items() if 'real-ms' in v and k not in skip)
    models = sorted(set(k.split('/')[1] for k in keys))
    mi = {m: i for i, m in enumerate(models)}
    nm = len(models)
    y = np.array([data[k]['real-ms'] * 1e6 for k in keys])
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
        print('experiment.%s: %s: Speed{EpochNs: %.3g, FixedNs: %.3g, SetupNs: %.3g},' % (
            GO_NAMES[m], var, np.exp(p[2 + mi[m]]), round(np.exp(p[2 + nm + mi[m]]), -2), setup.get(m, 1)))


if __name__ == '__main__':
    main()

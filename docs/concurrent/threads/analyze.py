import csv, glob, os, re, sys
rows = ["eil33-2", "nw04", "air04", "eilB101", "cut23"]
def load(f):
    if not os.path.exists(f): return None
    r = list(csv.DictReader(open(f)))
    return [(float(x['time_s']), int(x['iteration']), int(x['lmo_calls']), float(x['primal']), float(x['dual_bound'])) for x in r]
def t_to(tr, target):
    for t, it, c, p, d in tr:
        if p <= target + 1e-9 * max(1.0, abs(target)): return t
    return None
def out(f):
    s = open(f).read() if os.path.exists(f) else ""
    m = re.search(r"status\s+(.*)", s); st = m.group(1) if m else "?"
    m = re.search(r"LMO calls\s+(\d+)", s); calls = m.group(1) if m else "?"
    m = re.search(r"hit rate ([\d.]+%)", s); hr = m.group(1) if m else "?"
    return st, calls, hr
print("| row | variant | iterations | LMO calls | hit rate | final primal | proven dual bound | time to s1's final primal | ratio |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for n in rows:
    s1 = load(f"docs/concurrent/threads/{n}-s1.csv")
    if not s1: continue
    target = s1[-1][3]; t1 = t_to(s1, target)
    for v in ["s1", "s2", "c2"]:
        tr = load(f"docs/concurrent/threads/{n}-{v}.csv")
        if not tr: continue
        st, calls, hr = out(f"docs/concurrent/threads/{n}-{v}.out")
        tt = t_to(tr, target)
        best_d = max(x[4] for x in tr)
        print(f"| {n} | {v} | {tr[-1][1]} | {calls} | {hr} | {tr[-1][3]:.6g} | {best_d:.6g} | {('%.1f s' % tt) if tt is not None else '> limit'} | {('%.2f' % (tt/t1)) if tt is not None and t1 else '—'} |")

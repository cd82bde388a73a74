#!/usr/bin/env python3
"""The code a message touches, from a callgrind output file (docs/benchmarks.md): the functions
that run at least MIN instructions a message on average ("hot"), grouped by object file, with the
sum of their sizes from `nm -S` (a function's whole size, an upper bound on the lines it touches),
then the largest hot functions of the main executable. It tells whether the code of one message
fits the first-level instruction cache (32 KiB here) and whose code it is.
usage: tools/hot-footprint.py CALLGRIND_OUT [messages=20000] [min=5] [top=40]"""
import collections, re, subprocess, sys

path = sys.argv[1]
msgs = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
minimum = float(sys.argv[3]) if len(sys.argv) > 3 else 5
top = int(sys.argv[4]) if len(sys.argv) > 4 else 40

fn_names, ob_names = {}, {}
def resolve(table, text):
    m = re.match(r"\((\d+)\)(?: (.*))?", text)
    if not m:
        return text
    if m.group(2):
        table[m.group(1)] = m.group(2)
    return table.get(m.group(1), "?")

own = collections.Counter(); object_of = {}
ob = fn = None; skip_next = False
for line in open(path, errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("ob="): ob = resolve(ob_names, line[3:]); continue
    if line.startswith("fn="): fn = resolve(fn_names, line[3:]); object_of[fn] = ob; continue
    if line.startswith("cob="): resolve(ob_names, line[4:]); continue
    if line.startswith("cfn="): resolve(fn_names, line[4:]); continue
    if line.startswith("calls="): skip_next = True; continue   # the next cost line is the call's, not fn's
    if line[:1].isdigit() or line[:1] in "+-*":
        if skip_next: skip_next = False; continue
        parts = line.split()
        if len(parts) >= 2 and fn is not None: own[fn] += int(parts[1])

sizes = {}
for obj in {o for o in object_of.values() if o and o.startswith("/")}:
    listing = subprocess.run(["nm", "-S", "--defined-only", obj], capture_output=True, text=True).stdout
    if not listing.strip():
        listing = subprocess.run(["nm", "-D", "-S", "--defined-only", obj], capture_output=True, text=True).stdout
    for row in listing.splitlines():
        p = row.split()
        if len(p) == 4: sizes[(obj, p[3])] = int(p[1], 16)

total = collections.Counter(); count = collections.Counter(); unsized = collections.Counter(); rows = []
main_object = max(object_of.values(), key=lambda o: sum(v for f, v in own.items() if object_of.get(f) == o) if o else 0)
for name, ir in own.items():
    if ir < msgs * minimum: continue
    obj = object_of.get(name) or "?"
    symbol = name.split(":", 1)[-1]
    key = obj.rsplit("/", 1)[-1]
    size = sizes.get((obj, symbol))
    if size is None: unsized[key] += 1; continue
    total[key] += size; count[key] += 1
    if obj == main_object: rows.append((size, ir / msgs, symbol))
print(f"functions running >= {minimum:g} instructions a message ({msgs} messages):")
for key, size in total.most_common():
    print(f"  {key:32s} {size / 1024:7.1f} KiB in {count[key]:4d} functions (+{unsized[key]} not sized)")
print(f"largest of {main_object.rsplit('/', 1)[-1]}:")
rows.sort(reverse=True)
symbols = [r[2] for r in rows[:top]]
demangled = subprocess.run(["swift-demangle", "--simplified", "--compact"], input="\n".join(symbols),
                           capture_output=True, text=True).stdout.splitlines() if symbols else []
for (size, ir, symbol), text in zip(rows[:top], demangled + symbols[len(demangled):]):
    print(f"  {size:6d} B {ir:8.0f} instr/msg  {text[:140]}")

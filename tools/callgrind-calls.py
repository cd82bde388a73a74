#!/usr/bin/env python3
"""Runtime calls a message, from a callgrind output file: sums the `calls=` lines made to
the Swift run time's reference counting, allocation and metadata functions (docs/benchmarks.md).
usage: tools/callgrind-calls.py CALLGRIND_OUT [messages=20000]"""
import sys, re, collections
path = sys.argv[1]; msgs = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
names = {}; counts = collections.Counter(); cur = None
watch = ["swift_retain", "swift_release", "swift_bridgeObjectRetain", "swift_bridgeObjectRelease", "swift_allocObject",
         "malloc", "free", "swift_getGenericMetadata", "swift_getWitnessTable", "swift_dynamicCast", "swift_beginAccess",
         "swift_isUniquelyReferenced_nonNull_native", "swift_conformsToProtocol", "swift_getAssociatedTypeWitness"]
for line in open(path, errors="replace"):
    if line.startswith("fn="):
        m = re.match(r"fn=\((\d+)\)(?: (.*))?", line.strip())
        if m and m.group(2): names[m.group(1)] = m.group(2)
    if line.startswith("cfn="):
        m = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.strip())
        if m:
            i, n = m.group(1), m.group(2)
            if n: names[i] = n
            cur = names.get(i, "")
    elif line.startswith("calls=") and cur is not None:
        n = int(line.split("=")[1].split()[0])
        base = cur.split(" [")[0].split("'")[0]
        base = base.split(":")[-1] if "???" in base or "./" in base else base
        for w in watch:
            if base == w or base.endswith(":" + w):
                counts[w] += n
        cur = None
for w in watch:
    print(f"{w:45s} {counts[w]/msgs:8.1f} per message")

#!/usr/bin/env python3
"""GTKWave reads smsim's VCD as smsim wrote it: the file goes through GTKWave's own reader
(vcd2fst) and back (fst2vcd), and every signal, found by its scope path, must have the same
changes at the same times. Usage: vcd_gtkwave_check.py SMSIM VCD2FST FST2VCD WORKDIR"""
import os, subprocess, sys


def read(path):
    """{scope.path.name: [(time, value), ...]} with values as integers (x/z refused)."""
    ids, scope, changes, t = {}, [], {}, 0
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "$scope":
                scope.append(w[2])
            elif w[0] == "$upscope":
                scope.pop()
            elif w[0] == "$var":
                name = ".".join(scope + [w[4]])
                ids.setdefault(w[3], []).append(name)
                changes[name] = []
            elif w[0].startswith("#"):
                t = int(w[0][1:])
            elif w[0][0] in "b01":
                if w[0][0] == "b":
                    value, ident = int(w[0][1:], 2), w[1]
                else:
                    value, ident = int(w[0][0]), w[0][1:]
                for name in ids.get(ident, []):
                    if not changes[name] or changes[name][-1][1] != value:
                        changes[name].append((t, value))
            elif w[0][0] in "xzXZ" or (w[0][0] == "b" and set(w[0][1:]) - set("01")):
                raise SystemExit(f"{path}: unknown value {line.strip()}")
    return changes


def main():
    smsim, vcd2fst, fst2vcd, work = sys.argv[1:5]
    vcd, fst, back = (os.path.join(work, n) for n in ("gtkwave.vcd", "gtkwave.fst", "gtkwave_back.vcd"))
    subprocess.run([smsim, "-smtlm_engine", "c", "-smtlm_synth_insts", "60", "-smtlm_synth_mix",
                    "sp=40,int=20,sfu=10,ldst=20,ldg=10", "-smtlm_vcd", vcd, "-smtlm_log_sms", "0"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([vcd2fst, vcd, fst], check=True, stdout=subprocess.DEVNULL)
    with open(back, "w") as out:
        subprocess.run([fst2vcd, fst], check=True, stdout=out)
    ours, theirs = read(vcd), read(back)
    changes = sum(len(c) for c in ours.values())
    if set(ours) != set(theirs):
        raise SystemExit(f"signals differ: {sorted(set(ours) ^ set(theirs))[:5]}")
    bad = [n for n in ours if ours[n] != theirs[n]]
    if bad or changes < 1000:
        raise SystemExit(f"{len(bad)} signals read differently (e.g. {bad[:3]}), {changes} changes")
    print(f"GTKWave reads all {len(ours)} signals and {changes} changes as written")


main()

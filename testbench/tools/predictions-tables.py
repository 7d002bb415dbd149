#!/usr/bin/env python3
"""Markdown tables of docs/predictions.md from the JSON that
testbench/tools/predictions.sh writes (usage: predictions-tables.py DIR).
Each row carries the run's limit (docs/reports.md, "What limited the run")."""
import json
import sys


def load(d, name):
    with open(f"{d}/{name}.json") as f:
        return json.load(f)


def busy(run):
    return run["cpus"][0]["cycles_per_packet"]["busy"]


def mpps(p):
    return p["tx_pps"] / 1e6


def l3fwd(d):
    rows = load(d, "l3fwd")["rows"]
    print("| pattern | scalar Mpps | multi Mpps | diff | limit | busy cycles/pkt | TX bursts/pkt | TDT/pkt | RDT/pkt | x4 lookups |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        s, m = r["scalar"], r["multi"]
        print(f"| {r['pattern']} | {s['pps']/1e6:.3f} | {m['pps']/1e6:.3f} | {r['diff_pct']:+.1f} % | "
              f"{s['limit']} / {m['limit']} | {s['busy_cycles_per_packet']:.0f} / {m['busy_cycles_per_packet']:.0f} | "
              f"{s['tx_bursts_per_packet']:.3f} / {m['tx_bursts_per_packet']:.3f} | "
              f"{s['tdt_writes_per_packet']:.3f} / {m['tdt_writes_per_packet']:.3f} | "
              f"{s['rdt_writes_per_packet']:.3f} / {m['rdt_writes_per_packet']:.3f} | "
              f"{100*s['lookups_x4_share']:.0f} % / {100*m['lookups_x4_share']:.0f} % |")


def limit(run):
    lim = run["limit"]
    r = lim["resource"]
    if r == "nic":
        return f"nic (polls {100*lim['rx_poll_fill']:.0f} % of a batch)"
    return r


def fwd_batch(d):
    pts = load(d, "fwd-batch")["points"]
    by = {(p["fwd.batch"], p["cpu.mhz"]): p for p in pts}
    batches = sorted({int(p["fwd.batch"]) for p in pts})
    print("| fwd.batch | Mpps 1.6 GHz | limit | busy cycles/frame | Mpps 3.3 GHz | limit | busy cycles/frame |")
    print("|---|---|---|---|---|---|---|")
    for b in batches:
        cells = [str(b)]
        for mhz in (1600, 3300):
            p = next(p for p in pts if int(p["fwd.batch"]) == b and int(p["cpu.mhz"]) == mhz)
            cells += [f"{mpps(p):.3f}", limit(p["run"]), f"{busy(p['run']):.0f}"]
        print("| " + " | ".join(cells) + " |")


def fwd_mhz(d):
    two, one = load(d, "fwd-mhz-2")["points"], load(d, "fwd-mhz-1")["points"]
    print("| cpu.mhz | two cards Mpps | limit | one dual-port card Mpps | limit |")
    print("|---|---|---|---|---|")
    for a, b in zip(two, one):
        print(f"| {int(a['cpu.mhz'])} | {mpps(a):.3f} | {limit(a['run'])} | {mpps(b):.3f} | {limit(b['run'])} |")


def napi(d, name, key):
    pts = load(d, name)["points"]
    print(f"| {key} | Mpps | limit | CPU busy | interrupts | frames per interrupt | queue stops | stopped share | ITR min/max (us) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for p in pts:
        run = p["run"]
        n = run["ports"][0]["napi"]
        lim = run["limit"]
        itr = f"{n['itr_min']/4:g}/{n['itr_max']/4:g}" if n["itr_max"] else "off"
        print(f"| {p[key]} | {mpps(p):.3f} | {lim['resource']} | {100*lim['cpu']['busy']:.1f} % | "
              f"{n['irqs']} | {p['tx_packets']/n['irqs']:.0f} | {n['queue_stops']} | {100*lim['tx_stopped_share']:.1f} % | {itr} |")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: predictions-tables.py DIR")
    d = sys.argv[1]
    for title, fn in (("l3fwd (make l3fwd): scalar / multi", lambda: l3fwd(d)),
                      ("fwd: batch size, two cards", lambda: fwd_batch(d)),
                      ("fwd: CPU clock, batch 32", lambda: fwd_mhz(d)),
                      ("pktgen NAPI: rx-usecs, TX ring 512", lambda: napi(d, "napi-usecs", "driver.rx_usecs")),
                      ("pktgen NAPI: TX ring, rx-usecs 1", lambda: napi(d, "napi-ring", "driver.tx_ring"))):
        print(f"### {title}\n")
        fn()
        print()


main()

#!/usr/bin/env python3
"""Writes the seed corpus of `make fuzz` and of the bounded fuzz run in
`make test` (testbench/fuzz/seeds/*): short programs in the input format of
testbench/fuzz/fuzz_rtl.c that bring a queue up and move traffic, so the
fuzzer starts from inputs that reach the descriptor engines.  The files are
committed; this script documents them and rewrites them (a development
tool: the build does not run it)."""
import os, struct

R46 = [0x0000, 0x0008, 0x0018, 0x00C0, 0x00C4, 0x00C8, 0x00D0, 0x00D8, 0x0100, 0x0400, 0x0410,
       0x1000, 0x2800, 0x2804, 0x2808, 0x2810, 0x2818, 0x2820, 0x2828, 0x282C, 0x3800, 0x3804,
       0x3808, 0x3810, 0x3818, 0x3820, 0x3828, 0x382C, 0x4000, 0x4074, 0x40D4]
R99 = [0x00000, 0x00008, 0x00018, 0x00800, 0x00808, 0x00810, 0x00820, 0x00880, 0x00888, 0x00898,
       0x01000, 0x01004, 0x01008, 0x01010, 0x01018, 0x01028, 0x02100, 0x02F00, 0x03000, 0x03C00,
       0x04240, 0x042A4, 0x042A0, 0x04294, 0x05080, 0x06000, 0x06004, 0x06008, 0x06010, 0x06018,
       0x06028, 0x06038, 0x0603C, 0x10010, 0x04A80, 0x04900, 0x0CC00, 0x04074, 0x03FA0]
MEM_BASE = 0x100000

class Prog:
    def __init__(self, is99, one_port=True):
        self.regs = R99 if is99 else R46
        self.b = bytes([(1 if is99 else 0) | (2 if one_port else 0)])
    def u32(self, v): self.b += struct.pack('>I', v & 0xFFFFFFFF)
    def wr(self, reg, val, func=0):
        self.b += bytes([0, func, self.regs.index(reg)]); self.u32(val)
    def rd(self, reg, func=0):
        self.b += bytes([1, func, self.regs.index(reg)])
    def desc(self, off, qw0, qw1, in_mem=True):
        self.b += bytes([2, 0, off >> 8, off & 0xFF])
        self.u32(qw0 >> 32); self.u32(qw0); self.u32(qw1 >> 32); self.u32(qw1)
        self.b += bytes([1 if in_mem else 0])
    def frame(self, length, crc_ok=1, func=0):
        self.b += bytes([3, func, length // 8, length % 8, crc_ok])
    def run(self, cycles4, ready=3, tick=1):
        self.b += bytes([4, 0, cycles4, ready, tick])
    def reset(self, func=0):
        self.b += bytes([5, func])

def tx_desc_qw1(length, adv):
    cmd = 0x0B                                      # EOP | IFCS | RS
    if adv:
        return length | (0x3 << 20) | ((cmd | 0x20) << 24) | (length << 46)
    return length | (cmd << 24)

def e1000_tx(p, n=4, lengths=(60, 200, 1514, 64)):
    p.wr(0x3800, MEM_BASE); p.wr(0x3804, 0); p.wr(0x3808, 128); p.wr(0x3810, 0); p.wr(0x3818, 0)
    p.wr(0x3828, 0x01000000 | 8 << 16 | 16)         # GRAN, WTHRESH 8, PTHRESH 16
    p.wr(0x0400, 0x0A)                              # TCTL.EN | PSP
    for i in range(n):
        p.desc(16 * i, 0x1000 + 0x800 * i, tx_desc_qw1(lengths[i % len(lengths)], False))
    p.wr(0x3818, n); p.run(100)

def e1000_rx(p):
    p.wr(0x2800, MEM_BASE + 0x400); p.wr(0x2808, 128); p.wr(0x2810, 0)
    for i in range(8):
        p.desc(0x400 + 16 * i, 0x4000 + 0x800 * i, 0)
    p.wr(0x2818, 7); p.wr(0x0100, 0x0400A)          # RCTL.EN | UPE | BAM... (any bits)
    for length in (64, 1518, 300, 2000, 40):
        p.frame(length)
    p.run(100); p.rd(0x4074); p.rd(0x2810)

def ixgbe_up(p):
    p.reset(); p.run(50, tick=7)
    p.wr(0x04240, 0x403); p.wr(0x02F00, 0x2); p.wr(0x04A80, 1); p.wr(0x042A0, 0x6000 | 0x1000)
    p.run(200, tick=7); p.rd(0x042A4)

def ixgbe_tx(p):
    p.wr(0x06000, MEM_BASE); p.wr(0x06004, 0); p.wr(0x06008, 128); p.wr(0x06010, 0); p.wr(0x06018, 0)
    p.wr(0x06038, MEM_BASE + 0xF000 | 1)            # head write-back
    p.wr(0x06028, 0x02000000 | 4 << 16 | 1 << 8 | 32)
    for i in range(6):
        p.desc(16 * i, 0x1000 + 0x800 * i, tx_desc_qw1((60, 128, 1514)[i % 3], True))
    p.wr(0x06018, 6); p.run(100)

def ixgbe_rx(p):
    p.wr(0x02100, 0x02000002 | 1 << 28); p.wr(0x01000, MEM_BASE + 0x400); p.wr(0x01008, 128)
    p.wr(0x01010, 0)
    for i in range(8):
        p.desc(0x400 + 16 * i, 0x4000 + 0x800 * i, 0)
    p.wr(0x01028, 0x02000000); p.wr(0x03000, 1); p.wr(0x01018, 5)
    for length in (64, 1518, 700, 64, 64, 64, 64, 64):
        p.frame(length)
    p.run(100); p.rd(0x03FA0)

def write(name, p):
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'seeds')
    os.makedirs(here, exist_ok=True)
    with open(os.path.join(here, name), 'wb') as f:
        f.write(p.b)

p = Prog(False); e1000_tx(p); write('e1000-tx', p)
p = Prog(False); e1000_rx(p); write('e1000-rx', p)
p = Prog(False); e1000_tx(p); e1000_rx(p); p.reset(); p.run(20); e1000_tx(p); write('e1000-reset-mid-traffic', p)
p = Prog(False); p.wr(0x3808, 0); p.wr(0x3818, 9999); p.wr(0x0400, 2); p.desc(0, 0xFFFFFFFF0000, 0x0B000000 | 0xFFFF, False)
p.wr(0x3818, 1); p.run(100); write('e1000-illegal', p)
p = Prog(True); ixgbe_up(p); ixgbe_tx(p); write('ixgbe-tx', p)
p = Prog(True); ixgbe_up(p); ixgbe_rx(p); write('ixgbe-rx', p)
p = Prog(True, one_port=False); ixgbe_up(p); ixgbe_tx(p); ixgbe_rx(p); p.reset(); ixgbe_tx(p); write('ixgbe-reset-two-ports', p)
p = Prog(True); ixgbe_up(p); p.wr(0x06008, 100); p.wr(0x06018, 70000); p.wr(0x06028, 0x02000000)
p.desc(0, 0x1000, tx_desc_qw1(0, True)); p.desc(16, 0x1000, (0x3 << 20) | (0x21 << 24) | 20000); p.wr(0x06018, 2); p.run(100)
write('ixgbe-illegal', p)

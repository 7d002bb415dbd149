/* Every key of a nicsim scenario, with its type, default, range and meaning.
 * Defaults describe the foundation's reference machine: one 82546 on a
 * 64-bit PCI-X 133 MHz segment, the Linux e1000 driver's settings, and a CPU
 * profile (docs/models.md explains each number and what it rests on). */
#include "scenario_keys.h"

const scenario_key nicsim_keys[] = {
    /* section  key                 type        default      min     max        choices  help */
    { "system", "seed",             SCN_UINT,   "1",         NULL,   NULL,      NULL, "seed of every pseudo-random choice (none in the TX path yet)" },
    { "system", "cards",            SCN_UINT,   "1",         "1",    "2",       NULL, "82546 cards (two ports each: eth0/eth1 on card 0, eth2/eth3 on card 1), each on its own PCI-X segment" },
    { "system", "max_sim_us",       SCN_UINT,   "10000000",  "1",    NULL,      NULL, "stop the run at this simulated time even if apps are not done" },

    { "nic",    "model",            SCN_ENUM,   "82546",     NULL,   NULL,      "82546", "NIC personality" },
    { "nic",    "core_mhz",         SCN_DOUBLE, "125",       "10",   "1000",    NULL, "RTL core clock (a design choice, like the 32-byte datapath)" },
    { "nic",    "pba_rx_kb",        SCN_UINT,   "48",        "0",    "64",      NULL, "PBA: RX share of the 64 KiB packet memory; TX gets the rest (Linux: 48)" },
    { "nic",    "link_up",          SCN_BOOL,   "true",      NULL,   NULL,      NULL, "link partner present on both ports" },

    { "bus",    "type",             SCN_ENUM,   "pcix",      NULL,   NULL,      "pcix", "host bus" },
    { "bus",    "mhz",              SCN_ENUM,   "133",       NULL,   NULL,      "66|100|133", "PCI-X clock" },
    { "bus",    "card1_mhz",        SCN_ENUM,   "same",      NULL,   NULL,      "same|66|100|133", "PCI-X clock of card 1's segment" },
    { "bus",    "bus64",            SCN_BOOL,   "true",      NULL,   NULL,      NULL, "64-bit segment (8 bytes per data phase)" },
    { "bus",    "mmrbc",            SCN_ENUM,   "2048",      NULL,   NULL,      "512|1024|2048|4096", "max memory read byte count (Linux caps the 82546 at 2048)" },
    { "bus",    "max_splits",       SCN_ENUM,   "4",         NULL,   NULL,      "1|2|3|4|8|12|16|32", "outstanding split transactions per function" },
    { "bus",    "host_read_latency_ns", SCN_DOUBLE, "600",   "0",    "100000",  NULL, "bridge: split response to completion ready" },
    { "bus",    "mmio_host_latency_ns", SCN_DOUBLE, "300",   "0",    "100000",  NULL, "CPU to host bridge, one way (a CTRL read then takes ~0.7 us, as measured on 2005 PCI-X machines)" },
    { "bus",    "arb_clocks",       SCN_UINT,   "2",         "0",    "16",      NULL, "arbitration when the bus is idle" },
    { "bus",    "target_response_clocks", SCN_UINT, "2",     "1",    "16",      NULL, "decode: attribute to DEVSEL#" },
    { "bus",    "turnaround_clocks", SCN_UINT,  "1",         "0",    "16",      NULL, "idle clocks after each transaction" },
    { "bus",    "device_read_wait_clocks", SCN_UINT, "6",    "0",    "64",      NULL, "device wait states answering a CPU read" },

    { "cpu",    "mhz",              SCN_DOUBLE, "1600",      "1",    "100000",  NULL, "CPU clock" },
    { "cpu",    "mmio_write_ns",    SCN_DOUBLE, "250",       "0",    "100000",  NULL, "CPU stall to issue one posted (uncached) MMIO write" },
    { "cpu",    "cache",            SCN_ENUM,   "opteron-1.6ghz", NULL, NULL,   "opteron-1.6ghz", "cache hierarchy profile (models/cache_model.c: sizes, ways, latencies)" },
    { "cpu",    "mem_ns",           SCN_DOUBLE, "80",        "1",    "100000",  NULL, "memory latency of a cache miss (overrides the cache profile's)" },
    { "cpu",    "copy_cycles_per_line", SCN_DOUBLE, "20",    "0",    "100000",  NULL, "the instructions of copying 64 bytes (memory accesses are charged by the cache model)" },
    { "cpu",    "wmb_cycles",       SCN_DOUBLE, "20",        "0",    "100000",  NULL, "write barrier (sfence)" },
    { "cpu",    "rmb_cycles",       SCN_DOUBLE, "10",        "0",    "100000",  NULL, "read barrier (lfence)" },
    { "cpu",    "mb_cycles",        SCN_DOUBLE, "40",        "0",    "100000",  NULL, "full barrier (mfence)" },
    { "cpu",    "prefetch_cycles",  SCN_DOUBLE, "1",         "0",    "100000",  NULL, "issuing a software prefetch" },
    { "cpu",    "irq_entry_ns",     SCN_DOUBLE, "1000",      "0",    "1000000", NULL, "interrupt entry: vector, save, handler dispatch" },
    { "cpu",    "irq_exit_ns",      SCN_DOUBLE, "300",       "0",    "1000000", NULL, "interrupt exit" },
    { "cpu",    "cost_pktgen_pkt",  SCN_DOUBLE, "600",       "0",    "1000000", NULL, "named cost, cycles: pktgen's host work per packet" },
    { "cpu",    "cost_skb_alloc",   SCN_DOUBLE, "300",       "0",    "1000000", NULL, "named cost, cycles: allocate a packet buffer" },
    { "cpu",    "cost_skb_free",    SCN_DOUBLE, "200",       "0",    "1000000", NULL, "named cost, cycles: free a packet buffer" },

    { "driver", "tx_ring",          SCN_UINT,   "256",       "48",   "4096",    NULL, "TX descriptors (multiple of 8)" },
    { "driver", "tx_prefetch",      SCN_BOOL,   "false",     NULL,   NULL,      NULL, "TX descriptor prefetch: program tx_pthresh/tx_hthresh (else 0/0 as Linux)" },
    { "driver", "tx_pthresh",       SCN_UINT,   "32",        "0",    "63",      NULL, "TXDCTL.PTHRESH used when tx_prefetch is on" },
    { "driver", "tx_hthresh",       SCN_UINT,   "1",         "0",    "63",      NULL, "TXDCTL.HTHRESH used when tx_prefetch is on" },
    { "driver", "tx_wthresh",       SCN_UINT,   "1",         "0",    "63",      NULL, "TXDCTL.WTHRESH (Linux: 1)" },
    { "driver", "tx_gran",          SCN_BOOL,   "true",      NULL,   NULL,      NULL, "TXDCTL.GRAN: thresholds in descriptors" },
    { "driver", "rs_every",         SCN_UINT,   "1",         "1",    "4096",    NULL, "request status (RS) on every Nth packet" },
    { "driver", "tx_clean_thresh",  SCN_UINT,   "32",        "0",    "4096",    NULL, "reclaim when fewer descriptors are free" },
    { "driver", "tidv",             SCN_UINT,   "8",         "0",    "65535",   NULL, "TIDV, 1.024 us units (Linux: 8)" },
    { "driver", "tadv",             SCN_UINT,   "32",        "0",    "65535",   NULL, "TADV, 1.024 us units (Linux: 32)" },
    { "driver", "itr",              SCN_UINT,   "195",       "0",    "65535",   NULL, "ITR, 256 ns units (195 = 20000 interrupts/s, Linux's start)" },

    { "pktgen", "ports",            SCN_ENUM,   "0",         NULL,   NULL,      "0|1|2|3|both|all", "ports that run pktgen, each on its own CPU (both = eth0 and eth1)" },
    { "pktgen", "size",             SCN_UINT,   "64",        "64",   "1518",    NULL, "Ethernet frame size incl. the 4-byte FCS" },
    { "pktgen", "burst",            SCN_UINT,   "1",         "1",    "4096",    NULL, "tail write once per N packets (xmit_more)" },
    { "pktgen", "count",            SCN_UINT,   "100000",    "0",    NULL,      NULL, "packets per port (0 = until duration_us)" },
    { "pktgen", "duration_us",      SCN_UINT,   "0",         "0",    NULL,      NULL, "stop after this long (0 = until count)" },
    { "pktgen", "clone",            SCN_BOOL,   "true",      NULL,   NULL,      NULL, "resend one buffer (clone_skb) instead of a fresh one per packet" },

    { "link",   "gbps",             SCN_DOUBLE, "1",         "0.001", "400",    NULL, "line rate" },
    { "capture", "pcap",            SCN_STRING, "",          NULL,   NULL,      NULL, "write each transmitting port's frames to this pcap; {port} is replaced by the port number" },
};
const size_t nicsim_n_keys = sizeof nicsim_keys / sizeof nicsim_keys[0];

/* nicsim-hw: a nicsim scenario's app on physical NICs, with the driver core
 * that the simulator measures (driver/ring, driver/e1000, driver/ixgbe, driver/apps) over
 * the Linux user-space platform backend (driver/linux/plat_linux.c).
 * Built without Verilator or SystemC. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../scenario/nicsim_scenario.h"
#include "../../models/out_file.h"
#include "hw_report.h"
#include "hw_run.h"
#include "../../driver/linux/pci_sysfs.h"

static const char usage[] =
    "usage: nicsim-hw SCENARIO.ini --pci DEV[,DEV...] [section.key=value ...] [options]\n"
    "\n"
    "Run the scenario's app (system.app: pktgen, sink, router or l3fwd) with nicsim's\n"
    "driver core on physical Intel NICs from user space, and print the simulator's\n"
    "report for what hardware can tell: per-port rates, the netstat -i style\n"
    "Kernel Interface table from the NIC's statistics registers, interrupts, the\n"
    "app's counters.  The scenario keys are those of `nicsim run` (nicsim keys); the\n"
    "simulator's models ([cpu], [bus], [pcie], [link], [gen]) are not used.\n"
    "\n"
    "  --pci DEV[,DEV...]  the NIC of eth0, eth1, ... in order: a PCI address\n"
    "                      (0000:03:00.0) or vendor:device[@N] (8086:10fb@1 = the second)\n"
    "  --mode auto|vfio|uio  vfio-pci (the device has an IOMMU group; DMA memory mapped\n"
    "                      at an IOVA) or uio_pci_generic (physical addresses); auto\n"
    "                      (default) picks vfio when there is an IOMMU group\n"
    "  --poll              no interrupts: every wait returns at once and polls\n"
    "  --force             take a NIC even if its kernel interface is up\n"
    "  --dma-mib N         hugepage DMA memory per NIC in MiB (default 32: a 4096-descriptor\n"
    "                      RX ring and the router's route cache fit)\n"
    "  --idle-timeout S    sink and router: give up after S seconds without a first\n"
    "                      frame (default 10); they stop sink.drain_us / router.drain_us\n"
    "                      after the last frame\n"
    "  --test-dma-fault    vfio only: give the driver device addresses the IOMMU does\n"
    "                      not map, so every DMA faults (tests the DMA-fault report)\n"
    "  --help              this text\n"
    "\n"
    "Needs root and reserved 2 MiB hugepages; a NIC it used is left reset, bus\n"
    "mastering off, bound to vfio-pci or uio_pci_generic (docs/hardware.md says how\n"
    "to give it back to its kernel driver).\n"
    "\n"
    "Exit status: 0 success; 1 the run failed (no link, DMA fault, TX hang); 2 bad\n"
    "command line or scenario; 3 the machine is not ready (not root, no hugepages,\n"
    "device not found, of the wrong ID or in use, IOMMU group not viable, module\n"
    "missing).\n";

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static int parse_uint(const char *opt, const char *v, unsigned long lo, unsigned long hi, unsigned long *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long x = v ? strtoul(v, &end, 10) : 0;
    if (!v || !*v || *end || errno || x < lo || x > hi) {
        fprintf(stderr, "nicsim-hw: %s: expected a whole number in [%lu, %lu], got '%s'\n", opt, lo, hi,
                v ? v : "");
        return -1;
    }
    *out = x;
    return 0;
}

/* --pci's comma-separated devices, eth0 first, into r->specs (pci is cut up). */
static int parse_pci(char *pci, struct hw_run *r)
{
    for (char *tok = strtok(pci, ","); tok; tok = strtok(NULL, ",")) {
        if (r->nspecs == HW_MAX_PORTS) {
            fprintf(stderr, "nicsim-hw: --pci: at most %d NICs\n", HW_MAX_PORTS);
            return -1;
        }
        /* a malformed device is a usage error, found before any device
         * (or root) is looked at */
        if (!pci_spec_valid(tok)) {
            fprintf(stderr, "nicsim-hw: --pci: '%s': expected a PCI address (0000:00:04.0 or 00:04.0) or "
                            "vendor:device[@N] (8086:100f, 8086:100f@1)\n", tok);
            return -1;
        }
        r->specs[r->nspecs++] = tok;
    }
    return 0;
}

/* One option of the command line (argv[*i], its value argv[*i + 1] if any)
 * into r; -1 to go on, else the exit status (--help: 0, a usage error: 2). */
static int parse_option(int argc, char **argv, int *i, struct hw_run *r, char **pci)
{
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    unsigned long x;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        fputs(usage, stdout);
        return HW_OK;
    } else if ((!strcmp(a, "--pci") || !strcmp(a, "--mode")) && !v) {
        fprintf(stderr, "nicsim-hw: %s needs a value (nicsim-hw --help)\n", a);
        return HW_BAD_INPUT;
    } else if (!strcmp(a, "--pci")) {
        *pci = argv[++*i];
    } else if (!strcmp(a, "--mode")) {
        ++*i;
        if (!strcmp(v, "vfio"))
            r->nic.mode = HW_MODE_VFIO;
        else if (!strcmp(v, "uio"))
            r->nic.mode = HW_MODE_UIO;
        else if (strcmp(v, "auto")) {
            fprintf(stderr, "nicsim-hw: --mode: expected auto, vfio or uio, got '%s'\n", v);
            return HW_BAD_INPUT;
        }
    } else if (!strcmp(a, "--poll")) {
        r->nic.poll = 1;
    } else if (!strcmp(a, "--force")) {
        r->nic.force = 1;
    } else if (!strcmp(a, "--test-dma-fault")) {
        r->nic.test_dma_fault = 1;
    } else if (!strcmp(a, "--dma-mib")) {
        if (parse_uint(a, v, 2, 4096, &x) != 0)
            return HW_BAD_INPUT;
        r->nic.dma_bytes = (size_t)x << 20;
        ++*i;
    } else if (!strcmp(a, "--idle-timeout")) {
        if (parse_uint(a, v, 1, 86400, &x) != 0)
            return HW_BAD_INPUT;
        r->idle_timeout_s = (double)x;
        ++*i;
    } else {
        fprintf(stderr, "nicsim-hw: unknown option '%s' (nicsim-hw --help)\n", a);
        return HW_BAD_INPUT;
    }
    return -1;
}

/* The command line into r, *path and overrides[0..*nov) (room for argc);
 * -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct hw_run *r, const char **path, char **overrides, int *nov)
{
    char *pci = NULL;
    r->nic.mode = HW_MODE_AUTO;
    r->nic.dma_bytes = 32u << 20;
    r->idle_timeout_s = 10;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-') {
            int rc = parse_option(argc, argv, &i, r, &pci);
            if (rc >= 0)
                return rc;
        } else if (strchr(a, '=')) {
            overrides[(*nov)++] = argv[i];
        } else if (!*path) {
            *path = a;
        } else {
            fprintf(stderr, "nicsim-hw: one scenario only; '%s' is a second (nicsim-hw --help)\n", a);
            return HW_BAD_INPUT;
        }
    }
    if (!*path || !pci) {
        fprintf(stderr, "nicsim-hw: %s (nicsim-hw --help)\n", !*path ? "no scenario file given" : "--pci names no NIC");
        return HW_BAD_INPUT;
    }
    return parse_pci(pci, r) != 0 ? HW_BAD_INPUT : -1;
}

/* The scenario's app on the NICs, its report on stdout; the exit status. */
static int run_scenario(struct hw_run *r, const char *path, int nov, char **overrides)
{
    char err[512];
    scenario *sc = nicsim_scenario_load(path, nov, overrides, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "nicsim-hw: %s\n", err);
        return HW_BAD_INPUT;
    }
    r->sc = sc;
    r->stop = &stop_flag;
    struct hw_error e = { 0 };
    if (hw_run_plan(r, &e) != 0) {
        fprintf(stderr, "nicsim-hw: %s\n", e.msg);
        scenario_free(sc);
        return e.status;
    }
    /* Ctrl-C ends the run normally: the NIC is reset before the memory it
     * writes into is returned */
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int rc = hw_run(r, &e);
    if (r->t_end_ns)
        hw_report_text(stdout, r, path);
    fflush(stdout);
    if (rc != 0)
        fprintf(stderr, "nicsim-hw: %s\n", e.msg);
    hw_run_free(r);
    scenario_free(sc);
    return rc != 0 ? e.status : r->stopped ? HW_RUN_FAILED : HW_OK;
}

/* The command line, the scenario and the run; overrides has room for argc
 * entries. */
static int nicsim_hw(int argc, char **argv, char **overrides)
{
    static struct hw_run run;
    const char *path = NULL;
    int nov = 0;
    int rc = parse_args(argc, argv, &run, &path, overrides, &nov);
    return rc >= 0 ? rc : run_scenario(&run, path, nov, overrides);
}

/* The report on stdout is an output too (out_file_stdout_done). */
static int stdout_written(int rc)
{
    return out_file_stdout_done("nicsim-hw", rc, HW_RUN_FAILED);
}

int main(int argc, char **argv)
{
    char **overrides = calloc((size_t)argc, sizeof *overrides);
    if (!overrides) {
        fprintf(stderr, "nicsim-hw: out of memory\n");
        return HW_NOT_READY;
    }
    int rc = nicsim_hw(argc, argv, overrides);
    free(overrides);
    return stdout_written(rc);
}

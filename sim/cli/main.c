/* nicsim command line: run, sweep, bench, keys. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "../report/report.h"
#include "../scenario/scenario_keys.h"
#include "../../models/out_file.h"
#include "sweep_out.h"

static const char usage[] =
    "usage: nicsim COMMAND ...\n"
    "\n"
    "  nicsim run SCENARIO.ini [section.key=value ...] [--json FILE]\n"
    "      Simulate one scenario; print per-port TX/RX kpps and Mbit/s, a netstat -i\n"
    "      style Kernel Interface table, interrupts, PCI-X or PCIe bus utilization and each\n"
    "      CPU's cycles per packet by category.\n"
    "  nicsim sweep SCENARIO.ini key=VALUES [key=VALUES ...] [-j N] [--zip] [--csv FILE]\n"
    "               [--json FILE] [--plot FILE.svg|.png] [--timeout S] [--results DIR]\n"
    "      Run every combination of the keys' values (VALUES: v1,v2,... and ranges\n"
    "      FROM..TO:STEP, mixed; --zip pairs the keys' values instead; a key with one\n"
    "      value is a plain override), each point in a process of its own, N at a time\n"
    "      (default: one per core; results do not depend on N), with progress on\n"
    "      stderr; print measured beside wire-speed packet rates.  --plot draws the\n"
    "      rate against the first key, one series per value of the second, with the\n"
    "      wire speed (gnuplot).  A point that fails (bad value, crash, --timeout) is\n"
    "      reported with its command; the others go on; the exit status is then 1 and\n"
    "      the point is marked failed in the CSV and JSON.\n"
    "  nicsim sweep ... --emit-jobs FILE [--results DIR]\n"
    "  nicsim sweep ... --emit-slurm DIR [--slurm-partition P] [--slurm-time T]\n"
    "      Write one self-contained command per point (for GNU parallel: parallel -j N\n"
    "      < FILE, --sshloginfile FILE for other hosts), or a Slurm job-array script\n"
    "      DIR/sweep.sbatch (sbatch it; P and T become its #SBATCH --partition and\n"
    "      --time: a Slurm time limit, MINUTES, HH:MM:SS or D-HH:MM); each point writes\n"
    "      its result into the results folder (default FILE.results, or DIR).  The\n"
    "      commands hold absolute paths: every host needs this checkout and the\n"
    "      results folder at the same paths (or a shared filesystem); a host without\n"
    "      the binary fails the point with exit status 127, naming itself.\n"
    "  nicsim merge DIR [--csv FILE] [--json FILE] [--plot FILE]\n"
    "      The sweep's table and files from a results folder, as the sweep writes them;\n"
    "      failed or missing points are named, with the sbatch --array=... or parallel\n"
    "      line that runs only them again (exit status 1 until every point is done).\n"
    "  nicsim bench SCENARIO.ini [section.key=value ...] [--repeat N] [--json FILE]\n"
    "  nicsim bench --list FILE [--repeat N] [--json FILE]\n"
    "      Run each scenario N times (default 3), each run in its own child process,\n"
    "      and report the median run's simulated packets per wall-clock second and\n"
    "      slowdown against real time, the range over the runs and the peak resident\n"
    "      memory.  A list file has one benchmark a line: NAME SCENARIO [key=value ...]\n"
    "      [--systemc] ('#' starts a comment); --systemc runs it with the NIC as the\n"
    "      SystemC TLM-2.0 module (nicsim-systemc) and prints its rate against the C\n"
    "      harness's row of the same scenario and keys.  The JSON is {\"rows\": [...]}.\n"
    "  nicsim validate e1000|ixgbe [section.key=value ...] [--json FILE]\n"
    "      Run the scenarios of the reference tables (testbench/reference/) and print\n"
    "      reference against simulated with the error per row.  e1000: the 82546\n"
    "      tables, then each routing row's netstat -i and interrupt counts beside\n"
    "      the seed's; exit status 1 when a row is off by more than 10% or the mean\n"
    "      error exceeds 5%.  ixgbe: the 82599 burst and size-sweep tables on the\n"
    "      seed machines' profiles, each row's tolerance (5%, 3% at wire speed, 8%\n"
    "      CPU-bound) and what limited it; exit status 1 when a row is out.\n"
    "      Overrides apply to every row (calibration experiments); stderr shows the\n"
    "      command that reproduces each row.\n"
    "  nicsim buscalc pcie [gen=N] [lanes=N] [mps=N] [mrrs=N] [rcb=N] [ecrc=0|1] [addr64=0|1]\n"
    "                 [tags=N] [lat_ns=NS] [size=S1,S2,...] [--json FILE]\n"
    "      Effective DMA write and read bandwidth (payload Gb/s, as pcie-bench's\n"
    "      pcie_bw.py) of streams of back-to-back transfers of each size, from the\n"
    "      PCIe link model: the stream alone, and with Ack/UpdateFC DLLPs at the\n"
    "      busy-link rate both ways as pcie-bench assumes (its figures).\n"
    "      Defaults: gen=2 lanes=8 mps=256 mrrs=512 rcb=64 ecrc=0 addr64=1 tags=32\n"
    "      lat_ns=500 size=64,128,256,512,1024,1518.  The JSON is {\"rows\": [...]}\n"
    "      with the parameters used.\n"
    "  nicsim l3fwd SCENARIO.ini [section.key=value ...] [--json FILE]\n"
    "      The l3fwd experiment (system.app = l3fwd): each of its five traffic patterns\n"
    "      through the scalar and the multi-buffer path; prints both forwarding rates\n"
    "      and the difference, then the CPU cycles per forwarded packet (busy, named\n"
    "      work, DMA memory, tail writes), route-table entries read and tail writes\n"
    "      per packet that explain it.  The JSON is {\"rows\": [{\"pattern\",\n"
    "      \"scalar_pps\", \"multi_pps\", \"diff_pct\", ...}]}.\n"
    "  nicsim qemu SCENARIO.ini [section.key=value ...] [--json FILE] -- QEMU-COMMAND...\n"
    "      Serve the scenario's card (one; 82546 or 82599) to an unmodified QEMU as\n"
    "      one x-pci-proxy-dev PCI device per port: QEMU-COMMAND is started with a\n"
    "      -device x-pci-proxy-dev,fd=N added per port (its guest RAM must be a\n"
    "      shared memfd: -object memory-backend-memfd,id=mem,size=...,share=on\n"
    "      -machine memory-backend=mem).  No interrupts reach the guest (no KVM):\n"
    "      its drivers must poll.  Frames go to capture.pcap and, with\n"
    "      qemu.cable=true, from each port into the other.  At QEMU's exit: the\n"
    "      accesses, DMA and frames per port, both clocks; the exit status is\n"
    "      QEMU's (docs/qemu.md).\n"
    "  nicsim keys [SECTION]\n"
    "      List every scenario key (or SECTION's) with its type, default, range and\n"
    "      meaning, wrapped to the terminal's width ($COLUMNS, else 80 when not a\n"
    "      terminal).\n"
    "\n"
    "Sizes are Ethernet frame sizes including the 4-byte FCS (64..1518).\n"
    "Exit status: 0 success, 1 the simulation failed, 2 bad command line or scenario.\n";

static int parse_cli(int argc, char **argv, cli *c)
{
    memset(c, 0, sizeof *c);
    c->overrides = calloc((size_t)argc + 1, sizeof *c->overrides);
    if (argc < 2)
        return -1;
    c->cmd = argv[1];
    c->repeat = 3;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json") || !strcmp(a, "--csv") || !strcmp(a, "--list")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "nicsim: %s needs a file name\n", a);
                return -1;
            }
            if (!strcmp(a, "--json"))
                c->json = argv[++i];
            else if (!strcmp(a, "--csv"))
                c->csv = argv[++i];
            else
                c->list = argv[++i];
        } else if (!strcmp(a, "--plot") || !strcmp(a, "--emit-jobs") || !strcmp(a, "--emit-slurm") ||
                   !strcmp(a, "--results")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "nicsim: %s needs a %s\n", a, strcmp(a, "--plot") && strcmp(a, "--emit-jobs") ? "folder" : "file name");
                return -1;
            }
            const char **dst = !strcmp(a, "--plot") ? &c->plot : !strcmp(a, "--emit-jobs") ? &c->emit_jobs
                               : !strcmp(a, "--emit-slurm") ? &c->emit_slurm : &c->results;
            *dst = argv[++i];
        } else if (!strcmp(a, "--slurm-partition") || !strcmp(a, "--slurm-time")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "nicsim: %s needs a %s\n", a, strcmp(a, "--slurm-time") ? "partition name"
                                                                                        : "time limit");
                return -1;
            }
            *(!strcmp(a, "--slurm-time") ? &c->slurm_time : &c->slurm_partition) = argv[++i];
        } else if (!strcmp(a, "--zip")) {
            c->zip = 1;
        } else if (!strcmp(a, "-j") || !strncmp(a, "-j", 2) || !strcmp(a, "--point") || !strcmp(a, "--timeout")) {
            int attached = !strncmp(a, "-j", 2) && a[2];
            const char *v = attached ? a + 2 : i + 1 < argc ? argv[i + 1] : "";
            char *end = NULL;
            double d = strtod(v, &end);
            int whole = strcmp(a, "--timeout") != 0;
            if (!*v || *end || !(d >= (whole ? 1 : 0.001)) || d > 1e9 || (whole && d != (double)(long)d)) {
                fprintf(stderr, "nicsim: %s: expected %s, got '%s'\n", attached ? "-j" : a,
                        whole ? "a whole number >= 1" : "seconds > 0", v);
                return -1;
            }
            if (!attached)
                i++;
            if (!strcmp(a, "--point"))
                c->point = (long)d;
            else if (!strcmp(a, "--timeout"))
                c->timeout = d;
            else
                c->jobs = (long)d;
        } else if (!strcmp(a, "--repeat")) {
            char *end = NULL;
            long n = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || *argv[i + 1] == 0 || *end != 0 || n < 1 || n > 100) {
                fprintf(stderr, "nicsim: --repeat: expected a count in [1, 100], got '%s'\n",
                        i + 1 < argc ? argv[i + 1] : "");
                return -1;
            }
            c->repeat = (int)n;
            i++;
        } else if (!strcmp(a, "--")) {
            c->tail = argv + i + 1;
            c->ntail = argc - i - 1;
            break;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            exit(0);
        } else if (a[0] == '-') {
            fprintf(stderr, "nicsim: unknown option '%s'\n", a);
            return -1;
        } else if (strchr(a, '=')) {
            c->overrides[c->n_overrides++] = argv[i];
        } else if (!c->scenario) {
            c->scenario = a;
        } else {
            fprintf(stderr, "nicsim: unexpected argument '%s' (overrides are section.key=value)\n", a);
            return -1;
        }
    }
    return 0;
}

/* The report on stdout is an output too (out_file_stdout_done). */
static int stdout_written(int rc)
{
    return out_file_stdout_done("nicsim", rc, EXIT_RUN_FAILED);
}

/* --json, --csv and --plot of every command but sweep (which checks them
 * with its captures, sweep_check.h), before the command runs anything: a
 * path it could not write, or the same file twice, or the scenario or the
 * bench list, costs no run.  0, or EXIT_USAGE after the message. */
static int outputs_ok(const cli *c)
{
    char err[2048];
    cli_output outs[3];
    int n = 0;
    if (c->json)
        outs[n++] = (cli_output){ "--json", c->json };
    if (c->csv)
        outs[n++] = (cli_output){ "--csv", c->csv };
    if (c->plot)
        outs[n++] = (cli_output){ "--plot", c->plot };
    const char *inputs[2];
    int ni = 0;
    if (c->scenario)
        inputs[ni++] = c->scenario;
    if (c->list)
        inputs[ni++] = c->list;
    if ((c->plot && !strcmp(c->cmd, "merge") && sweep_plot_format(c->plot, err, sizeof err) < 0) ||
        cli_outputs_check(outs, n, inputs, ni, err, sizeof err) != 0) {
        fprintf(stderr, "nicsim %s: %s\n", c->cmd, err);
        return EXIT_USAGE;
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli c;
    /* an interrupted command leaves no temporary file of its outputs */
    out_file_clean_on_signals();
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (parse_cli(argc, argv, &c) != 0) {
        fputs(usage, stderr);
        free(c.overrides);
        return EXIT_USAGE;
    }
    int rc;
    if (strcmp(c.cmd, "sweep") != 0 && (rc = outputs_ok(&c)) != 0) {
        free(c.overrides);
        return rc;
    }
    if (!strcmp(c.cmd, "keys")) {
        rc = cmd_keys(&c);
    } else if (!strcmp(c.cmd, "validate")) {
        rc = cmd_validate(&c);
    } else if (!strcmp(c.cmd, "buscalc")) {
        rc = cmd_buscalc(&c);
    } else if (!strcmp(c.cmd, "merge")) {
        if (!c.scenario) {
            fprintf(stderr, "nicsim merge: missing the results folder (of --emit-jobs or --emit-slurm)\n");
            rc = EXIT_USAGE;
        } else {
            rc = cmd_merge(&c);
        }
    } else if (!strcmp(c.cmd, "qemu")) {
        if (!c.scenario || !c.ntail) {
            fprintf(stderr, "nicsim qemu: expected SCENARIO.ini [section.key=value ...] -- QEMU-COMMAND...\n");
            rc = EXIT_USAGE;
        } else {
            rc = cmd_qemu(&c);
        }
    } else if (!strcmp(c.cmd, "l3fwd")) {
        if (!c.scenario) {
            fprintf(stderr, "nicsim l3fwd: missing SCENARIO.ini\n");
            fputs(usage, stderr);
            rc = EXIT_USAGE;
        } else {
            rc = cmd_l3fwd(&c);
        }
    } else if (!strcmp(c.cmd, "run") || !strcmp(c.cmd, "sweep") || !strcmp(c.cmd, "bench")) {
        if (!c.scenario && !(c.list && !strcmp(c.cmd, "bench"))) {
            fprintf(stderr, "nicsim %s: missing SCENARIO.ini\n", c.cmd);
            fputs(usage, stderr);
            rc = EXIT_USAGE;
        } else if (!strcmp(c.cmd, "run")) {
            rc = cmd_run(&c);
        } else if (!strcmp(c.cmd, "sweep")) {
            rc = cmd_sweep(&c);
        } else {
            rc = cmd_bench(&c);
        }
    } else {
        fprintf(stderr, "nicsim: unknown command '%s'\n", c.cmd);
        fputs(usage, stderr);
        rc = EXIT_USAGE;
    }
    free(c.overrides);
    return stdout_written(rc);
}

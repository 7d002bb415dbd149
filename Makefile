# nicsim — top-level build.  `make` builds build/nicsim; `make run` and
# `make test` install what is missing (as root), build and run.
SHELL := /bin/bash
# Every core builds (and `make -jN` on the command line takes precedence): on
# the 2-core machines make test was 29 min 55 s serial, most of it compiling
# the three Verilated models twice (normal and sanitizer builds) and once more
# for the fuzzer.  The test binaries themselves are run one at a time by
# testbench/run_tests.sh.
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(shell nproc)
endif
BUILD ?= build
CC ?= cc
CXX ?= g++
SAN ?=
# `make test SAN=1`: the tests under AddressSanitizer + UndefinedBehaviorSanitizer
# only (build/san), without the normal build's run.  Anything else in SAN is
# taken as compiler flags (check-san passes the sanitizer flags that way).
ifeq ($(SAN),1)
SAN_ONLY := 1
override SAN :=
endif
OPT ?= -O2
CFLAGS_COMMON := -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE -Wall -Wextra -g $(OPT) $(SAN)
# Link-time optimisation of build/nicsim (C objects, the Verilated models and
# their C++ wrapper): 7-8 % less CPU time for a 64-byte 82599 run, measured
# (the per-cycle calls between the adapter, the wrapper and the model inline).
# The objects are fat, so the tests link them as ordinary objects; none under
# the sanitizers.
LTO ?= $(if $(SAN),,-flto=auto -ffat-lto-objects)
CFLAGS += $(CFLAGS_COMMON) $(LTO) -MMD -MP
LDLIBS := -lpcap -linih -lcjson -lm
TEST_LDLIBS := -lcunit $(LDLIBS)

# Debian packages the build and tests need (see README "Dependencies").
DEB_PKGS := build-essential verilator libsystemc-dev libpcap-dev libcunit1-dev libinih-dev libcjson-dev yosys \
            gnuplot-nox parallel jq graphviz
DEB_CHECK := $(shell for p in $(DEB_PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done)

# ---- sources --------------------------------------------------------------
# Everything but main.c and the C++ RTL wrapper: linked into nicsim and into tests.
MODEL_SRCS  := $(wildcard models/kernel/*.c models/*.c)
# The driver code: every folder of driver/ but the Linux backend (nicsim-hw's).
DRIVER_SRCS := $(filter-out driver/linux/%,$(wildcard driver/*/*.c))
# The simulator: every folder of sim/ but the other front ends' (nicsim-hw,
# the SystemC module), main() apart.
SIM_SRCS    := $(filter-out sim/cli/main.c sim/hw/% sim/systemc/%,$(wildcard sim/*/*.c))
LIB_SRCS    := $(MODEL_SRCS) $(DRIVER_SRCS) $(SIM_SRCS)
LIB_OBJS    := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)

TEST_RUNNER := testbench/unit/gtest_cunit.c
UNIT_TESTS  := $(patsubst testbench/unit/test_%.c,$(BUILD)/tests/test_%,$(wildcard testbench/unit/test_*.c))
RTL_TESTS   := $(patsubst testbench/rtl/test_%.c,$(BUILD)/tests/rtl_%,$(wildcard testbench/rtl/test_*.c))
SYS_TESTS   := $(patsubst testbench/system/test_%.c,$(BUILD)/tests/sys_%,$(wildcard testbench/system/test_*.c))
# Module-level RTL tests: one module Verilated alone with a parameter set,
# given a C ABI by a thin C++ shim (testbench/rtl_module/<name>_shim.cpp),
# driven by a C test (testbench/rtl_module/test_<name>.c).
MOD_TESTS   := $(patsubst testbench/rtl_module/test_%.c,$(BUILD)/tests/rtlmod_%,$(wildcard testbench/rtl_module/test_*.c))

# ---- Verilated RTL --------------------------------------------------------
VERILATOR ?= verilator
VL_ROOT := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
RTL_SRCS := $(wildcard rtl/*.v)
RTL_INCS := $(wildcard rtl/*.vh)
RTL_TOP := nic82546
VL_DIR := $(BUILD)/verilated
# VL_DEFINES: Verilog defines for a build of its own (BUILD=...), such as
# the planted defect of make cosim-plant; empty otherwise
VL_FLAGS := --cc -O3 -Irtl --top-module $(RTL_TOP) -Wall -Wno-fatal --x-assign fast --x-initial fast \
            --noassert -Mdir $(VL_DIR) --prefix Vnic82546 $(VL_DEFINES)
VL_CXXFLAGS := -std=gnu++17 -O3 -I$(VL_DIR) -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd $(SAN) $(LTO) -g
VL_RUNTIME := $(BUILD)/vlrt/verilated.o $(BUILD)/vlrt/verilated_threads.o
# The 82599 personality: a second Verilated top with the same interface.
RTL_TOP_82599 := nic82599
VL_DIR_82599 := $(BUILD)/verilated82599
VL_FLAGS_82599 := --cc -O3 -Irtl --top-module $(RTL_TOP_82599) -Wall -Wno-fatal --x-assign fast --x-initial fast \
            --noassert -Mdir $(VL_DIR_82599) --prefix Vnic82599 $(VL_DEFINES)
# The 82546 with port 0 only (NFUNC=1), as the 82599's below: what the
# simulator runs when no app drives port 1 of a card.
VL_DIR_82546_1 := $(BUILD)/verilated82546x1
VL_FLAGS_82546_1 := --cc -O3 -Irtl --top-module $(RTL_TOP) -GNFUNC=1 -Wall -Wno-fatal --x-assign fast \
            --x-initial fast --noassert -Mdir $(VL_DIR_82546_1) --prefix Vnic82546x1 $(VL_DEFINES)
# The 82599 with port 0 only (NFUNC=1): what the simulator runs when no app
# drives port 1 of a card, so the idle port's logic costs nothing per cycle.
VL_DIR_82599_1 := $(BUILD)/verilated82599x1
VL_FLAGS_82599_1 := --cc -O3 -Irtl --top-module $(RTL_TOP_82599) -GNFUNC=1 -Wall -Wno-fatal --x-assign fast \
            --x-initial fast --noassert -Mdir $(VL_DIR_82599_1) --prefix Vnic82599x1 $(VL_DEFINES)
RTL_LIB := $(BUILD)/obj/sim/device/nic_rtl.o $(VL_DIR)/Vnic82546__ALL.a $(VL_DIR_82546_1)/Vnic82546x1__ALL.a \
           $(VL_DIR_82599)/Vnic82599__ALL.a $(VL_DIR_82599_1)/Vnic82599x1__ALL.a $(VL_RUNTIME)
# Everything in one archive: each binary pulls only the objects it needs, so a
# test that brings its own platform (testbench/unit/plat_fake.c) links cleanly.
NICSIM_LIB := $(BUILD)/libnicsim.a

.PHONY: all systemc l3fwd deps run test check check-san docs-check pictures unit rtl-tests sys-tests lint layers synth fuzz fuzz-deps \
        fuzz-bounded bench predictions clean diff-replay hil hil-if-installable cosim cosim-plant cosim-if-installable cluster cluster-deps cluster-if-installable
all: $(BUILD)/nicsim $(BUILD)/nicsim-hw $(BUILD)/nicsim-systemc $(BUILD)/nicsim-systemc-example

deps:
	@if [ -n "$(strip $(DEB_CHECK))" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    mkdir -p $(BUILD); log=$(BUILD)/deps.log; : > $$log; \
	    echo "nicsim: installing $(DEB_CHECK) (apt's output: $$log)"; \
	    for step in "apt-get update" \
	                "apt-get install -y --no-install-recommends $(DEB_CHECK)"; do \
	      printf 'nicsim:   %s ... ' "$${step%% -y*}"; \
	      if DEBIAN_FRONTEND=noninteractive $$step >>$$log 2>&1; then echo done; \
	      else echo FAILED; tail -20 $$log; echo "nicsim: the whole output is in $$log"; exit 1; fi; \
	    done; \
	  else \
	    echo "nicsim: missing Debian packages; run as root:"; \
	    echo "  apt-get update && apt-get install -y --no-install-recommends $(DEB_CHECK)"; exit 1; \
	  fi; fi

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# Verilator's runtime: compiled once per tree.
$(BUILD)/vlrt/%.o: $(VL_ROOT)/include/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(VL_CXXFLAGS) -c $< -o $@

# The Verilated models are built for this machine's CPU (-march=native:
# about 4 % off a 64-byte 82599 run's wall time, measured): the binary is
# built where it runs, and the models do integer arithmetic only, so results
# do not depend on it.
VL_OPT_FAST := -O3 -fno-stack-protector -march=native

$(VL_DIR)/Vnic82546__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(VL_DIR)
	$(VERILATOR) $(VL_FLAGS) $(RTL_SRCS)
	$(MAKE) -s -C $(VL_DIR) -f Vnic82546.mk Vnic82546__ALL.a \
	  OPT_FAST="$(VL_OPT_FAST)" OPT_SLOW="-O1" OPT_GLOBAL="-O3 -fno-stack-protector" CXXFLAGS="$(SAN) $(LTO) -g"

$(VL_DIR_82546_1)/Vnic82546x1__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(VL_DIR_82546_1)
	$(VERILATOR) $(VL_FLAGS_82546_1) $(RTL_SRCS)
	$(MAKE) -s -C $(VL_DIR_82546_1) -f Vnic82546x1.mk Vnic82546x1__ALL.a \
	  OPT_FAST="$(VL_OPT_FAST)" OPT_SLOW="-O1" OPT_GLOBAL="-O3 -fno-stack-protector" CXXFLAGS="$(SAN) $(LTO) -g"

$(VL_DIR_82599)/Vnic82599__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(VL_DIR_82599)
	$(VERILATOR) $(VL_FLAGS_82599) $(RTL_SRCS)
	$(MAKE) -s -C $(VL_DIR_82599) -f Vnic82599.mk Vnic82599__ALL.a \
	  OPT_FAST="$(VL_OPT_FAST)" OPT_SLOW="-O1" OPT_GLOBAL="-O3 -fno-stack-protector" CXXFLAGS="$(SAN) $(LTO) -g"

$(VL_DIR_82599_1)/Vnic82599x1__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(VL_DIR_82599_1)
	$(VERILATOR) $(VL_FLAGS_82599_1) $(RTL_SRCS)
	$(MAKE) -s -C $(VL_DIR_82599_1) -f Vnic82599x1.mk Vnic82599x1__ALL.a \
	  OPT_FAST="$(VL_OPT_FAST)" OPT_SLOW="-O1" OPT_GLOBAL="-O3 -fno-stack-protector" CXXFLAGS="$(SAN) $(LTO) -g"

$(BUILD)/obj/sim/device/nic_rtl.o: sim/device/nic_rtl.cpp sim/device/nic_rtl.h $(VL_DIR)/Vnic82546__ALL.a \
                            $(VL_DIR_82546_1)/Vnic82546x1__ALL.a $(VL_DIR_82599)/Vnic82599__ALL.a \
                            $(VL_DIR_82599_1)/Vnic82599x1__ALL.a
	@mkdir -p $(dir $@)
	$(CXX) $(VL_CXXFLAGS) -I$(VL_DIR_82546_1) -I$(VL_DIR_82599) -I$(VL_DIR_82599_1) -c $< -o $@

$(NICSIM_LIB): $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/nicsim: $(BUILD)/obj/sim/cli/main.o $(NICSIM_LIB) $(RTL_LIB)
	$(CXX) $(SAN) $(LTO) -o $@ $^ $(LDLIBS)

# nicsim-systemc: the NIC as a SystemC TLM-2.0 module (sim/systemc) in its
# testbench (testbench/systemc), the driver core on an initiator thread.
SC_C_SRCS := testbench/systemc/tb_cpus.c
SC_CXX_SRCS := sim/systemc/nicsim_nic.cpp testbench/systemc/sc_main.cpp
SC_OBJS := $(SC_C_SRCS:%.c=$(BUILD)/obj/%.o) $(SC_CXX_SRCS:%.cpp=$(BUILD)/obj/%.o)
SC_CXXFLAGS := -std=gnu++17 -Wall -Wextra -g $(OPT) $(SAN) $(LTO) -MMD -MP
$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(SC_CXXFLAGS) -c $< -o $@
$(BUILD)/nicsim-systemc: $(SC_OBJS) $(NICSIM_LIB) $(RTL_LIB)
	$(CXX) $(SAN) $(LTO) -o $@ $^ -lsystemc $(LDLIBS)
# The smallest platform around the module (docs/systemc.md's example).
$(BUILD)/nicsim-systemc-example: $(BUILD)/obj/testbench/systemc/example_platform.o \
                                 $(BUILD)/obj/sim/systemc/nicsim_nic.o \
                                 $(NICSIM_LIB) $(RTL_LIB)
	$(CXX) $(SAN) $(LTO) -o $@ $^ -lsystemc $(LDLIBS)
systemc: deps
	$(MAKE) $(BUILD)/nicsim-systemc $(BUILD)/nicsim-systemc-example

# nicsim-hw: the same driver core and apps on physical NICs through the
# Linux user-space backend (driver/linux), with the simulator's scenario
# parser; no Verilator, no SystemC.  Linked statically so that it runs in
# the `make hil` guest as it is.
HW_SRCS := $(wildcard sim/hw/*.c driver/*/*.c sim/apps/*.c) \
           sim/scenario/scenario.c sim/scenario/scenario_keys.c sim/scenario/driver_options.c \
           sim/scenario/personality.c sim/scenario/nicsim_scenario.c sim/report/report_tables.c models/out_file.c
HW_OBJS := $(HW_SRCS:%.c=$(BUILD)/obj/%.o)
# (not static under the sanitizers: their runtimes need the dynamic loader)
$(BUILD)/nicsim-hw: $(HW_OBJS)
	$(CC) $(SAN) $(LTO) $(if $(SAN),,-static) -o $@ $^ -linih -lm

# Compares two captures frame by frame (make hil: QEMU's against the simulator's).
$(BUILD)/pcap-compare: testbench/hil/pcap_compare.c
	$(CC) $(CFLAGS_COMMON) -o $@ $< -lpcap

# Unit tests of the driver core bring the fake platform.
TEST_EXTRA_e1000_tx := testbench/unit/plat_fake.c
TEST_EXTRA_e1000_rx := testbench/unit/plat_fake.c
TEST_EXTRA_router := testbench/unit/plat_fake.c
TEST_EXTRA_pktgen := testbench/unit/plat_fake.c
TEST_EXTRA_ixgbe_dev := testbench/unit/plat_fake.c
TEST_EXTRA_sink := testbench/unit/plat_fake.c
TEST_EXTRA_faulty_device := testbench/unit/plat_fake.c
TEST_EXTRA_ixgbe_tx := testbench/unit/plat_fake.c
TEST_EXTRA_ixgbe_rx := testbench/unit/plat_fake.c
TEST_EXTRA_ixgbe_napi := testbench/unit/plat_fake.c
TEST_EXTRA_lpm := testbench/unit/plat_fake.c
TEST_EXTRA_l3fwd := testbench/unit/plat_fake.c
TEST_EXTRA_reg_poll := testbench/unit/plat_fake.c
TEST_EXTRA_fwd := testbench/unit/plat_fake.c
# The Linux backend's parts that need no NIC, with its platform
# (plat_linux.c, which hw_nic.c's close uses: it defines every plat_*
# function, so the library's simulator platform is not pulled in).
TEST_EXTRA_linux_backend := driver/linux/pci_sysfs.c driver/linux/hw_error.c driver/linux/dma_hugepage.c \
                            driver/linux/hw_nic.c driver/linux/vfio_nic.c driver/linux/uio_nic.c \
                            driver/linux/plat_linux.c
.SECONDEXPANSION:
$(BUILD)/tests/test_%: testbench/unit/test_%.c $(TEST_RUNNER) $$(TEST_EXTRA_$$*) $(NICSIM_LIB) $(RTL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -o $@ $< $(TEST_RUNNER) $(TEST_EXTRA_$*) $(NICSIM_LIB) $(RTL_LIB) $(TEST_LDLIBS) -lstdc++

# The differential checker brings its reference model.
RTL_EXTRA_differential := testbench/diff/diff_ref.c testbench/diff/diff_ref.h
$(BUILD)/tests/rtl_%: testbench/rtl/test_%.c testbench/rtl/rtl_harness.c $(TEST_RUNNER) $$(RTL_EXTRA_$$*) \
                      $(NICSIM_LIB) $(RTL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -o $@ $< testbench/rtl/rtl_harness.c $(TEST_RUNNER) $(filter %.c,$(RTL_EXTRA_$*)) \
	  $(NICSIM_LIB) $(RTL_LIB) $(TEST_LDLIBS) -lstdc++

# The 82599's TX queue: rtl/tx_queue.v with advanced descriptors and a
# 40-entry cache.
MOD_VL_tx_queue_adv := --top-module tx_queue -GFMT=1 "-GCACHE=7'd40" -GFETCH2=1 rtl/tx_queue.v
# The 82599's RX queue: rtl/rx_queue.v with advanced one-buffer descriptors.
MOD_VL_rx_queue_adv := --top-module rx_queue -GFMT=1 "-GCACHE=7'd32" -GRW=11 rtl/rx_queue.v
# The 82599 personality: two ixgbe functions behind the nic82546 interface.
MOD_VL_nic82599 := --top-module nic82599 rtl/nic82599.v rtl/host_if.v rtl/ixgbe_eeprom.v rtl/ixgbe_sync.v rtl/ixgbe_func.v rtl/queue_dma_arb.v rtl/ixgbe_regs.v rtl/ixgbe_intr.v \
                   rtl/ixgbe_qstats.v rtl/tx_queue.v rtl/rx_queue.v rtl/tx_pkt_buffer.v rtl/mac_tx.v rtl/mac_rx.v rtl/rx_filters.v rtl/rx_addr_filter.v rtl/rx_vlan_filter.v \
                   rtl/e1000_rx_stats.v rtl/e1000_tx_stats.v
$(BUILD)/verilated_mod/%/V%__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(dir $@)
	$(VERILATOR) --cc -O3 -Irtl -Wall -Wno-fatal --x-assign fast --x-initial fast --noassert \
	  -Mdir $(dir $@) --prefix V$* $(MOD_VL_$*)
	$(MAKE) -s -C $(dir $@) -f V$*.mk V$*__ALL.a \
	  OPT_FAST="-O3 -fno-stack-protector" OPT_SLOW="-O1" OPT_GLOBAL="-O3 -fno-stack-protector" CXXFLAGS="$(SAN) -g"

.PRECIOUS: $(BUILD)/obj/rtl_module/%_shim.o $(BUILD)/verilated_mod/%/V%__ALL.a
$(BUILD)/obj/rtl_module/%_shim.o: testbench/rtl_module/%_shim.cpp testbench/rtl_module/%_shim.h \
                                  $(BUILD)/verilated_mod/%/V%__ALL.a
	@mkdir -p $(dir $@)
	$(CXX) $(VL_CXXFLAGS) -I$(BUILD)/verilated_mod/$* -c $< -o $@

$(BUILD)/tests/rtlmod_%: testbench/rtl_module/test_%.c $(BUILD)/obj/rtl_module/%_shim.o \
                         $(BUILD)/verilated_mod/%/V%__ALL.a $(TEST_RUNNER) $(VL_RUNTIME)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Itestbench/unit -o $@ $< $(TEST_RUNNER) $(BUILD)/obj/rtl_module/$*_shim.o \
	  $(BUILD)/verilated_mod/$*/V$*__ALL.a $(VL_RUNTIME) $(TEST_LDLIBS) -lstdc++ -lpthread

# System tests run build/nicsim as a user would (CLI, pcaps, JSON, determinism).
# (testbench/system/sys_harness.c: what the newer ones share)
SYS_HARNESS := testbench/system/sys_harness.c
$(BUILD)/tests/sys_%: testbench/system/test_%.c $(TEST_RUNNER) $(SYS_HARNESS) testbench/system/sys_harness.h $(BUILD)/nicsim
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -o $@ $< $(SYS_HARNESS) $(TEST_RUNNER) $(TEST_LDLIBS)

unit: $(UNIT_TESTS)
rtl-tests: $(RTL_TESTS) $(MOD_TESTS)
sys-tests: $(SYS_TESTS)

# The layers of docs/architecture.md over the #include graph: fails on an
# include of a higher (or sibling) layer and on an import circle, and
# prints each.
layers:
	@testbench/tools/layers.sh

lint:
	$(VERILATOR) --lint-only -Wall -Irtl --top-module $(RTL_TOP) $(RTL_SRCS)
	$(VERILATOR) --lint-only -Wall -Irtl --top-module $(RTL_TOP) -GNFUNC=1 $(RTL_SRCS)
	$(VERILATOR) --lint-only -Wall -Irtl $(MOD_VL_tx_queue_adv)
	$(VERILATOR) --lint-only -Wall -Irtl $(MOD_VL_rx_queue_adv)
	$(VERILATOR) --lint-only -Wall -Irtl $(MOD_VL_nic82599)
	$(VERILATOR) --lint-only -Wall -Irtl -GNFUNC=1 $(MOD_VL_nic82599)
	@echo "lint: rtl/ is clean under verilator --lint-only -Wall"

# Yosys over rtl/: no latches, no combinational loops, and a resource summary
# per top level (docs/rtl.md, "Synthesis check"); the logs in build/synth.
synth: deps
	testbench/synth.sh $(BUILD)/synth nic82546 nic82546:NFUNC=1 nic82599 nic82599:NFUNC=1

# ---- fuzzing (libFuzzer, Debian's clang) --------------------------------------
# The RTL models, nic_rtl.cpp and testbench/fuzz/fuzz_rtl.c built with clang,
# coverage instrumentation and ASan/UBSan into build/fuzz; `make fuzz` runs
# the target for FUZZ_SECONDS (default: until stopped) on the corpus in
# build/fuzz/corpus (kept between runs).  Crashes land in build/fuzz as
# crash-*, with the input that replays them: build/fuzz/fuzz_rtl FILE.
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_CXXFLAGS := -std=gnu++17 -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_SECONDS ?= 0
FUZZ_MODELS := $(FUZZ_DIR)/verilated/Vnic82546__ALL.a $(FUZZ_DIR)/verilated82546x1/Vnic82546x1__ALL.a \
               $(FUZZ_DIR)/verilated82599/Vnic82599__ALL.a $(FUZZ_DIR)/verilated82599x1/Vnic82599x1__ALL.a

$(FUZZ_DIR)/verilated/Vnic82546__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(dir $@)
	$(VERILATOR) $(subst -Mdir $(VL_DIR),-Mdir $(dir $@),$(VL_FLAGS)) $(RTL_SRCS)
	$(MAKE) -s -C $(dir $@) -f Vnic82546.mk Vnic82546__ALL.a CXX=clang++ \
	  OPT_FAST="-O1" OPT_SLOW="-O1" OPT_GLOBAL="-O1" CXXFLAGS="$(FUZZ_CXXFLAGS)"

$(FUZZ_DIR)/verilated82546x1/Vnic82546x1__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(dir $@)
	$(VERILATOR) $(subst -Mdir $(VL_DIR_82546_1),-Mdir $(dir $@),$(VL_FLAGS_82546_1)) $(RTL_SRCS)
	$(MAKE) -s -C $(dir $@) -f Vnic82546x1.mk Vnic82546x1__ALL.a CXX=clang++ \
	  OPT_FAST="-O1" OPT_SLOW="-O1" OPT_GLOBAL="-O1" CXXFLAGS="$(FUZZ_CXXFLAGS)"

$(FUZZ_DIR)/verilated82599/Vnic82599__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(dir $@)
	$(VERILATOR) $(subst -Mdir $(VL_DIR_82599),-Mdir $(dir $@),$(VL_FLAGS_82599)) $(RTL_SRCS)
	$(MAKE) -s -C $(dir $@) -f Vnic82599.mk Vnic82599__ALL.a CXX=clang++ \
	  OPT_FAST="-O1" OPT_SLOW="-O1" OPT_GLOBAL="-O1" CXXFLAGS="$(FUZZ_CXXFLAGS)"

$(FUZZ_DIR)/verilated82599x1/Vnic82599x1__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(dir $@)
	$(VERILATOR) $(subst -Mdir $(VL_DIR_82599_1),-Mdir $(dir $@),$(VL_FLAGS_82599_1)) $(RTL_SRCS)
	$(MAKE) -s -C $(dir $@) -f Vnic82599x1.mk Vnic82599x1__ALL.a CXX=clang++ \
	  OPT_FAST="-O1" OPT_SLOW="-O1" OPT_GLOBAL="-O1" CXXFLAGS="$(FUZZ_CXXFLAGS)"

$(FUZZ_DIR)/fuzz_rtl: testbench/fuzz/fuzz_rtl.c sim/device/nic_rtl.cpp sim/device/nic_rtl.h $(FUZZ_MODELS)
	clang++ $(FUZZ_CXXFLAGS) -I$(FUZZ_DIR)/verilated -I$(FUZZ_DIR)/verilated82546x1 -I$(FUZZ_DIR)/verilated82599 \
	  -I$(FUZZ_DIR)/verilated82599x1 \
	  -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd -c sim/device/nic_rtl.cpp -o $(FUZZ_DIR)/nic_rtl.o
	clang++ $(FUZZ_CXXFLAGS) -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd \
	  -c $(VL_ROOT)/include/verilated.cpp -o $(FUZZ_DIR)/verilated.o
	clang++ $(FUZZ_CXXFLAGS) -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd \
	  -c $(VL_ROOT)/include/verilated_threads.cpp -o $(FUZZ_DIR)/verilated_threads.o
	clang -std=c11 -g -O1 -fsanitize=fuzzer $(FUZZ_SAN) -Wall -Wextra -c $< -o $(FUZZ_DIR)/fuzz_rtl.o
	clang++ -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $(FUZZ_DIR)/fuzz_rtl.o $(FUZZ_DIR)/nic_rtl.o $(FUZZ_MODELS) \
	  $(FUZZ_DIR)/verilated.o $(FUZZ_DIR)/verilated_threads.o -lpthread -latomic

# clang with libFuzzer's runtime, on top of the usual packages
FUZZ_PKGS := clang libclang-rt-14-dev
fuzz-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) $(FUZZ_PKGS)"

fuzz: fuzz-deps
	$(MAKE) --no-print-directory $(FUZZ_DIR)/fuzz_rtl
	@mkdir -p $(FUZZ_DIR)/corpus
	cp -n testbench/fuzz/seeds/* $(FUZZ_DIR)/corpus/
	cd $(FUZZ_DIR) && ./fuzz_rtl -max_total_time=$(FUZZ_SECONDS) -max_len=2048 -len_control=0 -timeout=20 -print_final_stats=1 corpus

# The bounded part `make test` runs: FUZZ_RUNS inputs from the committed seeds
# (testbench/fuzz/seeds, written by testbench/fuzz/seeds.py), libFuzzer seed 1;
# its JUnit report joins the others.
FUZZ_RUNS ?= 5000
fuzz-bounded: fuzz-deps
	$(MAKE) --no-print-directory $(FUZZ_DIR)/fuzz_rtl
	testbench/fuzz/bounded.sh $(FUZZ_DIR)/fuzz_rtl testbench/fuzz/seeds $(FUZZ_DIR)/bounded $(FUZZ_RUNS) \
	  $(BUILD)/fuzz-results.xml

# ---- replaying a differential-checker failure with a waveform ----------------
# `make diff-replay SEQ=82599:17` replays that sequence of the differential
# checker (testbench/rtl/test_differential.c), printing every action, and
# writes the FST waveform of the failing action's window to
# build/diff-82599-17.fst (gtkwave).  It needs the models Verilated with
# --trace-fst, built here on first use (build/trace), not by make test.
TRACE_DIR := $(BUILD)/trace
TRACE_MODELS := $(TRACE_DIR)/verilated/Vnic82546__ALL.a $(TRACE_DIR)/verilated82546x1/Vnic82546x1__ALL.a \
                $(TRACE_DIR)/verilated82599/Vnic82599__ALL.a $(TRACE_DIR)/verilated82599x1/Vnic82599x1__ALL.a
TRACE_VL_FLAGS := --trace-fst --trace-structs
TRACE_CXXFLAGS := -std=gnu++17 -O1 -g -DNICSIM_TRACE -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd

$(TRACE_DIR)/verilated/Vnic82546__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(dir $@)
	$(VERILATOR) $(TRACE_VL_FLAGS) $(subst -Mdir $(VL_DIR),-Mdir $(dir $@),$(VL_FLAGS)) $(RTL_SRCS)
	$(MAKE) -s -C $(dir $@) -f Vnic82546.mk Vnic82546__ALL.a OPT_FAST="-O1" OPT_SLOW="-O1" OPT_GLOBAL="-O1"

$(TRACE_DIR)/verilated82546x1/Vnic82546x1__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(dir $@)
	$(VERILATOR) $(TRACE_VL_FLAGS) $(subst -Mdir $(VL_DIR_82546_1),-Mdir $(dir $@),$(VL_FLAGS_82546_1)) $(RTL_SRCS)
	$(MAKE) -s -C $(dir $@) -f Vnic82546x1.mk Vnic82546x1__ALL.a OPT_FAST="-O1" OPT_SLOW="-O1" OPT_GLOBAL="-O1"

$(TRACE_DIR)/verilated82599/Vnic82599__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(dir $@)
	$(VERILATOR) $(TRACE_VL_FLAGS) $(subst -Mdir $(VL_DIR_82599),-Mdir $(dir $@),$(VL_FLAGS_82599)) $(RTL_SRCS)
	$(MAKE) -s -C $(dir $@) -f Vnic82599.mk Vnic82599__ALL.a OPT_FAST="-O1" OPT_SLOW="-O1" OPT_GLOBAL="-O1"

$(TRACE_DIR)/verilated82599x1/Vnic82599x1__ALL.a: $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(dir $@)
	$(VERILATOR) $(TRACE_VL_FLAGS) $(subst -Mdir $(VL_DIR_82599_1),-Mdir $(dir $@),$(VL_FLAGS_82599_1)) $(RTL_SRCS)
	$(MAKE) -s -C $(dir $@) -f Vnic82599x1.mk Vnic82599x1__ALL.a OPT_FAST="-O1" OPT_SLOW="-O1" OPT_GLOBAL="-O1"

$(TRACE_DIR)/rtl_differential: testbench/rtl/test_differential.c testbench/rtl/rtl_harness.c \
                               $(RTL_EXTRA_differential) $(TEST_RUNNER) sim/device/nic_rtl.cpp sim/device/nic_rtl.h \
                               $(TRACE_MODELS) $(NICSIM_LIB)
	$(CXX) $(TRACE_CXXFLAGS) -I$(TRACE_DIR)/verilated -I$(TRACE_DIR)/verilated82546x1 -I$(TRACE_DIR)/verilated82599 \
	  -I$(TRACE_DIR)/verilated82599x1 \
	  -c sim/device/nic_rtl.cpp -o $(TRACE_DIR)/nic_rtl.o
	$(CXX) $(TRACE_CXXFLAGS) -c $(VL_ROOT)/include/verilated.cpp -o $(TRACE_DIR)/verilated.o
	$(CXX) $(TRACE_CXXFLAGS) -c $(VL_ROOT)/include/verilated_threads.cpp -o $(TRACE_DIR)/verilated_threads.o
	$(CXX) $(TRACE_CXXFLAGS) -c $(VL_ROOT)/include/verilated_fst_c.cpp -o $(TRACE_DIR)/verilated_fst_c.o
	$(CC) $(CFLAGS_COMMON) -o $@ $< testbench/rtl/rtl_harness.c $(TEST_RUNNER) $(filter %.c,$(RTL_EXTRA_differential)) \
	  $(NICSIM_LIB) $(TRACE_DIR)/nic_rtl.o $(TRACE_MODELS) $(TRACE_DIR)/verilated.o $(TRACE_DIR)/verilated_threads.o \
	  $(TRACE_DIR)/verilated_fst_c.o $(TEST_LDLIBS) -lz -lstdc++ -lpthread

SEQ ?=
# zlib for the FST writer, on top of the usual packages
TRACE_PKGS := zlib1g-dev
diff-replay:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) $(TRACE_PKGS)"
	@if [ -z "$(SEQ)" ]; then echo "make diff-replay: SEQ=82546:SEED or SEQ=82599:SEED (as the checker printed)"; exit 2; fi
	$(MAKE) --no-print-directory $(TRACE_DIR)/rtl_differential
	$(TRACE_DIR)/rtl_differential --replay $(SEQ) --fst $(BUILD)/diff-$(subst :,-,$(SEQ)).fst

# ---- hardware in the loop: nicsim-hw against QEMU's e1000 ---------------------
# `make hil` fetches QEMU, busybox and a Debian kernel into build/hil/cache
# (nothing of them is committed), boots a guest with two e1000-82545em NICs
# in uio mode and in vfio mode (emulated IOMMU), runs pktgen on NIC 0 and
# the sink on NIC 1 with nicsim-hw, and compares QEMU's capture of NIC 0
# with the simulator's (testbench/hil/hil.sh).  HIL_MODES picks the modes;
# HIL_FLIP=FRAME:BYTE changes that byte of the simulated capture on purpose
# (the comparison must then fail).  JUnit report: build/hil-results.xml.
HIL_MODES ?= uio vfio
hil: deps
	$(MAKE) --no-print-directory all $(BUILD)/pcap-compare
	testbench/hil/hil.sh $(BUILD) $(HIL_MODES)

# make cosim: the RTL as a PCI device of an unmodified QEMU (nicsim qemu),
# driven from the guest by nicsim-hw (testbench/cosim/cosim.sh, JUnit report
# build/cosim-results.xml).  Shares make hil's guest kernel and QEMU.
cosim: deps
	$(MAKE) --no-print-directory all $(BUILD)/pcap-compare
	testbench/cosim/cosim.sh $(BUILD)

# make cosim-plant: the DPDK case must catch a planted RTL defect (the
# 82599's RX write-back length 4 bytes long; testbench/cosim/plant.sh
# builds nicsim with it into build/plant).  Not part of make test.
cosim-plant: deps
	$(MAKE) --no-print-directory all $(BUILD)/pcap-compare
	testbench/cosim/plant.sh $(BUILD)

# `make test` runs `make hil` and `make cosim` when QEMU is installed or
# installable from the package registry; otherwise it records each check as
# skipped (testbench/hil/skipped.sh).  $(call if_qemu,TARGET,SUITE)
if_qemu = @if command -v qemu-system-x86_64 >/dev/null || \
	    apt-cache policy qemu-system-x86 2>/dev/null | grep -q 'Candidate: [0-9]'; then \
	  $(MAKE) --no-print-directory $(1); \
	else \
	  echo "$(1): skipped: qemu-system-x86 is neither installed nor installable here"; \
	  testbench/hil/skipped.sh $(BUILD)/$(1)-results.xml "qemu-system-x86 is neither installed nor installable" $(2); \
	fi
cosim-if-installable:
	$(call if_qemu,cosim,Cosim)
hil-if-installable:
	$(call if_qemu,hil,Hil)

# ---- sweeps on a real cluster: Slurm and GNU parallel over ssh -----------------
# `make cluster` runs a sweep's emitted job array on a one-node Slurm cluster
# (munged, slurmctld, slurmd) and its emitted jobs with GNU parallel across
# two ssh "hosts" (an sshd on a loopback port), every daemon started by the
# test itself on loopback ports with its state in a temporary folder, and
# stopped on every exit path; the test fails if anything of it is left
# running (testbench/cluster/*.sh, docs/sweep.md).  The packages are
# installed without starting their system services
# (testbench/cluster/install.sh).  JUnit report: build/cluster-results.xml.
CLUSTER_PKGS := slurmctld slurmd slurm-client munge openssh-server openssh-client parallel
cluster-deps:
	@testbench/cluster/install.sh $(CLUSTER_PKGS)

cluster: deps
	@$(MAKE) --no-print-directory cluster-deps
	$(MAKE) --no-print-directory all
	testbench/cluster/run.sh $(BUILD)

# `make test` runs `make cluster` when the packages are installed or
# installable from the package registry; otherwise it records both tests
# as skipped, saying which package is missing.
cluster-if-installable:
	@if missing=$$(testbench/cluster/install.sh --check $(CLUSTER_PKGS)); then \
	  $(MAKE) --no-print-directory cluster; \
	else \
	  echo "cluster: skipped: neither installed nor installable here: $$missing"; \
	  testbench/cluster/skipped.sh $(BUILD)/cluster-results.xml "neither installed nor installable here: $$missing"; \
	fi

# ---- the two set-up commands of the README ---------------------------------
DEFAULT_SWEEP := pktgen.size=64,128,256,512,1024,1518

run: deps
	$(MAKE) all
	$(BUILD)/nicsim sweep testbench/scenarios/e1000-pktgen.ini $(DEFAULT_SWEEP) \
	  --csv $(BUILD)/default-sweep.csv --json $(BUILD)/default-sweep.json --plot $(BUILD)/default-sweep.svg

# Every test: the layers check, lint, the synthesis check, then unit, RTL (the differential
# checker's 10,000 sequences per personality among them) and system tests,
# once in a normal build and once under AddressSanitizer +
# UndefinedBehaviorSanitizer, then the bounded fuzz run, then `make hil`
# (when QEMU is installable), then `make cluster` (when Slurm, munge and
# sshd are installable).  One JUnit report of everything:
# build/all-test-results.xml (and one per part: build/test-results.xml,
# build/san/test-results.xml, build/fuzz-results.xml, build/hil-results.xml,
# build/cluster-results.xml).
# With SAN=1 the normal build's run, make hil and make cluster are left out.
test: deps
	$(MAKE) --no-print-directory layers
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory synth
	$(if $(SAN_ONLY),,$(MAKE) --no-print-directory check)
	$(if $(SAN_ONLY),,$(MAKE) --no-print-directory docs-check)
	$(MAKE) --no-print-directory check-san
	$(MAKE) --no-print-directory fuzz-bounded
	$(if $(SAN_ONLY),,$(MAKE) --no-print-directory hil-if-installable)
	$(if $(SAN_ONLY),,$(MAKE) --no-print-directory cosim-if-installable)
	$(if $(SAN_ONLY),,$(MAKE) --no-print-directory cluster-if-installable)
	@testbench/summarize.sh $(BUILD)/all-test-results.xml $(if $(SAN_ONLY),,normal=$(BUILD)/test-results.xml) \
	  san=build/san/test-results.xml fuzz=$(BUILD)/fuzz-results.xml \
	  $(if $(SAN_ONLY),,hil=$(BUILD)/hil-results.xml cosim=$(BUILD)/cosim-results.xml cluster=$(BUILD)/cluster-results.xml)

# The figures README.md and docs/ quote from a command, checked against a
# run of that command (testbench/tools/docs-figures.sh, docs/figures.conf).
docs-check: all pictures
	testbench/tools/docs-figures.sh

# The docs' pictures, drawn by graphviz from their sources in docs/pictures
# (build/pictures/NAME.svg; a source that does not draw fails the build).
PICTURES := $(patsubst docs/pictures/%.dot,$(BUILD)/pictures/%.svg,$(wildcard docs/pictures/*.dot))
pictures: $(PICTURES)
$(BUILD)/pictures/%.svg: docs/pictures/%.dot
	@mkdir -p $(dir $@)
	dot -Tsvg $< -o $@.tmp && mv $@.tmp $@

check: all unit rtl-tests sys-tests
	NICSIM_BIN=$(BUILD)/nicsim testbench/run_tests.sh $(BUILD)/test-results $(BUILD)/test-results.xml \
	  $(UNIT_TESTS) $(RTL_TESTS) $(MOD_TESTS) $(SYS_TESTS)

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# The sanitizer build looks for memory and undefined-behaviour errors, which
# the differential checker's code paths show at a fifth of its sequences; the
# normal build runs all 10,000 (docs/testing.md, "Differential checker").
SAN_DIFF_SEQS ?= 2000
check-san:
	NICSIM_DIFF_SEQS=$(SAN_DIFF_SEQS) $(MAKE) BUILD=build/san SAN="$(SAN_FLAGS)" OPT=-O1 check

# The l3fwd experiment (issue 8): five traffic patterns, scalar and
# multi-buffer paths, on four 82599s; the table on stdout, the rows in
# build/l3fwd.json (docs/l3fwd.md).
l3fwd: deps
	$(MAKE) all
	$(BUILD)/nicsim l3fwd testbench/scenarios/l3fwd.ini --json $(BUILD)/l3fwd.json

# the held-back experiments' sweeps and the tables of docs/predictions.md
predictions: deps
	$(MAKE) all
	testbench/tools/predictions.sh $(BUILD)/predictions

bench: deps
	$(MAKE) all
	$(BUILD)/nicsim bench --list testbench/bench.list --json $(BUILD)/bench.json

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

#!/usr/bin/env bash
# make cosim-plant: the DPDK case of `make cosim` (testpmd_case.sh) must
# catch an RTL defect.  Builds nicsim with the planted defect of
# rtl/rx_queue.v (NICSIM_PLANT_RX_WB_LEN: the 82599's receive write-back
# length 4 bytes too long) into BUILD_DIR/plant, runs the case with it and
# passes (exit 0) only when the case fails and its message names a frame
# and a byte.
#
#   testbench/cosim/plant.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: plant.sh BUILD_DIR}
build=$(cd "$build" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
echo "cosim-plant: building nicsim with NICSIM_PLANT_RX_WB_LEN into $build/plant (log $build/plant.log)"
if ! make -C "$top" --no-print-directory BUILD="$build/plant" VL_DEFINES=+define+NICSIM_PLANT_RX_WB_LEN \
        "$build/plant/nicsim" > "$build/plant.log" 2>&1; then
    echo "cosim-plant: the build failed: $(tail -3 "$build/plant.log")" >&2
    exit 2
fi
# shellcheck source=../tools/junit.sh
. "$top/testbench/tools/junit.sh"
# shellcheck source=testpmd_case.sh
. "$here/testpmd_case.sh"
testpmd_fail=
testpmd_case "$build" 82599 "$build/plant/nicsim" 2> "$build/plant-case.err"
if [ -z "$testpmd_fail" ]; then
    echo "cosim-plant: FAIL: the DPDK case passed on an RTL whose RX write-back length is 4 bytes too long" >&2
    exit 1
fi
if ! grep -q 'frame [0-9]*, byte [0-9]*' <<< "$testpmd_fail"; then
    echo "cosim-plant: FAIL: the DPDK case failed without naming a frame and byte: $testpmd_fail" >&2
    exit 1
fi
echo "cosim-plant: PASS: the DPDK case caught the planted defect: $testpmd_fail"

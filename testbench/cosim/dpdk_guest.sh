# Sourced by the scripts that boot `make cosim`'s guests (bash):
# guest_root and guest_init build the root and PID 1 every guest shares
# (testbench/cosim/cosim.sh's nicsim-hw guest too); the dpdk_guest_*
# functions the guest that runs DPDK's testpmd against nicsim's RTL
# (testbench/cosim/testpmd_case.sh, the make cosim cases;
# testbench/cosim/dpdk_probe.sh, the probe).
#
#   dpdk_guest_initramfs OUTDIR CACHE TESTPMD_ARGS SCRIPT
#
# builds OUTDIR/initramfs.cpio: busybox, uio + uio_pci_generic (from the
# `make hil` kernel in CACHE), 128 x 2 MiB hugepages, dpdk-testpmd with
# every shared library ldd names (each at its own path, with the dynamic
# loader), the ring mempool and e1000 (em) PMD plugins, and testbench/cosim/testpmd_guest.sh as
# /dpdk/run.sh; the guest binds every 8086:10f7 / 8086:1010 function to
# uio_pci_generic and runs
#   dpdk-testpmd EAL-ARGS -- TESTPMD_ARGS
# interactively, feeding it SCRIPT's lines (testpmd_guest.sh names the
# forms).  EAL: two lcores (main + one forwarding), IOVA as physical
# addresses (the proxy DMAs to guest-physical addresses, there is no
# vIOMMU), the plugin, no telemetry.  The guest's PID 1 ends with its
# status through isa-debug-exit: QEMU exits with (status << 1) | 1.
#
# Needs Debian 12's DPDK 22.11 on the host (`dpdk-testpmd` is in dpdk-dev).

dpdk_guest_testpmd() { command -v dpdk-testpmd; }

# The root every cosim guest starts from: busybox and the uio modules of
# the `make hil` kernel in CACHE.
guest_root() { # ROOT CACHE
    rm -rf "$1"
    mkdir -p "$1"/{bin,proc,sys,dev,lib/modules}
    cp /bin/busybox "$1/bin/busybox"
    cp "$2"/modules/uio.ko "$2"/modules/uio_pci_generic.ko "$1/lib/modules/"
}

# ROOT/init, the guest's PID 1: mounts, uio + uio_pci_generic, HUGEPAGES
# 2 MiB pages, then `sh RUN`; its status is printed as "TAG: N" and leaves
# through isa-debug-exit (QEMU exits with (status << 1) | 1).
guest_init() { # ROOT TAG HUGEPAGES RUN
    cat > "$1/init" <<INIT
#!/bin/busybox sh
# PID 1 of a cosim guest (testbench/cosim/dpdk_guest.sh, guest_init).
/bin/busybox --install -s 2>/dev/null
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
finish() {
    echo "$2: \$1"
    printf "\\\\\$(printf %03o "\$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
    poweroff -f
}
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev || finish 126
mkdir -p /dev/hugepages /dev/shm
mount -t hugetlbfs hugetlbfs /dev/hugepages || finish 126
mount -t tmpfs tmpfs /dev/shm
insmod /lib/modules/uio.ko && insmod /lib/modules/uio_pci_generic.ko || finish 126
echo $3 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
sh $4
finish \$?
INIT
    chmod +x "$1/init"
}

# QEMU's command for such a guest, after `nicsim qemu SCENARIO ... --`,
# into the array DPDK_QEMU: 1 GiB (hugepages), 2 vCPUs (testpmd wants a
# forwarding lcore besides the main one), -cpu max (DPDK's x86 build needs
# SSE4.2, which TCG's default qemu64 lacks).
dpdk_guest_qemu() { # OUTDIR CACHE
    DPDK_QEMU=(qemu-system-x86_64 -accel tcg -M pc,memory-backend=mem -bios /usr/share/qemu/qboot.rom -cpu max
        -object memory-backend-memfd,id=mem,size=1G,share=on -m 1G -smp 2
        -nodefaults -display none -serial stdio -no-reboot
        -kernel "$2/vmlinux" -initrd "$1/initramfs.cpio" -append "console=ttyS0 panic=-1 loglevel=4"
        -device isa-debug-exit,iobase=0xf4,iosize=0x04)
}

dpdk_guest_initramfs() { # OUTDIR CACHE TESTPMD_ARGS SCRIPT
    local out=$1 cache=$2 args=$3 script=$4 here testpmd plugdir root lib gcc_s f dplugs=
    local plugins="librte_mempool_ring.so.23 librte_net_e1000.so.23"
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    testpmd=$(dpdk_guest_testpmd) || { echo "no dpdk-testpmd (apt-get install dpdk-dev)" >&2; return 1; }
    plugdir=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
    [ -d "$plugdir" ] || plugdir=$(dirname "$(ldd "$testpmd" | awk '/librte_bus_pci/ {print $3}')")
    for f in "$cache/vmlinux" "$cache/modules/uio.ko" "$cache/modules/uio_pci_generic.ko"; do
        [ -e "$f" ] || { echo "missing $f (testbench/hil/fetch.sh)" >&2; return 1; }
    done
    root=$out/rootfs
    guest_root "$root" "$cache"
    mkdir -p "$root"/{tmp,var/run,dpdk}
    _dg_copy() { mkdir -p "$root$(dirname "$1")" && cp -L "$1" "$root$1"; }
    _dg_copy "$testpmd"
    {
        # every library, at the path the loader resolved it to, and the
        # loader itself (the "/lib64/ld-linux-x86-64.so.2 (0x...)" line)
        ldd "$testpmd" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'
        # the plugins testpmd does not link but needs: the ring mempool
        # handler, and the e1000 PMD (em, for the 82546; the ixgbe PMD is
        # linked)
        for f in $plugins; do
            echo "$plugdir/$f"
            ldd "$plugdir/$f" | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
        done
        # glibc dlopens libgcc_s for pthread_cancel (testpmd's exit path
        # aborts without it); ldd does not name it
        gcc_s=$(ldconfig -p | awk '/libgcc_s.so.1 .*x86-64/ {f = $NF} END {print f}')
        [ -n "$gcc_s" ] && echo "$gcc_s"
    } | sort -u > "$out/libs.txt"
    while read -r lib; do _dg_copy "$lib" || return 1; done < "$out/libs.txt"
    for f in $plugins; do dplugs="$dplugs -d $plugdir/$f"; done
    echo "$testpmd -l 0-1 -n 1 --iova-mode=pa$dplugs --no-telemetry" \
         "--log-level=lib.eal:${DPDK_EAL_LOG:-notice} ${DPDK_EAL_EXTRA:-} -- -i $args" > "$root/dpdk/cmdline"
    printf '%s\n' "$script" > "$root/dpdk/script"
    cp "$here/testpmd_guest.sh" "$root/dpdk/run.sh"
    guest_init "$root" DPDK-GUEST-EXIT 128 /dpdk/run.sh
    chmod +x "$root/init" "$root/dpdk/run.sh"
    (cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) > "$out/initramfs.cpio"
}

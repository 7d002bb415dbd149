#!/usr/bin/env bash
# fetch.sh CACHE_DIR -- prepare everything the HIL guest needs, idempotently.
#
#   * host packages qemu-system-x86 and busybox-static (installed only if missing,
#     without recommends: ~17 MB instead of ~160 MB);
#   * the Debian kernel that linux-image-amd64 currently points at, unpacked with
#     dpkg-deb (no real install: that would run update-initramfs, ~50 s);
#   * CACHE_DIR/vmlinux: the uncompressed ELF kernel, so QEMU can PVH-boot it and
#     skip the slow in-guest decompression under TCG;
#   * CACHE_DIR/modules/*.ko: uio/vfio modules (plus e1000 for experiments).
# CACHE_DIR/ready is written last; while it exists and names a kernel whose files
# are present, the script does nothing and returns at once.
set -euo pipefail

die() { echo "fetch.sh: error: $*" >&2; exit 1; }
step() { echo "fetch.sh: $*"; }

[[ $# -eq 1 ]] || die "usage: fetch.sh CACHE_DIR"
mkdir -p "$1"
CACHE=$(cd "$1" && pwd)
# One fetch at a time per cache: `make hil cosim` runs both at once (make
# -j), and both fetch into the same cache; the second waits, then finds it
# ready.
exec 9> "$CACHE/.lock"
flock 9

# Modules for both modes, in load order. e1000 is only for manual experiments
# (e.g. making a NIC transmit with the kernel driver); guest.sh does not load it.
MODULES=(uio uio_pci_generic vfio vfio_iommu_type1 vfio_virqfd irqbypass
         vfio-pci-core vfio-pci e1000)

# --- fast path: nothing to do ------------------------------------------------
# Ask dpkg (~10 ms) rather than test for /bin/busybox: a dynamically linked
# busybox from the plain busybox package would not run in the guest.
missing_pkgs() {
    local p
    for p in qemu-system-x86 busybox-static; do
        [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == *' ok installed' ]] || echo "$p"
    done
}
if [[ -f $CACHE/ready && -f $CACHE/vmlinux && -d $CACHE/modules && -z $(missing_pkgs) ]]; then
    step "cache $CACHE is ready (kernel $(cat "$CACHE/ready")), nothing to do"
    exit 0
fi
rm -f "$CACHE/ready"   # anything below may be half done: redo until ready is rewritten

# --- host packages -------------------------------------------------------------
mapfile -t missing < <(missing_pkgs)
if ((${#missing[@]})); then
    step "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || die "apt-get update failed"
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
        die "apt-get install ${missing[*]} failed"
else
    step "host packages present"
fi

# --- kernel package ------------------------------------------------------------
# linux-image-amd64 is a metapackage; its Depends names the versioned image.
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
      awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
[[ -n $pkg ]] || die "cannot find the kernel image linux-image-amd64 depends on (apt-get update?)"
deb=$(ls "$CACHE"/"${pkg}"_*.deb 2>/dev/null | head -n1 || true)
if [[ -z $deb ]]; then
    step "downloading $pkg"
    # Sandbox user root: the _apt user may not be able to write into CACHE_DIR.
    (cd "$CACHE" && apt-get download -qq -o APT::Sandbox::User=root "$pkg") || die "apt-get download $pkg failed"
    deb=$(ls "$CACHE"/"${pkg}"_*.deb | head -n1)
else
    step "have $(basename "$deb")"
fi

step "extracting $(basename "$deb") into $CACHE/root"
rm -rf "$CACHE/root"
dpkg-deb -x "$deb" "$CACHE/root" || die "dpkg-deb -x $deb failed"
kver=$(ls "$CACHE/root/lib/modules" | head -n1)
[[ -n $kver ]] || die "no lib/modules/<version> in $deb"
bz="$CACHE/root/boot/vmlinuz-$kver"
[[ -f $bz ]] || die "$bz missing"

# --- vmlinux from the bzImage's XZ payload -------------------------------------
# The payload starts at the XZ stream magic FD 37 7A 58 5A 00. The bytes after the
# stream (the decompressor's trailer) make xz complain, so keep its stdout and
# accept failure as long as the result is an ELF file.
step "extracting vmlinux from $(basename "$bz")"
# LC_ALL=C: in a UTF-8 locale grep -P will not match the raw byte 0xfd.
off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" | head -n1 | cut -d: -f1 || true)
[[ -n $off ]] || die "no XZ payload found in $bz"
tail -c +$((off + 1)) "$bz" | xz -dc > "$CACHE/vmlinux.tmp" 2>/dev/null || true
[[ $(head -c4 "$CACHE/vmlinux.tmp" | od -An -tx1 | tr -d ' ') == 7f454c46 ]] ||
    die "decompressed payload of $bz is not an ELF file"
mv "$CACHE/vmlinux.tmp" "$CACHE/vmlinux"

# --- modules -------------------------------------------------------------------
step "copying modules into $CACHE/modules"
rm -rf "$CACHE/modules"; mkdir -p "$CACHE/modules"
mdir="$CACHE/root/lib/modules/$kver"
for m in "${MODULES[@]}"; do
    # Module names treat - and _ alike; file names use either.
    pat=${m//[-_]/[-_]}
    f=$(find "$mdir/kernel" -name "$pat.ko*" | head -n1)
    if [[ -n $f ]]; then
        cp "$f" "$CACHE/modules/"
    elif grep -q "/${pat}.ko" "$mdir/modules.builtin"; then
        step "  $m is built in"
    else
        die "module $m neither in $mdir/kernel nor built in"
    fi
done
step "  $(cd "$CACHE/modules" && echo *)"

echo "$kver" > "$CACHE/ready"
step "ready: kernel $kver"

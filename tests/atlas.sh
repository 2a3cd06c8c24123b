#!/bin/sh
# The atlas line at the end of a sweep's summary (docs/atlas.md), on recorded
# runs: an atlas of two machine kinds; the summary of a run of one of them
# names the other alone; STUBBENCH_ATLAS=none prints no line; bench/atlas.py
# adds an entry named by the microarchitecture and refuses what it must.
# usage: atlas.sh STUBBENCH SOURCE_DIR
set -u
exe=$1 src=$2 d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
data=$src/tests/data/across
python3 "$src/bench/atlas.py" --atlas "$d/atlas" "$data/zen4-host.json" --cpuid=AuthenticAMD,0x19,0x11,1 \
  --hypervisor=KVM --microarchitecture="Zen 4" --source=test >/dev/null || no "atlas.py: zen4"
python3 "$src/bench/atlas.py" --atlas "$d/atlas" "$data/xeon-0xcf-padded.json" --cpuid=GenuineIntel,6,0xcf,2 \
  --hypervisor=KVM --microarchitecture="Emerald Rapids" --source=test >/dev/null || no "atlas.py: xeon"
[ -f "$d/atlas/amd-zen-4-vm.json" ] && [ -f "$d/atlas/intel-emerald-rapids-vm.json" ] || no "entries: $(ls "$d/atlas")"
# Refused: a second entry of one kind, a run without cpuid and no --cpuid.
python3 "$src/bench/atlas.py" --atlas "$d/atlas" "$data/zen4-host.json" --cpuid=AuthenticAMD,0x19,0x11,1 \
  --hypervisor=KVM --microarchitecture="Zen 4" --source=test 2>"$d/err"; rc=$?
[ $rc -eq 2 ] && grep -q "exists" "$d/err" || no "a second Zen 4 entry: exit $rc"
python3 "$src/bench/atlas.py" --atlas "$d/atlas" "$data/zen4-host.json" 2>"$d/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--cpuid" "$d/err" || no "no cpuid: exit $rc"
# The Emerald Rapids run's summary places it among the others: the Zen 4
# run's host-private (+2.82 in its file, a schema 2 run), not its own.
out=$(STUBBENCH_ATLAS="$d/atlas" "$exe" report "$d/atlas/intel-emerald-rapids-vm.json")
line=$(printf '%s\n' "$out" | grep 'elsewhere')
[ "$line" = "host-private elsewhere (cycles, a run each): Zen 4 +2.82" ] || no "the line: '$line'"
[ "$(printf '%s\n' "$out" | tail -n 1)" = "$line" ] || no "the line is not the summary's last"
out=$(STUBBENCH_ATLAS=none "$exe" report "$d/atlas/intel-emerald-rapids-vm.json")
printf '%s\n' "$out" | grep -q elsewhere && no "STUBBENCH_ATLAS=none still prints the line"
exit $fail

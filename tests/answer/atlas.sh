#!/bin/sh
# The atlas line at the end of a sweep's summary (docs/atlas.md), on recorded
# runs: an atlas of two machine kinds; the summary of a run of one of them
# names the other alone; STUBBENCH_ATLAS=none prints no line; bench/atlas.py
# adds an entry named by the microarchitecture and refuses what it must.
# usage: atlas.sh STUBBENCH SOURCE_DIR
set -u
exe=$1 src=$2 d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
. "$(dirname "$0")/../common/check.sh"
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
# Hostile input: one line, status 2, never a traceback, nothing left behind.
# refuses NAME NEEDLE ARGS...
refuses() {
    name=$1 needle=$2
    shift 2
    python3 "$src/bench/atlas.py" --atlas "$d/atlas" "$@" >/dev/null 2>"$d/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$d/err")" -eq 1 ] && grep -qF -- "$needle" "$d/err" ||
        no "$name: exit $rc: $(head -3 "$d/err")"
}
python3 -c 'print("[" * 100000 + "]" * 100000)' >"$d/deep.json"
refuses deep_nesting "nested too deeply" "$d/deep.json"
printf '{"tool": "stubbench", "cpuid": {"vendor": "GenuineIntel", "family": "six", "model": 1, "stepping": 1}}' >"$d/bad.json"
refuses cpuid_type "cpuid.family is missing or not a whole number" "$d/bad.json"
printf '{"tool": "stubbench", "cpuid": [1]}' >"$d/bad2.json"
refuses cpuid_not_object "cpuid is not an object" "$d/bad2.json"
printf '\377\376{}' >"$d/bin.json"
refuses not_utf8 "not UTF-8 text" "$d/bin.json"
refuses no_letters "has no letter" "$data/zen4-host.json" --cpuid=Foo,1,2,3 --microarchitecture="42 !!" --source=test
[ -z "$(ls -A "$d/atlas" | grep '^\.')" ] || no "a hidden file was written: $(ls -A "$d/atlas")"
# The same machine kind under another name is the same entry: refused, and replaced only when asked.
refuses same_kind "amd-zen-4-vm.json exists" "$data/zen4-host.json" --cpuid=AuthenticAMD,0x19,0x11,1 \
  --hypervisor=KVM --microarchitecture="Zen4" --source=test
python3 "$src/bench/atlas.py" --atlas "$d/atlas" "$data/zen4-host.json" --cpuid=AuthenticAMD,0x19,0x11,1 \
  --hypervisor=KVM --microarchitecture="Zen4" --source=test --replace >/dev/null 2>"$d/err" || no "--replace: $(cat "$d/err")"
[ -f "$d/atlas/amd-zen4-vm.json" ] && [ ! -e "$d/atlas/amd-zen-4-vm.json" ] || no "--replace: $(ls "$d/atlas")"
# A write cut short (a file size limit, as a full disk): said, no temporary left.
(ulimit -f 1; python3 "$src/bench/atlas.py" --atlas "$d/atlas" "$data/xeon-0xcf-padded.json" \
  --cpuid=GenuineIntel,6,0xcf,2 --hypervisor=KVM --microarchitecture="Emerald Rapids" --source=test --replace) \
  >/dev/null 2>"$d/err"; rc=$?
[ $rc -eq 2 ] && grep -q "not written" "$d/err" && [ -z "$(ls -A "$d/atlas" | grep '^\.atlas-')" ] ||
    no "a write cut short: exit $rc: $(cat "$d/err"); $(ls -A "$d/atlas")"
# The Emerald Rapids run's summary places it among the others: the Zen 4
# run's host-private (+2.82 in its file, a schema 2 run), not its own.
out=$(STUBBENCH_ATLAS="$d/atlas" "$exe" report "$d/atlas/intel-emerald-rapids-vm.json")
line=$(printf '%s\n' "$out" | grep 'elsewhere')
[ "$line" = "host-private elsewhere (cycles, a run each): Zen 4 +2.82" ] || no "the line: '$line'"
[ "$(printf '%s\n' "$out" | tail -n 1)" = "$line" ] || no "the line is not the summary's last"
out=$(STUBBENCH_ATLAS=none "$exe" report "$d/atlas/intel-emerald-rapids-vm.json")
printf '%s\n' "$out" | grep -q elsewhere && no "STUBBENCH_ATLAS=none still prints the line"
checks_done atlas

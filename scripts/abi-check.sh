#!/usr/bin/env bash
# Releases break only on purpose: the header of the last release (packaging/abi/blinkengage-<version>.h, copied from
# its release commit) against today's include/blinkengage.h and dist/lib.
#   1. every function of the release is still declared, with a type C finds compatible: today's header is compiled
#      with the release's prototypes declared again after it (a changed parameter or return type fails to compile);
#   2. every struct member and enum constant of the release keeps its offset, size or value (a struct may grow at its
#      end only), read by the same program built once against each header;
#   3. every function is exported by the release library (when dist/ is built);
#   4. every function added since the release is named in CHANGELOG.md before "## 0.1.0" (a `prefix_*` counts).
#   5. abidiff (Debian's abigail-tools) of the release's ABI, kept as abigail XML (packaging/abi/blinkengage-<version>.abi,
#      written by scripts/abi-probe.sh from the release's header), against today's: no function removed or changed,
#      no type changed but a struct grown at its end (be_stats, passed with its struct_size). It is first shown headers
#      with a function removed and with a struct member retyped, which it must refuse.
# Adding passes; removing or changing fails. (The library's own DWARF cannot serve abidw: its C entry points are
# Swift functions, whose DWARF carries Swift types; so the types come from the header, through a C probe.)
set -euo pipefail
cd "$(dirname "$0")/.."
release=${1:-0.2.0}
old=packaging/abi/blinkengage-$release.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/old" "$work/new"
cp "$old" "$work/old/blinkengage.h"
cp include/blinkengage.h "$work/new/blinkengage.h"

python3 - "$work" "$release" <<'PY'
import re, sys
work, release = sys.argv[1], sys.argv[2]

def code(path):
    text = open(path).read()
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return '\n'.join(line for line in text.split('\n') if not line.strip().startswith('#'))

def prototypes(path):
    found = {}
    for statement in code(path).split(';'):
        statement = ' '.join(statement.split()).split('}')[-1].strip()
        match = re.search(r'\b(be_[a-z0-9_]+)\s*\(', statement)
        if match and not statement.startswith('typedef'):
            found[match.group(1)] = statement + ';'
    return found

def records(path):
    structs, enums = {}, []
    for kind, name, body in re.findall(r'typedef (struct|enum) (be_[a-z0-9_]+) \{(.*?)\}', code(path), flags=re.S):
        if kind == 'struct':
            structs[name] = re.findall(r'(\w+)\s*(?:\[[^\]]*\])?\s*;', body)
        else:
            enums += re.findall(r'\b(BE_[A-Z0-9_]+)\b', body)
    return structs, enums

old, new = prototypes(f'{work}/old/blinkengage.h'), prototypes(f'{work}/new/blinkengage.h')
removed = sorted(set(old) - set(new))
if removed:
    sys.exit(f'abi: {release} functions no longer declared: {", ".join(removed)}')
with open(f'{work}/redeclare.c', 'w') as out:
    out.write('#include "blinkengage.h"\n/* The release\'s prototypes again: an incompatible type is an error. */\n')
    out.write('\n'.join(old.values()) + '\n')
structs, enums = records(f'{work}/old/blinkengage.h')
with open(f'{work}/layout.c', 'w') as out:
    out.write('#include <stddef.h>\n#include <stdio.h>\n#include "blinkengage.h"\nint main(void) {\n')
    for name, members in structs.items():
        out.write(f'    printf("{name} size %zu\\n", sizeof({name}));\n')
        for member in members:
            out.write(f'    printf("{name}.{member} %zu %zu\\n", offsetof({name}, {member}), sizeof((({name} *)0)->{member}));\n')
    for constant in enums:
        out.write(f'    printf("{constant} %d\\n", (int){constant});\n')
    out.write('    return 0;\n}\n')
changelog = open('CHANGELOG.md').read().split('## 0.1.0')[0]
prefixes = [p for p in re.findall(r'`(be_[a-z0-9_]*)\*`', changelog)]
unnamed = [f for f in sorted(set(new) - set(old)) if f not in changelog and not any(f.startswith(p) for p in prefixes)]
if unnamed:
    sys.exit(f'abi: added since {release} but not in CHANGELOG.md: {", ".join(unnamed)}')
open(f'{work}/declared', 'w').write('\n'.join(sorted(new)) + '\n')
print(f'abi: {len(old)} functions of {release} kept, {len(set(new) - set(old))} added and named in CHANGELOG.md; '
      f'{len(structs)} structs, {len(enums)} enum constants checked')
PY

gcc -std=c99 -Wall -Werror -pedantic -fsyntax-only -I "$work/new" "$work/redeclare.c"
gcc -std=c99 -I "$work/old" "$work/layout.c" -o "$work/layout-old"
gcc -std=c99 -I "$work/new" "$work/layout.c" -o "$work/layout-new"
"$work/layout-old" > "$work/old.txt"
"$work/layout-new" > "$work/new.txt"
while read -r name value rest; do
  now=$(grep -m1 "^$name " "$work/new.txt" || true)
  if [[ "$name" == *" size" || "$value" == size ]]; then
    old_size=${rest}; new_size=$(awk '{print $3}' <<<"$now")
    [ "$new_size" -ge "$old_size" ] || { echo "abi: $name shrank from $old_size to $new_size bytes" >&2; exit 1; }
  elif [ "$now" != "$name $value${rest:+ $rest}" ]; then
    echo "abi: $name was '$value${rest:+ $rest}' in $release, is '${now#"$name "}' now" >&2
    exit 1
  fi
done < "$work/old.txt"
if [ -f dist/lib/libblinkengage.so.1 ]; then
  missing=$(comm -23 "$work/declared" <(nm -D --defined-only dist/lib/libblinkengage.so.1 | awk '$2 == "T" {print $3}' | sort))
  [ -z "$missing" ] || { echo "abi: declared but not exported: $missing" >&2; exit 1; }
fi
echo "abi: every struct member and enum constant of $release has its offset, size or value; the header compiles with its prototypes"

# 5. abidiff against the release's ABI kept in the repository.
baseline=packaging/abi/blinkengage-$release.abi
command -v abidiff >/dev/null || { echo "abi: abidiff is missing (apt-get install abigail-tools)" >&2; exit 1; }
compatible() {  # abidiff's verdict on an ABI file: nothing removed or changed but structs grown at their end
  local report status=0
  report=$(abidiff "$baseline" "$1") || status=$?
  (( status & 1 || status & 2 )) && { echo "abi: abidiff could not run: $report" >&2; exit 1; }
  printf '%s\n' "$report" > "$work/report"
  python3 - "$work/report" <<'PY' || { echo "$report"; return 1; }
import re, sys
report = open(sys.argv[1]).read()
summary = re.findall(r"^(Functions|Variables) changes summary: (\d+) Removed, (\d+) Changed", report, re.M)
if any(int(removed) for _, removed, _ in summary):
    sys.exit(1)
# A changed function or variable passes only when every change in it is a struct grown at its end (be_stats, which
# callers pass with its struct_size): its size grew and each insertion lies at or past the old end.
allowed_path = re.compile(r"^\s*(\[C\] '.*' was changed:|type of variable changed:|in (unqualified underlying|pointed to) type .*:|"
                          r"parameter \d+ of type .* has sub-type changes:|underlying type 'struct \w+' changed:|"
                          r"\d+ data member insertions?:|)$")
old_size = None
for row in report.splitlines():
    size = re.match(r"^\s*type size changed from (\d+) to (\d+) \(in bits\)$", row)
    insertion = re.match(r"^\s*'.*', at offset (\d+) \(in bits\)$", row)
    if size:
        old_size = int(size.group(1))
        if int(size.group(2)) < old_size:
            sys.exit(1)
    elif insertion:
        if old_size is None or int(insertion.group(1)) < old_size:
            sys.exit(1)
    elif not (allowed_path.match(row) or re.match(r"^\s*\[A\] |^\s*\d+ (Added|Changed) (variables?|functions?):$|^(Functions|Variables) changes summary:", row)):
        sys.exit(1)
PY
}
for breakage in '/^const char \*be_offer_title(/d' 's/    uint64_t requests_sent;/    uint32_t requests_sent;/'; do
  sed -e "$breakage" include/blinkengage.h > "$work/broken.h"
  scripts/abi-probe.sh "$work/broken.h" "$work/broken.abi"
  if compatible "$work/broken.abi" >/dev/null; then
    echo "abi: abidiff passed a broken header (sed '$breakage')" >&2
    exit 1
  fi
done
scripts/abi-probe.sh include/blinkengage.h "$work/today.abi"
compatible "$work/today.abi" >&2 || { echo "abi: abidiff: today's header breaks $release's ABI (report above)" >&2; exit 1; }
echo "abi: abidiff against $baseline: nothing removed or changed but be_stats grown at its end (broken headers refused)"

#!/usr/bin/env bash
# Writes <dump>.reference.json beside each heap dump given (default: every test/fixtures/heap-dumps/
# *.hprof.gz): what VisualVM's heap library says about it (scripts/reference/HeapReference.java), the
# independent reference the HPROF reader is checked against (issue 36).
# Usage: scripts/reference/reference.sh [dump...]
# Needs a JDK (javac, java) and Debian's visualvm package (apt-get install visualvm), which ships
# org-graalvm-visualvm-lib-jfluid-heap.jar; python3 pretty-prints the JSON so diffs read line by line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
jar=$(dpkg -L visualvm 2>/dev/null | grep 'org-graalvm-visualvm-lib-jfluid-heap.jar$' || true)
[ -n "$jar" ] || { echo "visualvm is not installed: apt-get install visualvm" >&2; exit 2; }
version=$(dpkg-query -W -f '${Version}' visualvm)
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
javac -cp "$jar" -d "$classes" "$here/HeapReference.java"
[ $# -gt 0 ] || set -- "$repo"/test/fixtures/heap-dumps/*.hprof.gz
for dump in "$@"; do
  echo "java -Dvisualvm.version=$version -cp <classes>:$jar HeapReference $dump" >&2
  # exit status 1 with an "error" field is kept too: what VisualVM makes of a dump cut short
  java "-Dvisualvm.version=$version" -cp "$classes:$jar" HeapReference "$dump" >"$classes/out.json" || true
  python3 -m json.tool --indent 2 "$classes/out.json" >"${dump%.gz}"; mv "${dump%.gz}" "$dump.reference.json"
done

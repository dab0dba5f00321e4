#!/usr/bin/env bash
# Unpacks Debian's 32-bit (i386) OpenJDK 17 JRE into <dir>, without installing it, and writes
# <dir>/java32: a `java` that runs it through the i386 loader. A 32-bit HotSpot writes heap dumps
# with 4-byte identifiers (sizeof(address)), which no 64-bit JVM does.
# Installing openjdk-17-jre-headless:i386 instead would upgrade the machine's amd64 JDK and systemd to
# match versions (apt-get -s showed 58 upgrades), so the .debs are only downloaded and unpacked.
# Usage: scripts/capture/heap/fetch-java32.sh <dir>
# Needs: dpkg --add-architecture i386 && apt-get update first (undo with dpkg --remove-architecture i386).
set -euo pipefail
dir=${1:?usage: fetch-java32.sh <dir>}
mkdir -p "$dir/debs"
dir=$(cd "$dir" && pwd)
(cd "$dir/debs" && apt-get download openjdk-17-jre-headless:i386 libc6:i386 libgcc-s1:i386 libstdc++6:i386 zlib1g:i386)
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
jvm=$(ls -d "$dir"/root/usr/lib/jvm/java-17-openjdk-i386)
cat >"$dir/java32" <<WRAPPER
#!/bin/sh
exec "$dir/root/lib/ld-linux.so.2" --library-path "$dir/root/lib/i386-linux-gnu:$dir/root/usr/lib/i386-linux-gnu:$jvm/lib:$jvm/lib/server" "$jvm/bin/java" "\$@"
WRAPPER
chmod +x "$dir/java32"
ls "$dir"/debs >"$dir/debs.txt"
"$dir/java32" -version

#!/usr/bin/env bash
# Builds OUT_DIR/travel-companion_<version>_<arch>.deb with dpkg-deb from a release build:
#   scripts/build-deb.sh BIN_DIR GENERATED_DIR OUT_DIR        (make deb)
# The tree is what `make install PREFIX=/usr` lays out (scripts/install.sh package), plus
# packaging/deb: the control fields, the maintainer scripts, copyright and changelog. Depends
# comes from dpkg-shlibdeps on the binaries. The version is the binaries' own (--version) and
# must match packaging/deb/changelog. DEB_COMPRESSION (default xz) is passed to dpkg-deb -Z.
set -euo pipefail

bin=${1:?usage: build-deb.sh BIN_DIR GENERATED_DIR OUT_DIR}
generated=${2:?usage: build-deb.sh BIN_DIR GENERATED_DIR OUT_DIR}
out=${3:?usage: build-deb.sh BIN_DIR GENERATED_DIR OUT_DIR}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
packaging=$source_dir/packaging/deb

version=$("$bin/travelctl" --version)
changelog_version=$(sed -n '1s/^travel-companion (\([^)]*\)).*/\1/p' "$packaging/changelog")
if [[ $version != "$changelog_version" ]]; then
    echo "build-deb: travelctl says $version, packaging/deb/changelog says $changelog_version" >&2
    exit 1
fi
arch=$(dpkg --print-architecture)

# The tree in debian/<package> under a minimal source control file, where dpkg-shlibdeps expects it.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/debian/travel-companion
mkdir -p "$root/DEBIAN"
printf 'Source: travel-companion\n\nPackage: travel-companion\nArchitecture: any\n' >"$work/debian/control"
PREFIX=/usr DESTDIR=$root "$source_dir/scripts/install.sh" package "$bin" "$generated"

doc=$root/usr/share/doc/travel-companion
install -m 644 "$packaging/copyright" "$doc/copyright"
gzip -9nc "$packaging/changelog" >"$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"

# Depends: the shared libraries the binaries need, with the versions their symbols require.
depends=$(cd "$work" && dpkg-shlibdeps -O debian/travel-companion/usr/bin/travel-companiond \
    debian/travel-companion/usr/bin/travelctl)
depends=${depends#shlibs:Depends=}

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
    -e "s/@DEPENDS@/$depends/" "$packaging/control" >"$root/DEBIAN/control"
echo /etc/travel-companion/travel-companion.conf >"$root/DEBIAN/conffiles"
install -m 755 "$packaging/postinst" "$packaging/prerm" "$packaging/postrm" "$root/DEBIAN/"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

mkdir -p "$out"
package=$out/travel-companion_${version}_$arch.deb
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" --build "$root" "$package" >/dev/null
echo "$package"

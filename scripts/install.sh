#!/usr/bin/env bash
# Installs TravelCompanion from a release build, or removes what an install put there.
#
#   scripts/install.sh install BIN_DIR GENERATED_DIR   (make install)
#   scripts/install.sh uninstall                        (make uninstall)
#   scripts/install.sh package BIN_DIR GENERATED_DIR   (the Debian package's tree)
#
# BIN_DIR holds the built travel-companiond and travelctl, GENERATED_DIR the man pages (man/)
# and shell completions (completions/) made from them. Environment: PREFIX (default /usr/local),
# DESTDIR (a staging root, default none).
#
# The configuration goes to /etc/travel-companion whatever the prefix, since that is where the
# daemon reads it. A copy of the shipped file is kept in $PREFIX/share/travel-companion: an
# install replaces /etc's file only while it still equals that copy (nobody changed it), and
# uninstall removes it only then; a changed configuration is never overwritten or removed.
# Everything else install writes is listed in $PREFIX/share/travel-companion/installed-files,
# which uninstall reads, so it removes exactly that. The state directory (the database) is
# never touched.
set -euo pipefail

mode=${1:?usage: install.sh install|uninstall|package [BIN_DIR GENERATED_DIR]}
source_dir=$(cd "$(dirname "$0")/.." && pwd)

prefix=${PREFIX:-/usr/local}
prefix=${prefix%/}
destdir=${DESTDIR:-}
destdir=${destdir%/}

bindir=$prefix/bin
datadir=$prefix/share
mandir=$datadir/man
docdir=$datadir/doc/travel-companion
unitdir=$prefix/lib/systemd/system
userunitdir=$prefix/lib/systemd/user
catalogdir=$prefix/lib/systemd/catalog
sysusersdir=$prefix/lib/sysusers.d
tmpfilesdir=$prefix/lib/tmpfiles.d
# Debian's zsh looks in vendor-completions under /usr, site-functions under /usr/local.
if [[ $prefix == /usr ]]; then zshdir=$datadir/zsh/vendor-completions; else zshdir=$datadir/zsh/site-functions; fi
configdir=/etc/travel-companion
config=$configdir/travel-companion.conf
shipped_config=$datadir/travel-companion/travel-companion.conf
manifest=$datadir/travel-companion/installed-files

installed=()

# put MODE SOURCE TARGET: installs one file under DESTDIR and records it.
put() {
    install -D -m "$1" "$2" "$destdir$3"
    installed+=("$3")
}

# put_unit SOURCE TARGET: a unit file, its /usr paths moved under PREFIX when that is not /usr.
put_unit() {
    local text
    text=$(<"$1")
    if [[ $prefix != /usr ]]; then
        text=$(sed -e "/^Exec/s|/usr/bin/|$bindir/|g" -e "/^Documentation=/s|/usr/share/doc/|$datadir/doc/|g" <<<"$text")
    fi
    install -d "$destdir$(dirname "$2")"
    printf '%s\n' "$text" >"$destdir$2"
    chmod 644 "$destdir$2"
    installed+=("$2")
}

# put_files BIN_DIR GENERATED_DIR PACKAGE: everything but the configuration; PACKAGE=yes for
# Debian's way: man pages compressed, binaries stripped of all but what linking needs.
put_files() {
    local bin=$1 generated=$2 package=$3 page name
    for name in travel-companiond travelctl; do
        [[ -x $bin/$name ]] || { echo "install: $bin/$name is not built (make release-static)" >&2; exit 1; }
    done
    [[ -d $generated/man && -d $generated/completions ]] \
        || { echo "install: no man pages or completions in $generated (make man completions)" >&2; exit 1; }
    # All or nothing: a half install would have no manifest for uninstall to go by.
    for name in systemd/travel-companion.service systemd/travel-companion.socket \
        systemd/travel-companion-notify.service systemd/travel-companion.sysusers \
        systemd/travel-companion.tmpfiles systemd/travel-companion.catalog config/travel-companion.conf \
        README.md docs/raspberry-pi.md data/gazetteer/gazetteer.bin data/gazetteer/LICENSE; do
        [[ -f $source_dir/$name ]] || { echo "install: $source_dir/$name is missing" >&2; exit 1; }
    done

    # make install drops the debug information (a third of the size) but keeps the symbols, which
    # the Swift runtime's crash backtraces name functions by; the package strips as Debian does.
    for name in travel-companiond travelctl; do
        put 755 "$bin/$name" "$bindir/$name"
        if [[ $package == yes ]]; then
            strip --strip-unneeded --remove-section=.comment --remove-section=.note "$destdir$bindir/$name"
        else
            strip --strip-debug "$destdir$bindir/$name"
        fi
    done

    put_unit "$source_dir/systemd/travel-companion.service" "$unitdir/travel-companion.service"
    put_unit "$source_dir/systemd/travel-companion.socket" "$unitdir/travel-companion.socket"
    put_unit "$source_dir/systemd/travel-companion-notify.service" "$userunitdir/travel-companion-notify.service"
    put 644 "$source_dir/systemd/travel-companion.sysusers" "$sysusersdir/travel-companion.conf"
    put 644 "$source_dir/systemd/travel-companion.tmpfiles" "$tmpfilesdir/travel-companion.conf"
    put 644 "$source_dir/systemd/travel-companion.catalog" "$catalogdir/travel-companion.catalog"
    put 644 "$source_dir/config/travel-companion.conf" "$shipped_config"
    # The offline place names, found by the binaries beside $bindir (GazetteerFile.swift).
    put 644 "$source_dir/data/gazetteer/gazetteer.bin" "$datadir/travel-companion/gazetteer.bin"
    put 644 "$source_dir/data/gazetteer/LICENSE" "$datadir/travel-companion/gazetteer-LICENSE"
    put 644 "$source_dir/README.md" "$docdir/README.md"
    put 644 "$source_dir/docs/raspberry-pi.md" "$docdir/raspberry-pi.md"

    for page in "$generated"/man/*.[18]; do
        name=$(basename "$page")
        if [[ $package == yes ]]; then
            install -d "$destdir$mandir/man${name##*.}"
            gzip -9nc "$page" >"$destdir$mandir/man${name##*.}/$name.gz"
            chmod 644 "$destdir$mandir/man${name##*.}/$name.gz"
            installed+=("$mandir/man${name##*.}/$name.gz")
        else
            put 644 "$page" "$mandir/man${name##*.}/$name"
        fi
    done
    for name in travel-companiond travelctl; do
        put 644 "$generated/completions/$name.bash" "$datadir/bash-completion/completions/$name"
        put 644 "$generated/completions/$name.zsh" "$zshdir/_$name"
        put 644 "$generated/completions/$name.fish" "$datadir/fish/vendor_completions.d/$name.fish"
    done
}

# Puts the shipped configuration in /etc unless someone changed the one there.
put_config() {
    local previous_shipped=$1 target=$destdir$config
    if [[ ! -e $target ]] || { [[ -n $previous_shipped ]] && cmp -s "$target" "$previous_shipped"; }; then
        install -D -m 644 "$source_dir/config/travel-companion.conf" "$target"
    elif ! cmp -s "$target" "$source_dir/config/travel-companion.conf"; then
        echo "install: kept your changed $config; the shipped one is $shipped_config"
    fi
}

print_next_steps() {
    cat <<EOF

TravelCompanion is installed under $prefix. To run it as a service:

  systemd-sysusers travel-companion.conf            # creates group travel
  systemd-tmpfiles --create travel-companion.conf
  journalctl --update-catalog                       # explains its journal entries (journalctl -x)
  systemctl daemon-reload
  systemctl enable --now travel-companion.socket travel-companion.service
  usermod -aG travel YOUR_USER                      # then log in again to use travelctl

Then: systemctl status travel-companion, journalctl -u travel-companion, travelctl status.
Settings: $config (see the README, "Install as a service").
EOF
}

case $mode in
install)
    bin=${2:?install needs BIN_DIR}
    generated=${3:?install needs GENERATED_DIR}
    # Remember the copy shipped by the previous install before put_files replaces it.
    previous_shipped=""
    if [[ -f $destdir$shipped_config ]]; then
        previous_shipped=$(mktemp)
        trap 'rm -f "$previous_shipped"' EXIT
        cp "$destdir$shipped_config" "$previous_shipped"
    fi
    put_files "$bin" "$generated" no
    put_config "$previous_shipped"
    installed+=("$manifest")
    install -d "$destdir$(dirname "$manifest")"
    printf '%s\n' "${installed[@]}" >"$destdir$manifest"
    echo "install: ${#installed[@]} files under ${destdir:-/}${destdir:+ }(prefix $prefix), configuration $config"
    [[ -n $destdir ]] || print_next_steps
    ;;
package)
    bin=${2:?package needs BIN_DIR}
    generated=${3:?package needs GENERATED_DIR}
    put_files "$bin" "$generated" yes
    install -D -m 644 "$source_dir/config/travel-companion.conf" "$destdir$config"
    ;;
uninstall)
    [[ -f $destdir$manifest ]] \
        || { echo "uninstall: nothing installed under prefix $prefix (no $destdir$manifest)" >&2; exit 1; }
    # On the live system, stop and disable the units first so no enablement link dangles.
    if [[ -z $destdir && -d /run/systemd/system ]]; then
        systemctl disable --now travel-companion.service travel-companion.socket 2>/dev/null || true
    fi
    if [[ -f $destdir$config ]]; then
        if [[ -f $destdir$shipped_config ]] && cmp -s "$destdir$config" "$destdir$shipped_config"; then
            rm -f "$destdir$config"
            # With the drop-in directory tmpfiles made, unless it holds drop-ins.
            [[ ! -d $destdir$config.d ]] || rmdir --ignore-fail-on-non-empty "$destdir$config.d"
            rmdir --ignore-fail-on-non-empty "$destdir$configdir"
        else
            echo "uninstall: kept $config, which you changed"
        fi
    fi
    mapfile -t listed <"$destdir$manifest"
    for file in "${listed[@]}"; do
        [[ $file == "$prefix"/* ]] || { echo "uninstall: $file is outside $prefix, left alone" >&2; continue; }
        rm -f "$destdir$file"
    done
    rmdir --ignore-fail-on-non-empty "$destdir$docdir" "$destdir$datadir/travel-companion"
    echo "uninstall: removed ${#listed[@]} files under ${destdir:-/}${destdir:+ }(prefix $prefix)"
    if [[ -z $destdir ]]; then
        [[ ! -d /run/systemd/system ]] || systemctl daemon-reload
        echo "The state directory (/var/lib/travel-companion) is kept; remove it to delete the history."
    fi
    ;;
*)
    echo "install.sh: unknown mode $mode (install, uninstall or package)" >&2
    exit 2
    ;;
esac

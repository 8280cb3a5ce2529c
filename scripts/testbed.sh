#!/bin/bash
# romio-xt testbed: a real distributed file system (MooseFS 3.0, Debian 12
# packages) on this one machine.  One master and N chunk servers, each in its
# own network namespace, joined by veth pairs to a bridge that lives inside the
# master's namespace; the FUSE client (mfsmount) runs in a client namespace,
# its mount is visible to every process on the machine.  Every address is
# inside the namespaces created here (10.254.77.0/24); the root namespace and
# the outside world get none.
#
#   scripts/testbed.sh start [--servers N] [--size SIZE] [--bandwidth RATE]
#                            [--latency T] [--cachemode MODE]
#   scripts/testbed.sh stop
#   scripts/testbed.sh status
#   scripts/testbed.sh probe     exit 0 if the packages are installed
#   scripts/testbed.sh spread FILE...   chunk -> chunk server map
#
# State: $XT_TESTBED_DIR (default /tmp/romio-xt-testbed); the mount point is
# $XT_TESTBED_DIR/mnt.  `start` prints the mount point as its last line.
# See docs/testbed.md.
set -u
STATE=${XT_TESTBED_DIR:-/tmp/romio-xt-testbed}
MNT=$STATE/mnt
NS=${XT_TESTBED_NS:-xtfs}          # namespace name prefix
NET=10.254.77                      # /24 used only inside the namespaces
MASTER_IP=$NET.1
CLIENT_IP=$NET.100
BR=xtbr0

die() { echo "testbed: error: $*" >&2; exit 1; }
say() { echo "testbed: $*" >&2; }

need() {  # need CMD PACKAGE
    command -v "$1" >/dev/null 2>&1 || die "$1 not found (install $2: scripts/install-deps.sh or apt-get install $2)"
}

probe() {
    local c
    for c in mfsmaster mfschunkserver mfsmount; do
        command -v $c >/dev/null 2>&1 || { echo "$c not installed"; return 1; }
    done
    [ "$(id -u)" = 0 ] || { echo "needs root (network namespaces, FUSE, loop devices)"; return 1; }
    [ -c /dev/fuse ] || { echo "/dev/fuse missing"; return 1; }
    return 0
}

running() { [ -f "$STATE/pids" ]; }

nsx() { ip netns exec "$@"; }       # run inside a namespace (own mount ns)
nsnet() { local n=$1; shift; nsenter --net=/run/netns/$n "$@"; }  # network only

# ---- network -------------------------------------------------------------
add_link() {  # add_link NS IP IFNAME : veth pair NS<->master bridge
    local ns=$1 ip=$2 ifn=$3
    ip link add "$ifn" type veth peer name "${ifn}b" || return 1
    ip link set "$ifn" netns "$ns" && ip link set "${ifn}b" netns "$NS-m" || return 1
    ip -n "$NS-m" link set "${ifn}b" master $BR up &&
        ip -n "$ns" addr add "$ip/24" dev "$ifn" &&
        ip -n "$ns" link set "$ifn" up && ip -n "$ns" link set lo up || return 1
    shape "$ns" "$ifn" && shape "$NS-m" "${ifn}b"
}

shape() {  # shape NS IF : optional bandwidth limit (tbf) on egress
    [ -n "$BANDWIDTH" ] || return 0
    ip netns exec "$1" tc qdisc add dev "$2" root tbf rate "$BANDWIDTH" burst 256kb latency 50ms ||
        { say "tc tbf on $1/$2 failed"; return 1; }
}

setup_net() {
    local i
    ip netns add "$NS-m" || return 1
    echo "$NS-m" >>"$STATE/netns"
    ip -n "$NS-m" link set lo up &&
        ip -n "$NS-m" link add $BR type bridge &&
        ip -n "$NS-m" addr add "$MASTER_IP/24" dev $BR &&
        ip -n "$NS-m" link set $BR up || return 1
    for i in $(seq 1 "$SERVERS") cl; do
        ip netns add "$NS-$i" || return 1
        echo "$NS-$i" >>"$STATE/netns"
    done
    for i in $(seq 1 "$SERVERS"); do
        add_link "$NS-$i" "$NET.$((10 + i))" "${NS}c$i" || return 1
    done
    add_link "$NS-cl" "$CLIENT_IP" "${NS}cl" || return 1
}

# ---- daemons -------------------------------------------------------------
spawn() {  # spawn NAME NS CMD... : start CMD in NS in the background, record pid
    local name=$1 ns=$2; shift 2
    setsid nsenter --net=/run/netns/"$ns" "$@" >"$STATE/log/$name.log" 2>&1 </dev/null &
    echo "$! $name" >>"$STATE/pids"
}

write_master_cfg() {
    mkdir -p "$STATE/master"
    cp /var/lib/mfs/metadata.mfs.empty "$STATE/master/metadata.mfs"
    cat >"$STATE/master/mfsmaster.cfg" <<EOF
WORKING_USER = root
WORKING_GROUP = root
DATA_PATH = $STATE/master
EXPORTS_FILENAME = $STATE/master/mfsexports.cfg
TOPOLOGY_FILENAME = $STATE/master/mfstopology.cfg
MATOML_LISTEN_HOST = $MASTER_IP
MATOCS_LISTEN_HOST = $MASTER_IP
MATOCL_LISTEN_HOST = $MASTER_IP
NICE_LEVEL = 0
DISABLE_OOM_KILLER = 0
EOF
    echo "$NET.0/24 / rw,alldirs,admin,maproot=0:0" >"$STATE/master/mfsexports.cfg"
    : >"$STATE/master/mfstopology.cfg"
}

# storage: one file-backed loop device with ext4 per server; a plain
# directory when loop devices or mkfs are not available
make_storage() {  # make_storage I -> prints the data directory
    local i=$1 d=$STATE/cs$i img dev
    mkdir -p "$d/hdd"
    img=$d/disk.img
    if [ "$STORAGE" = loop ] && truncate -s "$SIZE" "$img" &&
        mkfs.ext4 -q -F "$img" >/dev/null 2>&1 &&
        dev=$(losetup -f --show "$img" 2>/dev/null) &&
        mount "$dev" "$d/hdd" 2>/dev/null; then
        echo "$d/hdd" >>"$STATE/mounts"
        echo "$dev" >>"$STATE/loops"
    else
        [ "$STORAGE" = loop ] && say "chunk server $i: loop device + ext4 failed, using a plain directory"
        [ -n "${dev:-}" ] && losetup -d "$dev" 2>/dev/null
        rm -f "$img"
    fi
    mkdir -p "$d/hdd/mfs"
    echo "$d/hdd/mfs"
}

write_cs_cfg() {  # write_cs_cfg I HDD
    local i=$1 d=$STATE/cs$1
    mkdir -p "$d/data"
    echo "$2" >"$d/mfshdd.cfg"
    cat >"$d/mfschunkserver.cfg" <<EOF
WORKING_USER = root
WORKING_GROUP = root
DATA_PATH = $d/data
HDD_CONF_FILENAME = $d/mfshdd.cfg
HDD_LEAVE_SPACE_DEFAULT = 64MiB
MASTER_HOST = $MASTER_IP
BIND_HOST = $NET.$((10 + i))
CSSERV_LISTEN_HOST = $NET.$((10 + i))
NICE_LEVEL = 0
DISABLE_OOM_KILLER = 0
EOF
}

wait_for() {  # wait_for SECONDS DESCRIPTION CMD... : poll until CMD succeeds
    local t=$1 what=$2 i; shift 2
    for ((i = 0; i < t * 4; i++)); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.25
    done
    say "timed out after ${t}s waiting for $what"
    return 1
}

alive() {  # all recorded daemons still alive?
    local pid name
    while read -r pid name; do
        kill -0 "$pid" 2>/dev/null || { say "$name (pid $pid) died; log: $STATE/log/$name.log"; tail -5 "$STATE/log/$name.log" >&2; return 1; }
    done <"$STATE/pids"
}

registered() {  # all chunk servers registered with the master
    [ "$(grep 'chunkserver register end' "$STATE/log/mfsmaster.log" | grep -o 'ip: [0-9.]*' | sort -u | wc -l)" -ge "$SERVERS" ]
}

master_listens() {  # from the client's namespace
    nsnet "$NS-cl" bash -c "exec 3<>/dev/tcp/$MASTER_IP/9421" 2>/dev/null
}

roundtrip() {  # 1 MiB write + read through the mount
    local f=$MNT/.testbed-check
    head -c 1048576 /dev/urandom >"$STATE/check.bin" &&
        timeout 20 cp "$STATE/check.bin" "$f" && sync "$f" 2>/dev/null;
    timeout 20 cmp -s "$STATE/check.bin" "$f" && rm -f "$f"
}

start() {
    local why i hdd
    why=$(probe) || die "cannot start: $why"
    need nsenter util-linux
    if running; then
        die "already running (state $STATE, mount $MNT); run 'scripts/testbed.sh stop' first"
    fi
    ip netns list 2>/dev/null | grep -q "^$NS-" &&
        die "network namespaces $NS-* exist but no state in $STATE; remove them with 'ip netns del' or set XT_TESTBED_NS"
    if [ -n "$LATENCY" ]; then
        if ! zcat /proc/config.gz 2>/dev/null | grep -q 'CONFIG_NET_SCH_NETEM=[ym]' &&
            [ ! -d /sys/module/sch_netem ]; then
            die "--latency needs tc netem, which this kernel lacks (CONFIG_NET_SCH_NETEM not set); use --bandwidth only"
        fi
        die "--latency is not implemented (netem available but untested here)"
    fi
    mkdir -p "$STATE/log" "$MNT" || die "cannot create $STATE"
    : >"$STATE/pids"; : >"$STATE/netns"; : >"$STATE/mounts"; : >"$STATE/loops"
    echo "servers=$SERVERS size=$SIZE bandwidth=${BANDWIDTH:-none} cachemode=$CACHEMODE started=$(date -u +%FT%TZ)" >"$STATE/config"
    setup_net || { say "network setup failed"; stop_all; exit 1; }
    write_master_cfg
    spawn mfsmaster "$NS-m" mfsmaster -f -n -c "$STATE/master/mfsmaster.cfg"
    wait_for 30 "the master to listen on $MASTER_IP:9421" master_listens || { alive; stop_all; exit 1; }
    for i in $(seq 1 "$SERVERS"); do
        hdd=$(make_storage "$i")
        write_cs_cfg "$i" "$hdd"
        spawn "mfschunkserver$i" "$NS-$i" mfschunkserver -f -n -c "$STATE/cs$i/mfschunkserver.cfg"
    done
    if ! wait_for 60 "$SERVERS chunk servers to register" registered || ! alive; then
        stop_all; exit 1
    fi
    spawn mfsmount "$NS-cl" mfsmount -f "$MNT" -H "$MASTER_IP" -o mfsbind="$CLIENT_IP" \
        -o mfscachemode="$CACHEMODE" -o mfsioretries="$IORETRIES"
    if ! wait_for 30 "the FUSE mount at $MNT" mountpoint -q "$MNT" || ! alive; then
        stop_all; exit 1
    fi
    echo "$MNT" >>"$STATE/mounts"
    # goal (number of copies) 1: every 64 MiB chunk lives on exactly one server
    # trash time 0: deleted files free their space at once (default: one day)
    nsnet "$NS-cl" mfssetgoal -r 1 "$MNT" >/dev/null &&
        nsnet "$NS-cl" mfssettrashtime -r 0 "$MNT" >/dev/null || { say "mfssetgoal/mfssettrashtime failed"; stop_all; exit 1; }
    if ! wait_for 60 "$SERVERS chunk servers to take a 1 MiB write+read" roundtrip; then
        say "master log:"; tail -5 "$STATE/log/mfsmaster.log" >&2
        stop_all; exit 1
    fi
    say "up: master $MASTER_IP, $SERVERS chunk servers $NET.11-$((10 + SERVERS)), client $CLIENT_IP"
    echo "$MNT"
}

stop_all() {  # unmount, kill recorded pids, remove namespaces, loops
    local pid name m i
    if [ -f "$STATE/mounts" ] && mountpoint -q "$MNT"; then
        umount "$MNT" 2>/dev/null || umount -l "$MNT"
    fi
    if [ -f "$STATE/pids" ]; then
        # client first, then chunk servers, then the master
        tac "$STATE/pids" | while read -r pid name; do
            kill -TERM "$pid" 2>/dev/null
        done
        for i in $(seq 1 40); do
            m=0
            while read -r pid name; do kill -0 "$pid" 2>/dev/null && m=1; done <"$STATE/pids"
            [ $m = 0 ] && break
            sleep 0.25
        done
        while read -r pid name; do
            kill -0 "$pid" 2>/dev/null && { say "$name (pid $pid) ignores TERM, killing"; kill -KILL "$pid"; }
        done <"$STATE/pids"
    fi
    if [ -f "$STATE/mounts" ]; then
        while read -r m; do
            [ "$m" = "$MNT" ] && continue
            mountpoint -q "$m" && { umount "$m" 2>/dev/null || umount -l "$m"; }
        done <"$STATE/mounts"
    fi
    [ -f "$STATE/loops" ] && while read -r m; do losetup -d "$m" 2>/dev/null; done <"$STATE/loops"
    [ -f "$STATE/netns" ] && while read -r m; do ip netns del "$m" 2>/dev/null; done <"$STATE/netns"
    rm -f "$STATE/pids" "$STATE/netns" "$STATE/mounts" "$STATE/loops"
    rm -rf "$STATE/master" "$STATE"/cs*
}

stop() {
    if ! running; then
        echo "testbed: nothing running (no state in $STATE)"
        return 0
    fi
    stop_all
    echo "testbed: stopped"
}

spread() {  # spread FILE...: which chunk server holds each 64 MiB chunk
    running || die "not running"
    local f
    for f in "$@"; do
        nsnet "$NS-cl" mfsfileinfo "$f" | awk -v net="$NET." '
            /chunk [0-9]+:/ { c = $2; sub(":", "", c) }
            /copy [0-9]+:/ { ip = $3; sub(":.*", "", ip); sub(net, "", ip); printf "chunk %s -> server %d\n", c, ip - 10 }'
    done
}

status() {
    local pid name up=0 down=0
    if ! running; then
        echo "testbed: not running (state $STATE)"
        return 3
    fi
    echo "testbed: $(cat "$STATE/config" 2>/dev/null)"
    while read -r pid name; do
        if kill -0 "$pid" 2>/dev/null; then echo "  $name pid $pid: running"; up=$((up + 1))
        else echo "  $name pid $pid: DEAD"; down=$((down + 1)); fi
    done <"$STATE/pids"
    if mountpoint -q "$MNT"; then echo "  mount $MNT: mounted"; else echo "  mount $MNT: NOT mounted"; down=$((down + 1)); fi
    echo "  namespaces: $(tr '\n' ' ' <"$STATE/netns")"
    [ $down = 0 ]
}

SERVERS=3 SIZE=8G BANDWIDTH= LATENCY= CACHEMODE=AUTO IORETRIES=${XT_TESTBED_IORETRIES:-8}
STORAGE=${XT_TESTBED_STORAGE:-loop}
cmd=${1:-}; shift || true
[ "$cmd" = spread ] || while [ $# -gt 0 ]; do
    case $1 in
        --servers) SERVERS=$2; shift 2 ;;
        --size) SIZE=$2; shift 2 ;;
        --bandwidth) BANDWIDTH=$2; shift 2 ;;
        --latency) LATENCY=$2; shift 2 ;;
        --cachemode) CACHEMODE=$2; shift 2 ;;
        --dir) STATE=$2; MNT=$STATE/mnt; shift 2 ;;
        *) die "unknown option '$1' (see the header of $0)" ;;
    esac
done
case $NS in ''|*[!a-z0-9]*) die "XT_TESTBED_NS '$NS': use 1-9 lowercase letters/digits" ;; esac
[ ${#NS} -le 9 ] || die "XT_TESTBED_NS '$NS': at most 9 characters (interface names)"
case $SERVERS in ''|*[!0-9]*) die "--servers '$SERVERS': not a number" ;; esac
[ "$SERVERS" -ge 1 ] && [ "$SERVERS" -le 8 ] || die "--servers $SERVERS: use 1..8"
case $cmd in
    start) start ;;
    stop) stop ;;
    status) status ;;
    probe) probe ;;
    spread) spread "$@" ;;
    *) echo "usage: $0 start|stop|status|probe [options]" >&2; exit 2 ;;
esac

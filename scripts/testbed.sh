#!/bin/bash
# romio-xt testbed: a real distributed file system (MooseFS 3.0, Debian 12
# packages) on this one machine.  One master and N chunk servers, each in its
# own network namespace, joined by veth pairs to a bridge that lives inside the
# master's namespace; the FUSE client (mfsmount) runs in a client namespace,
# its mount is visible to every process on the machine.  Every address is
# inside the namespaces created here (10.254.77.0/24); the root namespace and
# the outside world get none.
#
#   scripts/testbed.sh start [--profile hdd|ssd] [--nodes N] [--scale F]
#                            [--servers N] [--size SIZE] [--bandwidth RATE]
#                            [--latency T] [--cachemode MODE] [--node-cache SIZE]
#   scripts/testbed.sh stop
#   scripts/testbed.sh status
#   scripts/testbed.sh probe [--profile NAME]   exit 0 if it can start
#   scripts/testbed.sh spread FILE...   chunk -> chunk server map
#   scripts/testbed.sh drop-caches      evict the chunk servers' page caches
#   scripts/testbed.sh node K CMD...    run CMD on emulated compute node K
#   scripts/testbed.sh mpiexec [-ppn M] -n NP CMD...   MPI job, ranks spread
#                                       over the nodes (block: M per node)
#
# A profile (--profile) adds emulated compute nodes: node K has its own
# network namespace with a throttled link, its own mount namespace with its
# own mfsmount at the same path ($XT_TESTBED_DIR/mnt) and its own tmpfs at
# $XT_TESTBED_DIR/local (the node-local fast tier); each chunk server's link
# and disk (blkio throttle on its loop device, memory cgroup as its cache)
# are rate-limited.  Each node's client buffer (mfswritecachesize and
# mfsreadaheadsize) and its memory (a cgroup-v1 memory cgroup holding its
# mfsmount and its ranks) are pinned to the profile's node cache
# (--node-cache SIZE, default 16 MiB), and its local tier is then ext4 on a
# loop device whose backing file is in /dev/shm (outside the node's cgroup).
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
NODE_BASE=20                       # node K: $NET.$((NODE_BASE + K))
LOCAL=$STATE/local                 # node-local tier (tmpfs inside node K)
MNTNS=$STATE/ns                    # persistent mount namespaces of the nodes
BLKIO=/sys/fs/cgroup/blkio
MEMCG=/sys/fs/cgroup/memory

# profiles: name -> server disk MB/s, server link, node link (Mbit/s),
# server page cache (MiB), node-local tier size (MiB), node cache (MiB).
# Node links carry >= 10x the servers' whole bandwidth (so >= 10x a node's
# share at any node count): hdd 3 x 100 MB/s = 2.4 Gbit/s -> 25 Gbit/s,
# ssd 3 x 400 MB/s = 9.6 Gbit/s -> 100 Gbit/s.  The node cache (client
# buffer and page cache) is 16 MiB: a node's share of the workflows'
# checkpoints (2 ranks per node) is 8x it or more.
profile_vals() {
    case $1 in
        hdd) echo "100 1000 25000 64 2048 16" ;;
        ssd) echo "400 4000 100000 64 2048 16" ;;
        *) return 1 ;;
    esac
}

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

# profile_missing: the kernel features a profile needs; prints what is
# missing (one line) and returns 1, or returns 0.  XT_TESTBED_PRETEND_MISSING
# names a feature to treat as missing (tests of the refusal path).
profile_missing() {
    local miss=() f
    have() { case " ${XT_TESTBED_PRETEND_MISSING:-} " in *" $1 "*) return 1 ;; esac; }
    { have tbf && { zcat /proc/config.gz 2>/dev/null | grep -q 'CONFIG_NET_SCH_TBF=[ym]' ||
        [ -d /sys/module/sch_tbf ] || ! [ -r /proc/config.gz ]; }; } ||
        miss+=("tc tbf (CONFIG_NET_SCH_TBF)")
    { have blkio && [ -w $BLKIO/blkio.throttle.write_bps_device ]; } ||
        miss+=("cgroup-v1 blkio throttling ($BLKIO/blkio.throttle.write_bps_device; cgroup-v2 io.max is not supported by this script)")
    { have memcg && [ -d $MEMCG ] && [ -w $MEMCG/cgroup.procs ]; } ||
        miss+=("cgroup-v1 memory controller ($MEMCG)")
    { have mntns && command -v unshare >/dev/null && unshare --mount true 2>/dev/null; } ||
        miss+=("mount namespaces (unshare --mount)")
    { have loop && [ "$STORAGE" = loop ] && command -v losetup >/dev/null; } ||
        miss+=("loop devices (XT_TESTBED_STORAGE=loop, losetup)")
    [ ${#miss[@]} = 0 ] && return 0
    f=$(printf '%s; ' "${miss[@]}")
    echo "${f%; }"
    return 1
}

running() { [ -f "$STATE/pids" ]; }

nsx() { ip netns exec "$@"; }       # run inside a namespace (own mount ns)
nsnet() { local n=$1; shift; nsenter --net=/run/netns/$n "$@"; }  # network only

# ---- network -------------------------------------------------------------
add_link() {  # add_link NS IP IFNAME [RATE] : veth pair NS<->master bridge
    local ns=$1 ip=$2 ifn=$3 rate=${4:-}
    ip link add "$ifn" type veth peer name "${ifn}b" || return 1
    ip link set "$ifn" netns "$ns" && ip link set "${ifn}b" netns "$NS-m" || return 1
    ip -n "$NS-m" link set "${ifn}b" master $BR up &&
        ip -n "$ns" addr add "$ip/24" dev "$ifn" &&
        ip -n "$ns" link set "$ifn" up && ip -n "$ns" link set lo up || return 1
    shape "$ns" "$ifn" $rate && shape "$NS-m" "${ifn}b" $rate
}

shape() {  # shape NS IF [RATE] : bandwidth limit (tbf) on egress
    local rate=${3:-$BANDWIDTH}
    [ -n "$rate" ] || return 0
    # burst: 512 KiB, or 2 ms of traffic at rates above 2 Gbit/s (tbf cannot
    # pass more than one burst per timer tick)
    local burst=512kb m=${rate%mbit}
    case $m in *[!0-9]*|'') ;; *) [ "$m" -gt 2000 ] && burst=$((m * 250)) ;; esac
    ip netns exec "$1" tc qdisc add dev "$2" root tbf rate "$rate" burst "$burst" latency 50ms ||
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
        add_link "$NS-$i" "$NET.$((10 + i))" "${NS}c$i" $SRV_LINK || return 1
    done
    add_link "$NS-cl" "$CLIENT_IP" "${NS}cl" $NODE_LINK || return 1
    for i in $(seq 1 "$NODES"); do
        ip netns add "$NS-n$i" || return 1
        echo "$NS-n$i" >>"$STATE/netns"
        add_link "$NS-n$i" "$NET.$((NODE_BASE + i))" "${NS}n$i" $NODE_LINK || return 1
    done
}

# ---- daemons -------------------------------------------------------------
# spawn NAME NS CMD... : start CMD in network namespace NS in the background,
# record its pid.  SPAWN_MNT=FILE: also in that mount namespace;
# SPAWN_CG=DIR: in that memory cgroup from its first instruction on.
spawn() {
    local name=$1 ns=$2 pre=(); shift 2
    [ -n "${SPAWN_MNT:-}" ] && pre=(--mount="$SPAWN_MNT")
    setsid bash -c 'if [ -n "$1" ]; then echo $$ >"$1/cgroup.procs"; fi; shift; exec "$@"' _ \
        "${SPAWN_CG:-}" nsenter --net=/run/netns/"$ns" "${pre[@]}" "$@" \
        >"$STATE/log/$name.log" 2>&1 </dev/null &
    echo "$! $name" >>"$STATE/pids"
}

# ---- profile: throttled disks, server caches, compute nodes ----------------
throttle_disk() {  # throttle_disk DEV MB/s : blkio limit on the whole device
    local mm bps=$(($2 * 1000000))
    mm=$(lsblk -dno MAJ:MIN "$1" | tr -d ' ') || return 1
    echo "$mm $bps" >$BLKIO/blkio.throttle.write_bps_device &&
        echo "$mm $bps" >$BLKIO/blkio.throttle.read_bps_device || return 1
    echo "$mm" >>"$STATE/throttles"
}

server_cgroup() {  # server_cgroup I : memory cgroup (page cache = server cache)
    local cg=$MEMCG/$NS-cs$1
    mkdir -p "$cg" || return 1
    echo "$cg" >>"$STATE/cgroups"
    echo "$cg"
}

# once the servers run: each one's memory limit = what the daemon uses now
# (~140 MiB) + the profile's cache + 64 MiB for its buffers under load, so
# written data beyond the cache waits for the throttled disk
limit_server_memory() {
    local cg use
    grep -- "-cs[0-9]*$" "$STATE/cgroups" | while read -r cg; do
        use=$(cat "$cg/memory.usage_in_bytes") &&
            echo $((use + ((SRV_CACHE_MIB + 64) << 20))) >"$cg/memory.limit_in_bytes" || exit 1
    done
}

# the node cache: node K's mfsmount and its ranks share one memory cgroup
# ($NS-nodeK).  Its limit (set_node_limits) = what the mount uses once up
# + 3 x the node cache (mfsmount's write buffer and read-ahead buffers, each
# the node cache, and the page cache) + RANK_MIB per rank of the job, so
# the node's page cache holds the node cache plus what its ranks leave of
# their allowance; data beyond it is evicted as on a node whose memory is
# taken by the application
node_cgroup() {  # node_cgroup K -> the cgroup's directory
    local cg=$MEMCG/$NS-node$1
    mkdir -p "$cg" || return 1
    echo "$cg" >>"$STATE/cgroups"
    echo "$cg"
}

node_baselines() {  # after the mounts: each node cgroup's usage -> nodecg
    local i cg
    : >"$STATE/nodecg"
    for i in $(seq 1 "$NODES"); do
        cg=$MEMCG/$NS-node$i
        echo "$i $cg $(cat "$cg/memory.usage_in_bytes")" >>"$STATE/nodecg" || return 1
    done
    set_node_limits "${XT_TESTBED_PPN:-2}"
}

set_node_limits() {  # set_node_limits PPN : every node cgroup's limit for PPN ranks
    local k cg base mib lim
    [ -f "$STATE/nodecg" ] || return 0
    mib=$(sed -n 's/.* node_cache_MiB=\([0-9]*\).*/\1/p' "$STATE/config")
    [ -n "$mib" ] || return 0
    while read -r k cg base; do
        lim=$((base + ((3 * mib + $1 * RANK_MIB) << 20)))
        echo "$lim" >"$cg/memory.limit_in_bytes" ||
            { say "node $k: memory limit $lim failed"; return 1; }
        echo "$k $lim" >"$STATE/nodelimit.$k"
    done <"$STATE/nodecg"
}

# every node gets a persistent mount namespace (bind-mounted on a file under
# $MNTNS, which must be a private mount) and in it a tmpfs at $LOCAL
setup_node_mntns() {
    local i f
    mkdir -p "$MNTNS" "$LOCAL" "$STATE/bin" || return 1
    mount --bind "$MNTNS" "$MNTNS" && mount --make-private "$MNTNS" || return 1
    echo "$MNTNS" >"$STATE/mntns"
    for i in $(seq 1 "$NODES"); do
        f=$MNTNS/n$i
        : >"$f" && unshare --mount="$f" --propagation private true || return 1
        echo "$f" >>"$STATE/mntns"
        if [ -n "$PROFILE" ]; then
            tier_loop "$i" "$f" || return 1
        else
            nsenter --mount="$f" mount -t tmpfs -o size=${LOCAL_MIB}m "$NS-local$i" "$LOCAL" || return 1
        fi
    done
    write_launcher
}

# with a profile the node-local tier is ext4 on a loop device whose backing
# file lives in /dev/shm: the tier's pages in the node's page cache are
# charged to the node's memory cgroup and written back at memory speed, the
# backing memory belongs to the machine (a node's NVMe), not to the node
tier_loop() {  # tier_loop K MNTNS-FILE
    local img=/dev/shm/$NS-tier$1.img dev
    echo "$img" >>"$STATE/tierimgs"
    truncate -s "${LOCAL_MIB}M" "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 &&
        dev=$(losetup -f --show "$img") || { say "node $1: local tier on $img failed"; return 1; }
    echo "$dev" >>"$STATE/loops"
    nsenter --mount="$2" mount -o discard "$dev" "$LOCAL"
}

node_mounted() {  # every node's mfsmount is up
    local i
    for i in $(seq 1 "$NODES"); do
        nsenter --mount="$MNTNS/n$i" mountpoint -q "$MNT" || return 1
    done
}

# hydra's launcher: mpiexec -launcher ssh -launcher-exec $STATE/bin/ssh calls
# it as "ssh [-x] [-n] HOST COMMAND..." with HOST a node's address; it runs
# COMMAND (hydra_pmi_proxy) in that node's network and mount namespaces and
# in a UTS namespace of its own named tb-nodeK, so that the processes of
# different nodes see different host names, as on a cluster (ROMIO counts
# the nodes by MPI_Get_processor_name: one aggregator per node by default)
write_launcher() {
    cat >"$STATE/bin/ssh" <<EOF
#!/bin/bash
# romio-xt testbed launcher for hydra (generated by scripts/testbed.sh)
while [ \$# -gt 0 ]; do case \$1 in -*) shift ;; *) break ;; esac; done
host=\$1; shift
k=\$((\${host##*.} - $NODE_BASE))
[ -e "$MNTNS/n\$k" ] || { echo "testbed launcher: \$host is no node of this testbed" >&2; exit 255; }
cg=$MEMCG/$NS-node\$k
if [ -d "\$cg" ]; then echo \$\$ >"\$cg/cgroup.procs" || exit 255; fi
exec nsenter --net=/run/netns/$NS-n\$k --mount="$MNTNS/n\$k" -- unshare --uts /bin/sh -c "hostname tb-node\$k && \$*"
EOF
    chmod +x "$STATE/bin/ssh"
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
        mount -o discard "$dev" "$d/hdd" 2>/dev/null; then
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
    if [ -n "$PROFILE" ] && ! why=$(profile_missing); then
        die "profile $PROFILE refused: this kernel lacks $why. The plain testbed (no --profile) still works."
    fi
    if [ "$NODES" -gt 0 ] && ! unshare --mount true 2>/dev/null; then
        die "--nodes needs mount namespaces (unshare --mount), which fail here"
    fi
    mkdir -p "$STATE/log" "$MNT" || die "cannot create $STATE"
    : >"$STATE/pids"; : >"$STATE/netns"; : >"$STATE/mounts"; : >"$STATE/loops"
    : >"$STATE/throttles"; : >"$STATE/cgroups"; : >"$STATE/tierimgs"
    {
        echo "servers=$SERVERS size=$SIZE bandwidth=${BANDWIDTH:-none} cachemode=$CACHEMODE started=$(date -u +%FT%TZ)"
        echo "profile=${PROFILE:-none} scale=$SCALE nodes=$NODES disk_MBps=${DISK_MBPS:-none} server_link=${SRV_LINK:-none} node_link=${NODE_LINK:-none} server_cache_MiB=${SRV_CACHE_MIB:-none} node_cache_MiB=${NODE_CACHE_MIB:-none} rank_MiB=$RANK_MIB local=$LOCAL"
    } >"$STATE/config"
    setup_net || { say "network setup failed"; stop_all; exit 1; }
    write_master_cfg
    spawn mfsmaster "$NS-m" mfsmaster -f -n -c "$STATE/master/mfsmaster.cfg"
    wait_for 30 "the master to listen on $MASTER_IP:9421" master_listens || { alive; stop_all; exit 1; }
    for i in $(seq 1 "$SERVERS"); do
        hdd=$(make_storage "$i")
        write_cs_cfg "$i" "$hdd"
        cg=
        if [ -n "$PROFILE" ]; then
            throttle_disk "$(tail -n 1 "$STATE/loops")" "$DISK_MBPS" &&
                cg=$(server_cgroup "$i") || { say "disk limits of chunk server $i failed"; stop_all; exit 1; }
        fi
        SPAWN_CG=$cg spawn "mfschunkserver$i" "$NS-$i" mfschunkserver -f -n -c "$STATE/cs$i/mfschunkserver.cfg"
    done
    if ! wait_for 60 "$SERVERS chunk servers to register" registered || ! alive; then
        stop_all; exit 1
    fi
    if [ -n "$PROFILE" ]; then
        limit_server_memory || { say "memory limits of the chunk servers failed"; stop_all; exit 1; }
    fi
    # the nodes' mount namespaces before the shared mount, so they do not
    # inherit it: each node mounts its own client at the same path
    if [ "$NODES" -gt 0 ]; then
        setup_node_mntns || { say "mount namespaces of the nodes failed"; stop_all; exit 1; }
        for i in $(seq 1 "$NODES"); do
            cg= ncache=()
            if [ -n "$PROFILE" ]; then
                cg=$(node_cgroup "$i") || { say "memory cgroup of node $i failed"; stop_all; exit 1; }
                ncache=(-o mfswritecachesize="$NODE_CACHE_MIB" -o mfsreadaheadsize="$NODE_CACHE_MIB")
            fi
            SPAWN_CG=$cg SPAWN_MNT=$MNTNS/n$i spawn "mfsmount-n$i" "$NS-n$i" mfsmount -f "$MNT" -H "$MASTER_IP" \
                -o mfsbind="$NET.$((NODE_BASE + i))" -o mfscachemode="$CACHEMODE" -o mfsioretries="$IORETRIES" \
                "${ncache[@]}"
        done
    fi
    spawn mfsmount "$NS-cl" mfsmount -f "$MNT" -H "$MASTER_IP" -o mfsbind="$CLIENT_IP" \
        -o mfscachemode="$CACHEMODE" -o mfsioretries="$IORETRIES"
    if ! wait_for 30 "the FUSE mount at $MNT" mountpoint -q "$MNT" ||
        ! wait_for 30 "the nodes' FUSE mounts" node_mounted || ! alive; then
        stop_all; exit 1
    fi
    echo "$MNT" >>"$STATE/mounts"
    if [ -n "$PROFILE" ] && [ "$NODES" -gt 0 ]; then
        node_baselines || { say "memory limits of the nodes failed"; stop_all; exit 1; }
    fi
    # goal (number of copies) 1: every 64 MiB chunk lives on exactly one server
    # trash time 0: deleted files free their space at once (default: one day)
    nsnet "$NS-cl" mfssetgoal -r 1 "$MNT" >/dev/null &&
        nsnet "$NS-cl" mfssettrashtime -r 0 "$MNT" >/dev/null || { say "mfssetgoal/mfssettrashtime failed"; stop_all; exit 1; }
    if ! wait_for 60 "$SERVERS chunk servers to take a 1 MiB write+read" roundtrip; then
        say "master log:"; tail -5 "$STATE/log/mfsmaster.log" >&2
        stop_all; exit 1
    fi
    say "up: master $MASTER_IP, $SERVERS chunk servers $NET.11-$((10 + SERVERS)), client $CLIENT_IP"
    [ "$NODES" -gt 0 ] && say "nodes: $NODES ($NET.$((NODE_BASE + 1))-$((NODE_BASE + NODES))), profile ${PROFILE:-none}: $(sed -n 2p "$STATE/config")"
    echo "$MNT"
}

stop_all() {  # unmount, kill recorded pids, remove namespaces, loops
    local pid name m i
    if [ -f "$STATE/mounts" ] && mountpoint -q "$MNT"; then
        umount "$MNT" 2>/dev/null || umount -l "$MNT"
    fi
    if [ -f "$STATE/mntns" ]; then   # the nodes' client mounts and tmpfs
        for m in $(tail -n +2 "$STATE/mntns"); do
            nsenter --mount="$m" umount -l "$MNT" 2>/dev/null
            nsenter --mount="$m" umount -l "$LOCAL" 2>/dev/null
        done
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
    if [ -f "$STATE/mntns" ]; then   # the namespace files, then their directory
        for m in $(tail -n +2 "$STATE/mntns") $(head -n 1 "$STATE/mntns"); do
            umount "$m" 2>/dev/null || umount -l "$m"
        done
    fi
    [ -f "$STATE/throttles" ] && while read -r m; do
        echo "$m 0" >$BLKIO/blkio.throttle.write_bps_device
        echo "$m 0" >$BLKIO/blkio.throttle.read_bps_device
    done <"$STATE/throttles"
    [ -f "$STATE/loops" ] && while read -r m; do losetup -d "$m" 2>/dev/null; done <"$STATE/loops"
    [ -f "$STATE/tierimgs" ] && while read -r m; do rm -f "$m"; done <"$STATE/tierimgs"
    # processes left in a node's cgroup (ranks of a job that outlived its
    # mpiexec) end with their node, then every cgroup goes
    [ -f "$STATE/cgroups" ] && while read -r m; do
        case $m in *-node[0-9]*) ;; *) continue ;; esac
        for i in $(seq 1 20); do
            [ -s "$m/cgroup.procs" ] || break
            say "killing what is left in $(basename "$m"): $(tr '\n' ' ' <"$m/cgroup.procs")"
            while read -r pid; do kill -KILL "$pid" 2>/dev/null; done <"$m/cgroup.procs"
            sleep 0.25
        done
    done <"$STATE/cgroups"
    [ -f "$STATE/cgroups" ] && while read -r m; do rmdir "$m" 2>/dev/null; done <"$STATE/cgroups"
    [ -f "$STATE/netns" ] && while read -r m; do ip netns del "$m" 2>/dev/null; done <"$STATE/netns"
    rm -f "$STATE/pids" "$STATE/netns" "$STATE/mounts" "$STATE/loops" "$STATE/throttles" \
        "$STATE/cgroups" "$STATE/mntns" "$STATE/tierimgs" "$STATE/nodecg" "$STATE"/nodelimit.*
    rm -rf "$STATE/master" "$STATE"/cs* "$STATE/bin" "$MNTNS"
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
    for i in $(seq 1 "$(nodes_of)"); do
        if nsenter --mount="$MNTNS/n$i" mountpoint -q "$MNT"; then
            echo "  node $i ($NET.$((NODE_BASE + i))): client mounted, local tier $LOCAL"
        else echo "  node $i: client NOT mounted"; down=$((down + 1)); fi
    done
    [ $down = 0 ]
}

# drop_caches: the chunk servers' page caches (every chunk file evicted), so
# the next read of the data comes from the (throttled) disks
drop_caches() {
    running || die "not running"
    sync -f "$STATE"/cs1/hdd 2>/dev/null
    find "$STATE"/cs*/hdd/mfs -type f -print0 2>/dev/null | xargs -0 -r python3 -c '
import os, sys
for p in sys.argv[1:]:
    try:  # a chunk the server deletes meanwhile is skipped
        fd = os.open(p, os.O_RDONLY)
    except OSError:
        continue
    os.fdatasync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)'
}

nodes_of() {  # the running testbed's node count
    sed -n 's/.* nodes=\([0-9]*\).*/\1/p' "$STATE/config" 2>/dev/null | grep . || echo 0
}

node() {  # node K CMD... : run CMD in node K's namespaces, same directory
    running || die "not running"
    local k=${1:-}; shift || true
    [ -e "$MNTNS/n$k" ] || die "node '$k': this testbed has nodes 1..$(nodes_of)"
    [ $# -gt 0 ] || die "node $k: no command"
    if [ -d "$MEMCG/$NS-node$k" ]; then echo $$ >"$MEMCG/$NS-node$k/cgroup.procs" || die "node $k: cannot join its memory cgroup"; fi
    exec nsenter --net=/run/netns/$NS-n$k --mount="$MNTNS/n$k" --wd="$PWD" -- "$@"
}

# tb_mpiexec [-ppn M] -n NP CMD... : hydra's mpiexec (XT_MPIEXEC, default
# mpiexec in PATH) in the master's namespace, ranks in blocks of M per node
tb_mpiexec() {
    running || die "not running"
    local n nodes np= ppn= hosts= k
    nodes=$(nodes_of)
    [ "$nodes" -gt 0 ] || die "mpiexec: this testbed has no nodes (start it with --profile or --nodes)"
    while [ $# -gt 0 ]; do
        case $1 in
            -n|-np) np=$2; shift 2 ;;
            -ppn) ppn=$2; shift 2 ;;
            *) break ;;
        esac
    done
    [ -n "$np" ] || die "mpiexec: -n NP missing"
    [ -n "$ppn" ] || ppn=$(((np + nodes - 1) / nodes))
    set_node_limits "$ppn" || die "mpiexec: the nodes' memory limits for $ppn ranks per node failed"
    for k in $(seq 1 "$nodes"); do hosts="$hosts${hosts:+,}$NET.$((NODE_BASE + k)):$ppn"; done
    n=$(command -v "${XT_MPIEXEC:-mpiexec}") || die "mpiexec: ${XT_MPIEXEC:-mpiexec} not found"
    exec nsenter --net=/run/netns/$NS-m --wd="$PWD" -- "$n" -launcher ssh \
        -launcher-exec "$STATE/bin/ssh" -localhost $MASTER_IP -hosts "$hosts" -n "$np" "$@"
}

mib_of() {  # mib_of SIZE -> MiB (SIZE: N, NM, NMiB, NG, NGiB; plain N = MiB)
    local n u
    n=${1%%[!0-9]*} u=${1#"$n"}
    [ -n "$n" ] || return 1
    case $u in
        ''|m|M|MB|MiB) ;;
        g|G|GB|GiB) n=$((n * 1024)) ;;
        *) return 1 ;;
    esac
    [ "$n" -ge 1 ] && echo "$n"
}

SERVERS=3 SIZE=8G BANDWIDTH= LATENCY= CACHEMODE=AUTO IORETRIES=${XT_TESTBED_IORETRIES:-8}
STORAGE=${XT_TESTBED_STORAGE:-loop}
PROFILE= NODES= SCALE=1 SRV_LINK= NODE_LINK= DISK_MBPS= SRV_CACHE_MIB= LOCAL_MIB=1024 NODE_CACHE=
RANK_MIB=${XT_TESTBED_RANK_MIB:-384} NODE_CACHE_MIB=
cmd=${1:-}; shift || true
case $cmd in spread|node|mpiexec|drop-caches) ;; *) while [ $# -gt 0 ]; do
    case $1 in
        --profile) PROFILE=$2; shift 2 ;;
        --nodes) NODES=$2; shift 2 ;;
        --scale) SCALE=$2; shift 2 ;;
        --servers) SERVERS=$2; shift 2 ;;
        --size) SIZE=$2; shift 2 ;;
        --bandwidth) BANDWIDTH=$2; shift 2 ;;
        --latency) LATENCY=$2; shift 2 ;;
        --cachemode) CACHEMODE=$2; shift 2 ;;
        --node-cache) NODE_CACHE=$2; shift 2 ;;
        --dir) STATE=$2; MNT=$STATE/mnt; shift 2 ;;
        *) die "unknown option '$1' (see the header of $0)" ;;
    esac
done ;; esac
if [ -n "$PROFILE" ]; then
    vals=$(profile_vals "$PROFILE") || die "--profile '$PROFILE': unknown (profiles: hdd ssd)"
    case $SCALE in ''|*[!0-9.]*|.|*.*.*) die "--scale '$SCALE': not a positive number" ;; esac
    # --scale F divides every rate by F (keeps the ratios)
    read -r DISK_MBPS SRV_LINK NODE_LINK SRV_CACHE_MIB LOCAL_MIB NODE_CACHE_MIB <<<"$(echo "$vals" |
        awk -v f="$SCALE" '{ printf "%d %d %d %d %d %d", $1 / f, $2 / f, $3 / f, $4, $5, $6 }')"
    if [ -n "$NODE_CACHE" ]; then
        NODE_CACHE_MIB=$(mib_of "$NODE_CACHE") || die "--node-cache '$NODE_CACHE': not a size (e.g. 64M, 1G; at least 1 MiB)"
    fi
    [ "$DISK_MBPS" -ge 1 ] || die "--scale $SCALE: too large"
    SRV_LINK=${SRV_LINK}mbit NODE_LINK=${NODE_LINK}mbit
    [ -n "$BANDWIDTH" ] && die "--bandwidth and --profile exclude each other (the profile sets the links)"
    NODES=${NODES:-2}
else
    [ -n "$NODE_CACHE" ] && die "--node-cache needs --profile (the node cache is part of a profile)"
    SRV_LINK=$BANDWIDTH NODE_LINK=$BANDWIDTH
fi
NODES=${NODES:-0}
case $NODES in ''|*[!0-9]*) die "--nodes '$NODES': not a number" ;; esac
[ "$NODES" -le 8 ] || die "--nodes $NODES: use 0..8"
case $NS in ''|*[!a-z0-9]*) die "XT_TESTBED_NS '$NS': use 1-9 lowercase letters/digits" ;; esac
[ ${#NS} -le 9 ] || die "XT_TESTBED_NS '$NS': at most 9 characters (interface names)"
case $SERVERS in ''|*[!0-9]*) die "--servers '$SERVERS': not a number" ;; esac
[ "$SERVERS" -ge 1 ] && [ "$SERVERS" -le 8 ] || die "--servers $SERVERS: use 1..8"
case $cmd in
    start) start ;;
    stop) stop ;;
    status) status ;;
    probe) probe && if [ -n "$PROFILE" ]; then profile_missing; fi ;;
    spread) spread "$@" ;;
    node) node "$@" ;;
    drop-caches) drop_caches ;;
    mpiexec) tb_mpiexec "$@" ;;
    *) echo "usage: $0 start|stop|status|probe [options]" >&2; exit 2 ;;
esac

/* romio-xt: the one declarative hint table.
 *
 * Every romio-xt hint is one row.  The table drives parsing and validation at
 * open and at MPI_File_set_info, the effective values MPI_File_get_info
 * returns, and the hint reference in README (tools/xt_hintdoc).
 *
 * X(id, name, type, default, min, max, choices, flags, env, doc)
 *   type    XT_ENUM (choices "a|b|c"), XT_INT, XT_SIZE (bytes, k/m/g suffix),
 *           XT_DOUBLE, XT_STRING
 *   min,max range for numbers (inclusive)
 *   flags   XT_AGREE: must agree across ranks (rank 0's value wins);
 *           XT_OPEN_ONLY: only read at open, MPI_File_set_info cannot change it
 *   env     environment variable that sets the hint when no hint is given, or NULL
 */
#ifndef XT_HINT_TABLE_H
#define XT_HINT_TABLE_H

#define XT_HINT_TABLE(X) \
    X(XT_H_STATS, "romio_xt_stats", XT_ENUM, "disable", 0, 0, "disable|enable", \
      XT_AGREE | XT_OPEN_ONLY, "ROMIO_XT_STATS", \
      "Stats layer: count calls, bytes, time per operation and file-system requests; " \
      "at close, rank 0 prints one JSON line per file to stderr or to the file named by " \
      "ROMIO_XT_STATS_FILE. ROMIO_XT_STATS=1 in the environment does the same.") \
    X(XT_H_DS_READ, "romio_ds_read", XT_ENUM, "automatic", 0, 0, \
      "automatic|enable|disable|adaptive", XT_AGREE, NULL, \
      "Stock ROMIO's data sieving switch for independent noncontiguous reads, plus " \
      "'adaptive': decide per hole from a calibrated cost model (romio_ads_*). " \
      "'adaptive' takes effect at open.") \
    X(XT_H_DS_WRITE, "romio_ds_write", XT_ENUM, "automatic", 0, 0, \
      "automatic|enable|disable|adaptive", XT_AGREE, NULL, \
      "As romio_ds_read, for independent noncontiguous writes: 'adaptive' chooses per region " \
      "between read-modify-write and separate writes, never read-modify-writes a region " \
      "without holes.") \
    X(XT_H_ADS_METHOD, "romio_ads_method", XT_ENUM, "adaptive", 0, 0, \
      "naive|romio|model|extent|adaptive", XT_AGREE, NULL, \
      "Adaptive sieving's decision method (for comparisons): naive = never through holes; " \
      "romio = always, filling the buffer; model = through a hole when moving it costs less " \
      "than a request; extent = model, never past the last needed byte; adaptive = extent + " \
      "block/stripe alignment + separate read/write costs + end-of-file and page-cache state.") \
    X(XT_H_ADS_LATENCY, "romio_ads_latency", XT_DOUBLE, "0", 0, 10, NULL, XT_AGREE, NULL, \
      "Seconds per file-system request for the cost model; 0 = calibrate.") \
    X(XT_H_ADS_BANDWIDTH, "romio_ads_bandwidth", XT_SIZE, "0", 0, 1e15, NULL, XT_AGREE, NULL, \
      "Bytes per second for the cost model (k/m/g suffixes); 0 = calibrate.") \
    X(XT_H_ADS_STRIPE, "romio_ads_stripe_size", XT_SIZE, "0", 0, 1LL << 40, NULL, XT_AGREE, NULL, \
      "Alignment unit for the cost model; 0 = striping_unit when known, else the file " \
      "system's block size.") \
    X(XT_H_ADS_CALIBRATE, "romio_ads_calibrate", XT_ENUM, "enable", 0, 0, "enable|disable", \
      XT_AGREE, NULL, \
      "Measure the file system's latency and bandwidth once per directory (a ~16 MiB probe " \
      "file, ~0.1 s) and cache them in $XDG_CACHE_HOME/romio-xt/ads-calibration; 'disable' " \
      "uses built-in costs unless romio_ads_latency/romio_ads_bandwidth are given.") \
    X(XT_H_PF, "romio_prefetch", XT_ENUM, "disable", 0, 0, "disable|enable", \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Prefetch for reads of this file: a window of blocks follows the reads (independent, " \
      "strided and the aggregators' reads in collective I/O) and the blocks ahead of it are " \
      "prefetched. Not installed for write-only files.") \
    X(XT_H_PF_BLOCK_SIZE, "romio_prefetch_block_size", XT_SIZE, "4m", 4096, 1073741824.0, NULL, \
      XT_AGREE | XT_OPEN_ONLY, NULL, "Prefetch block size in bytes (k/m/g suffixes).") \
    X(XT_H_PF_CACHE_BLOCKS, "romio_prefetch_cache_blocks", XT_INT, "8", 1, 4096, NULL, \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Blocks in the prefetch window: the current block, the read-ahead and the blocks kept " \
      "behind it for backward seeks. With method buffer, the cache memory per open file is " \
      "at most cache_blocks x block_size.") \
    X(XT_H_PF_READ_AHEAD, "romio_prefetch_read_ahead", XT_INT, "4", 0, 4095, NULL, \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Blocks prefetched after the current one (at most romio_prefetch_cache_blocks - 1).") \
    X(XT_H_PF_WILLNEED, "romio_prefetch_willneed", XT_STRING, "0:0", 0, 0, NULL, \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Byte ranges to prefetch, `offset:length,...` (k/m/g suffixes; length 0 = to the end " \
      "of the file; `0:0` = the whole file). Reads outside them bypass the prefetcher.") \
    X(XT_H_PF_METHOD, "romio_prefetch_method", XT_ENUM, "fadvise", 0, 0, "fadvise|buffer", \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "fadvise: a background thread advises POSIX_FADV_WILLNEED for blocks entering the " \
      "window, POSIX_FADV_DONTNEED for blocks leaving it (the kernel's page cache holds the " \
      "data). buffer: a background thread reads the blocks into a bounded in-process cache " \
      "that serves the reads, for " \
      "file systems that ignore fadvise; only for files opened read-only (a file open for " \
      "writing runs without prefetch, one warning: other processes' writes would not show), " \
      "atomic mode bypasses it.") \
    X(XT_H_E10_CACHE, "e10_cache", XT_ENUM, "disable", 0, 0, "disable|enable|coherent|strict", \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "NVM write-behind (E10 name): contiguous writes (two-phase aggregators' and independent " \
      "ones) go to a per-process cache file in e10_cache_path and background threads copy " \
      "them to the global file; MPI_File_sync and MPI_File_close wait until all is copied. " \
      "coherent also holds a byte-range lock on the global file for each cached extent " \
      "until it is synced. strict: only the writes of collective calls are cached and a " \
      "collective write returns once they are synced, so no data is left unsynced between " \
      "calls and a write, MPI_Barrier, read of another process's data works without " \
      "MPI_File_sync, as with stock ROMIO; implies flush_immediate.") \
    X(XT_H_E10_CACHE_PATH, "e10_cache_path", XT_STRING, "", 0, 0, NULL, XT_OPEN_ONLY, NULL, \
      "Directory for the cache files, on node-local fast storage (NVMe, SSD, tmpfs). " \
      "Unset or unusable: one warning, the data goes straight to the global file.") \
    X(XT_H_E10_CACHE_FLUSH, "e10_cache_flush_flag", XT_ENUM, "flush_immediate", 0, 0, \
      "flush_immediate|flush_onclose", XT_AGREE | XT_OPEN_ONLY, NULL, \
      "flush_immediate: copying to the global file starts as soon as a write returns; " \
      "flush_onclose: it starts at MPI_File_sync or MPI_File_close.") \
    X(XT_H_E10_CACHE_DISCARD, "e10_cache_discard_flag", XT_ENUM, "enable", 0, 0, \
      "disable|enable", XT_AGREE | XT_OPEN_ONLY, NULL, \
      "enable: delete the cache file at close once everything is synced; disable: keep it " \
      "(romio-xt-recover can replay what was not synced).") \
    X(XT_H_E10_CACHE_THREADS, "e10_cache_threads", XT_INT, "1", 1, 64, NULL, \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Sync threads per process; each copies chunks of ind_wr_buffer_size bytes.") \
    X(XT_H_ORTH, "romio_orthrus", XT_ENUM, "disable", 0, 0, "disable|enable", \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Orthrus: each collective read/write is run by one of several collective-I/O " \
      "implementations (romio_orthrus_candidates), chosen on line: a new access pattern " \
      "is examined (each candidate runs romio_orthrus_trials calls), the fastest is kept " \
      "for that pattern and re-examined when its throughput drifts.") \
    X(XT_H_ORTH_CANDIDATES, "romio_orthrus_candidates", XT_STRING, \
      "two_phase,core_first,disk_first,view_based", \
      0, 0, NULL, XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Comma list of candidates: two_phase (stock ROMIO), core_first (one aggregator per " \
      "node, data exchange inside the node), disk_first (one aggregator per data server, " \
      "striping_factor or else the number of nodes, each issuing its stripes' requests in " \
      "ascending order), view_based (views at the aggregators, static file domains, an " \
      "aggregator buffer cache: romio_vb_*). Unknown names: one warning, skipped.") \
    X(XT_H_ORTH_FORCE, "romio_orthrus_force", XT_ENUM, "none", 0, 0, \
      "none|two_phase|core_first|disk_first|view_based", XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Pin one candidate for every collective call (no examination); also turns Orthrus on.") \
    X(XT_H_ORTH_TRIALS, "romio_orthrus_trials", XT_INT, "3", 1, 1000, NULL, \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Calls per candidate in an examination, and the monitoring window of the winner.") \
    X(XT_H_ORTH_THRESHOLD, "romio_orthrus_threshold", XT_DOUBLE, "0.15", 0, 100, NULL, \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Relative drop of the winner's throughput (over a window of trials calls) below its " \
      "examination average that starts a re-examination, when it also fell below the " \
      "runner-up's examination throughput.") \
    X(XT_H_ORTH_SERVERS, "romio_orthrus_servers", XT_INT, "0", 0, 4096, NULL, \
      XT_AGREE | XT_OPEN_ONLY, "ROMIO_XT_ORTHRUS_SERVERS", \
      "disk_first: number of data servers the file is striped over (one aggregator each); " \
      "0 = striping_factor, else the number of nodes. MooseFS: its chunk servers.") \
    X(XT_H_ORTH_STRIPE, "romio_orthrus_stripe_unit", XT_SIZE, "0", 0, 1LL << 40, NULL, \
      XT_AGREE | XT_OPEN_ONLY, "ROMIO_XT_ORTHRUS_STRIPE_UNIT", \
      "disk_first: bytes per server before the next one (k/m/g); 0 = striping_unit, " \
      "else 64k. MooseFS: 64m (its chunk size; chunks go round-robin over the servers).") \
    X(XT_H_ORTH_TABLE, "romio_orthrus_table", XT_STRING, "", 0, 0, NULL, \
      XT_AGREE | XT_OPEN_ONLY, "ROMIO_XT_ORTHRUS_TABLE", \
      "A file that keeps the access-pattern -> winner table across runs: read at open " \
      "(known patterns start with their saved winner, no examination), rewritten by rank 0 " \
      "at close. Unreadable: no saved winners; unwritable: one warning at close.") \
    X(XT_H_ORTH_LOG, "romio_orthrus_log", XT_STRING, "", 0, 0, NULL, XT_OPEN_ONLY, \
      "ROMIO_XT_ORTHRUS_LOG", \
      "A CSV file rank 0 appends one line per collective call to: call, time, op, " \
      "signature, candidate, phase (examining|chosen), bytes, seconds (slowest rank), " \
      "event (chose:<winner> | reexamine).") \
    X(XT_H_VB_CACHE_SIZE, "romio_vb_cache_size", XT_SIZE, "64m", 1, 1LL << 40, NULL, \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "view_based: bytes of buffer cache per aggregator (k/m/g suffixes), in blocks of the " \
      "file-domain unit (striping_unit, else cb_buffer_size); at least one block.") \
    X(XT_H_VB_LAZY, "romio_vb_lazy", XT_ENUM, "disable", 0, 0, "disable|enable", \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "view_based: send a new view to the aggregators with the first collective access " \
      "after MPI_File_set_view instead of at MPI_File_set_view.") \
    X(XT_H_VB_PREFETCH, "romio_vb_prefetch", XT_ENUM, "disable", 0, 0, "disable|enable", \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "view_based: a collective read that misses the cache reads the whole file-domain " \
      "block (read-ahead for the next calls), not just the hull of the call's pieces.") \
    X(XT_H_TRACE, "romio_xt_trace", XT_ENUM, "disable", 0, 0, "disable|enable", \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "Trace layer: one 40-byte record per MPI-IO data call per rank (times, op, offset, " \
      "bytes, pieces, collective, layer decisions), written to romio_xt_trace_dir/<job>-<rank>.xtt " \
      "for romio-xt-phases. Setting romio_xt_trace_dir (or ROMIO_XT_TRACE=DIR) also turns it on.") \
    X(XT_H_TRACE_DIR, "romio_xt_trace_dir", XT_STRING, "", 0, 0, NULL, XT_AGREE | XT_OPEN_ONLY, \
      "ROMIO_XT_TRACE", \
      "Directory for the trace files (created if missing; empty = the current directory). " \
      "Unwritable: one warning, tracing off, the job runs.")

#endif

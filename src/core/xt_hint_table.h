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
    X(XT_H_E10_CACHE, "e10_cache", XT_ENUM, "disable", 0, 0, "disable|enable|coherent", \
      XT_AGREE | XT_OPEN_ONLY, NULL, \
      "NVM write-behind (E10 name): contiguous writes (two-phase aggregators' and independent " \
      "ones) go to a per-process cache file in e10_cache_path and background threads copy " \
      "them to the global file; MPI_File_sync and MPI_File_close wait until all is copied. " \
      "coherent also holds a byte-range lock on the global file for each cached extent " \
      "until it is synced.") \
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
      "Sync threads per process; each copies chunks of ind_wr_buffer_size bytes.")

#endif

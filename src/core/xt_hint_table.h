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
      "ROMIO_XT_STATS_FILE. ROMIO_XT_STATS=1 in the environment does the same.")

#endif

/* Prints the hint reference (markdown) from the hint table: the table in
 * docs/hints.md is this program's output (make readme-hints). */
#include <stdio.h>
#include <string.h>
#include "xt_hints.h"

static const char *type_name(enum xt_hint_type t)
{
    static const char *const names[] = {
        [XT_ENUM] = "keyword", [XT_INT] = "integer", [XT_SIZE] = "bytes",
        [XT_DOUBLE] = "number", [XT_STRING] = "text"
    };
    return names[t];
}

static void allowed(const struct xt_hint_def *d, char *buf, size_t len)
{
    switch (d->type) {
        case XT_ENUM:
            snprintf(buf, len, "`%s`", d->choices);
            for (char *p = buf; *p; p++)
                if (*p == '|')
                    *p = ',';
            break;
        case XT_INT:
        case XT_SIZE:
            snprintf(buf, len, "%.0f … %.0f%s", d->min, d->max,
                     d->type == XT_SIZE ? " (suffix k, m, g allowed)" : "");
            break;
        case XT_DOUBLE:
            snprintf(buf, len, "%g … %g", d->min, d->max);
            break;
        case XT_STRING:
            snprintf(buf, len, "up to %zu characters",
                     sizeof(((struct xt_hint_value *) 0)->s) - 1);
            break;
    }
}

int main(int argc, char **argv)
{
    char buf[256];
    /* --names: every hint; --valued-names: those with a value by default
     * (MPI_File_get_info shows them even when unset) */
    int valued = argc > 1 && strcmp(argv[1], "--valued-names") == 0;
    if (argc > 1 && (valued || strcmp(argv[1], "--names") == 0)) {
        for (int h = 0; h < XT_NHINTS; h++)
            if (!valued || xt_hint_defs[h].defval[0])
                printf("%s\n", xt_hint_defs[h].name);
        return 0;
    }
    printf("| hint | type | default | allowed | same on all ranks | set after open | what it does |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (int h = 0; h < XT_NHINTS; h++) {
        const struct xt_hint_def *d = &xt_hint_defs[h];
        if (d->flags & XT_INTERNAL)
            continue;
        allowed(d, buf, sizeof(buf));
        printf("| `%s` | %s | %s%s%s | %s | %s | %s | %s%s%s%s |\n", d->name, type_name(d->type),
               d->defval[0] ? "`" : "", d->defval[0] ? d->defval : "(unset)",
               d->defval[0] ? "`" : "", buf, (d->flags & XT_AGREE) ? "yes (rank 0's wins)" : "no",
               (d->flags & XT_OPEN_ONLY) ? "no" : "yes", d->doc,
               d->env ? " Environment: `" : "", d->env ? d->env : "", d->env ? "`." : "");
    }
    return 0;
}

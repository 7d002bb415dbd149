#include "hw_error.h"
#include <stdarg.h>
#include <stdio.h>

int hw_fail(struct hw_error *e, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    e->status = status;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

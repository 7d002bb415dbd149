/* Errors of the Linux user-space backend: one message a user can act on
 * (what failed, on which device, what to do) and an exit status that says
 * which kind of failure it was. */
#ifndef NICSIM_HW_ERROR_H
#define NICSIM_HW_ERROR_H
#include <stddef.h>

/* nicsim-hw's exit statuses (its --help lists them). */
enum hw_status {
    HW_OK = 0,
    HW_RUN_FAILED = 1,   /* the run itself failed: DMA fault, TX hang, link down, frames missing */
    HW_BAD_INPUT = 2,    /* bad command line or scenario */
    HW_NOT_READY = 3,    /* the machine is not ready: not root, no hugepages, device not
                            found / of the wrong ID / in use, IOMMU group not viable,
                            kernel module missing */
};

struct hw_error {
    int status;          /* enum hw_status */
    char msg[1024];
};

/* Set e (status and printf-style message); returns -1 so callers can
 * `return hw_fail(e, ...)`. */
int hw_fail(struct hw_error *e, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

/* Coroutines for simulated CPUs: each CPU runs its app (pktgen, a router)
 * as ordinary blocking code on its own stack, and gives control back to the
 * scheduler whenever it must wait for another CPU to catch up in simulated
 * time.  Plain ucontext: no threads, so runs stay deterministic.  Under
 * AddressSanitizer the stack switches are announced to it. */
#ifndef NICSIM_COROUTINE_H
#define NICSIM_COROUTINE_H
#include <stddef.h>
#include <ucontext.h>

typedef struct coroutine {
    ucontext_t ctx;             /* the coroutine's own context */
    ucontext_t caller;          /* where resume() was called from */
    void *stack;
    size_t stack_size;
    void (*fn)(void *arg);
    void *arg;
    int finished;
    void *fake_stack;           /* AddressSanitizer bookkeeping */
} coroutine;

/* Prepare co to run fn(arg) on a stack of stack_size bytes; 0 ok, -1 no memory. */
int coroutine_init(coroutine *co, void (*fn)(void *), void *arg, size_t stack_size);
void coroutine_free(coroutine *co);
/* Run co until it yields or fn returns (then co->finished is set). */
void coroutine_resume(coroutine *co);
/* From inside co: return to the resume() caller; continues on the next resume. */
void coroutine_yield(coroutine *co);

#endif

#include "coroutine.h"
#include <stdint.h>
#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#define NICSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NICSIM_ASAN 1
#endif
#endif

#ifdef NICSIM_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
#endif

#ifdef NICSIM_ASAN
/* The caller's stack, remembered the first time a coroutine switches back. */
static const void *main_bottom;
static size_t main_size;
#endif

static void trampoline(unsigned hi, unsigned lo)
{
    coroutine *co = (coroutine *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
#ifdef NICSIM_ASAN
    __sanitizer_finish_switch_fiber(NULL, &main_bottom, &main_size);
#endif
    co->fn(co->arg);
    co->finished = 1;
#ifdef NICSIM_ASAN
    __sanitizer_start_switch_fiber(NULL, main_bottom, main_size);
#endif
    /* returning continues at uc_link: the resume() caller */
}

int coroutine_init(coroutine *co, void (*fn)(void *), void *arg, size_t stack_size)
{
    co->stack = malloc(stack_size);
    if (!co->stack)
        return -1;
    co->stack_size = stack_size;
    co->fn = fn;
    co->arg = arg;
    co->finished = 0;
    co->fake_stack = NULL;
    if (getcontext(&co->ctx) != 0) {
        free(co->stack);
        co->stack = NULL;
        return -1;
    }
    co->ctx.uc_stack.ss_sp = co->stack;
    co->ctx.uc_stack.ss_size = stack_size;
    co->ctx.uc_link = &co->caller;
    uintptr_t p = (uintptr_t)co;
    makecontext(&co->ctx, (void (*)(void))trampoline, 2, (unsigned)(p >> 32), (unsigned)(p & 0xFFFFFFFFu));
    return 0;
}

void coroutine_free(coroutine *co)
{
    free(co->stack);
    co->stack = NULL;
}

void coroutine_resume(coroutine *co)
{
#ifdef NICSIM_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, co->stack, co->stack_size);
#endif
    swapcontext(&co->caller, &co->ctx);
#ifdef NICSIM_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

void coroutine_yield(coroutine *co)
{
#ifdef NICSIM_ASAN
    __sanitizer_start_switch_fiber(&co->fake_stack, main_bottom, main_size);
#endif
    swapcontext(&co->ctx, &co->caller);
#ifdef NICSIM_ASAN
    __sanitizer_finish_switch_fiber(co->fake_stack, &main_bottom, &main_size);
#endif
}

/* SPDX-License-Identifier: MIT */
/*
 * ctx.h — coroutine contexts for tasks.
 *
 * A context is a saved stack pointer.  sim_ctx_swap() (switch_x86_64.S,
 * switch_aarch64.S) pushes the callee-saved registers of the ABI on the
 * current stack, stores the stack pointer in *save, loads `next` and pops
 * the registers saved there: a plain function call as far as the compiler
 * knows, so nothing else needs saving.  A fresh context is a stack prepared
 * so that the first swap into it "returns" into sim_ctx_entry, which calls
 * entry(arg) with arg and entry taken from two callee-saved registers.
 *
 * Elsewhere (other architectures, or -DSIM_CTX_UCONTEXT) the same interface
 * is implemented with getcontext/makecontext/swapcontext, which is slower
 * (it saves the signal mask with a system call) but portable.
 *
 * Under AddressSanitizer the callers announce every switch with
 * __sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber
 * (task.c); this file knows nothing about it.
 */
#ifndef SLOWPATH_SIM_CTX_H
#define SLOWPATH_SIM_CTX_H

#include <stddef.h>

#if !defined(SIM_CTX_UCONTEXT) && !defined(__x86_64__) && !defined(__aarch64__)
#define SIM_CTX_UCONTEXT 1
#endif

#ifdef SIM_CTX_UCONTEXT
#include <ucontext.h>
#endif

typedef void (*sim_ctx_entry_fn)(void *arg);

struct sim_ctx {
#ifdef SIM_CTX_UCONTEXT
	ucontext_t	uc;
#else
	void		*sp;
#endif
};

/* Prepare `c` to run entry(arg) on the stack [lo, lo + size) when first
 * switched to.  entry must never return. */
void sim_ctx_make(struct sim_ctx *c, void *lo, size_t size, sim_ctx_entry_fn entry, void *arg);

#ifdef SIM_CTX_UCONTEXT
static inline void sim_ctx_switch(struct sim_ctx *from, struct sim_ctx *to)
{
	swapcontext(&from->uc, &to->uc);
}
#else
void sim_ctx_swap(void **save_sp, void *next_sp);
static inline void sim_ctx_switch(struct sim_ctx *from, struct sim_ctx *to)
{
	sim_ctx_swap(&from->sp, to->sp);
}
#endif

#endif

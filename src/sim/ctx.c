/* SPDX-License-Identifier: MIT */
/*
 * ctx.c — preparing fresh coroutine contexts (see ctx.h for the design and
 * the switch_*.S files for the register frames this must match).
 */
#include <stdint.h>
#include <string.h>

#include "sim/ctx.h"
#include "sim/debug.h"

#ifdef SIM_CTX_UCONTEXT

/* makecontext passes int arguments only: split the two pointers. */
static void ctx_trampoline(unsigned int e_hi, unsigned int e_lo, unsigned int a_hi, unsigned int a_lo)
{
	uintptr_t e = ((uintptr_t)e_hi << 16 << 16) | e_lo;
	uintptr_t a = ((uintptr_t)a_hi << 16 << 16) | a_lo;
	sim_ctx_entry_fn entry;

	memcpy(&entry, &e, sizeof(entry));
	entry((void *)a);
	SIM_BUG("coroutine entry returned");
}

void sim_ctx_make(struct sim_ctx *c, void *lo, size_t size, sim_ctx_entry_fn entry, void *arg)
{
	uintptr_t e, a = (uintptr_t)arg;

	memcpy(&e, &entry, sizeof(e));
	if (getcontext(&c->uc) != 0)
		SIM_BUG("getcontext failed");
	c->uc.uc_stack.ss_sp = lo;
	c->uc.uc_stack.ss_size = size;
	c->uc.uc_link = NULL;
	makecontext(&c->uc, (void (*)(void))ctx_trampoline, 4,
		    (unsigned int)(e >> 16 >> 16), (unsigned int)e,
		    (unsigned int)(a >> 16 >> 16), (unsigned int)a);
}

#else

void sim_ctx_entry(void);	/* switch_*.S */

void sim_ctx_make(struct sim_ctx *c, void *lo, size_t size, sim_ctx_entry_fn entry, void *arg)
{
	uintptr_t hi = ((uintptr_t)lo + size) & ~(uintptr_t)15;
	uintptr_t entry_pc = (uintptr_t)sim_ctx_entry;
	uintptr_t fn;
	uintptr_t *f;

	memcpy(&fn, &entry, sizeof(fn));
#if defined(__x86_64__)
	/* After the final `ret` of sim_ctx_swap rsp = hi - 16, 16-aligned, so
	 * the `call` in sim_ctx_entry enters entry() with the ABI alignment. */
	f = (uintptr_t *)(hi - 16 - 56);
	f[0] = 0;		/* r15 */
	f[1] = 0;		/* r14 */
	f[2] = 0;		/* r13 */
	f[3] = fn;		/* r12 */
	f[4] = (uintptr_t)arg;	/* rbx */
	f[5] = 0;		/* rbp */
	f[6] = entry_pc;	/* return address */
#elif defined(__aarch64__)
	f = (uintptr_t *)(hi - 16 - 160);
	memset(f, 0, 160);
	f[0] = (uintptr_t)arg;	/* x19 */
	f[1] = fn;		/* x20 */
	f[10] = 0;		/* x29 */
	f[11] = entry_pc;	/* x30 */
#endif
	c->sp = f;
}

#endif

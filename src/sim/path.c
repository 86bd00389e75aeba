/* SPDX-License-Identifier: MIT */
/*
 * path.c — call-path attribution: where CPU, spin, sleep, I/O and run-queue
 * time went, as one tree per task kind (like `perf report --children`
 * without the children column: every figure is "self").
 *
 * Nodes live in one growable array; node k (k < number of kinds) is the
 * root of kind k and carries the kind's name.  A node is identified by
 * (parent, name) and interned on first use; children are linked in
 * first-seen order, so the tree's shape depends only on the order of
 * events, never on addresses.
 *
 * Lookup (sim_path_push is on hot paths): an open-addressing hash keyed by
 * (parent index, name pointer).  Names are string literals, so the same
 * call site always passes the same pointer and one probe with a pointer
 * comparison finds it.  On a miss the parent's children are compared by
 * content (two literals with equal text may have different addresses in
 * different translation units); the (parent, pointer) pair is then cached
 * as an alias of the node found or created.  The hash is a cache only: it
 * is never iterated, so its pointer-dependent layout cannot reach output.
 *
 * Each task has a stack of at most SIM_PATH_DEPTH open nodes (saved
 * parents in path_stack[], the top in `top`); charges go to `top`.  Every
 * attributed function pops once, at its one exit; sim_path_assert_empty()
 * catches a push left open (at task exit and at the top of each
 * long-running task's main loop, in SIM_DEBUG builds).
 *
 * A kind registered after non-root nodes exist gets its root at index k by
 * shifting every later node up by one and renumbering all references
 * (rare: kinds are normally registered before the run starts).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"

static void nodes_reserve(struct sim *sim, uint32_t n)
{
	if (n <= sim->nodes_cap)
		return;
	while (sim->nodes_cap < n)
		sim->nodes_cap = sim->nodes_cap ? 2 * sim->nodes_cap : 256;
	sim->nodes = realloc(sim->nodes, sim->nodes_cap * sizeof(*sim->nodes));
	if (!sim->nodes)
		SIM_BUG("out of memory");
}

static inline uint32_t slot_hash(const struct sim *sim, uint32_t parent, const char *name)
{
	uint64_t h = ((uint64_t)(uintptr_t)name ^ ((uint64_t)parent << 40)) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(h >> 32) & sim->path_hash_mask;
}

static void hash_insert(struct sim *sim, uint32_t parent, const char *name, uint32_t node)
{
	uint32_t i = slot_hash(sim, parent, name);

	while (sim->path_hash[i].name)
		i = (i + 1) & sim->path_hash_mask;
	sim->path_hash[i].name = name;
	sim->path_hash[i].parent = parent;
	sim->path_hash[i].node = node;
	sim->path_hash_used++;
}

/* Resize (or rebuild in place with new node numbers) the cache. */
static void hash_rebuild(struct sim *sim, uint32_t size, uint32_t shift_from)
{
	struct sim_path_slot *old = sim->path_hash;
	uint32_t old_size = old ? sim->path_hash_mask + 1 : 0;

	sim->path_hash = calloc(size, sizeof(*sim->path_hash));
	if (!sim->path_hash)
		SIM_BUG("out of memory");
	sim->path_hash_mask = size - 1;
	sim->path_hash_used = 0;
	for (uint32_t i = 0; i < old_size; i++) {
		struct sim_path_slot s = old[i];

		if (!s.name)
			continue;
		if (s.parent >= shift_from)
			s.parent++;
		if (s.node >= shift_from)
			s.node++;
		hash_insert(sim, s.parent, s.name, s.node);
	}
	free(old);
}

void sim_path_init(struct sim *sim)
{
	hash_rebuild(sim, 1024, UINT32_MAX);
}

void sim_path_release(struct sim *sim)
{
	free(sim->path_base);
	sim->path_base = NULL;
	sim->nr_path_base = 0;
	free(sim->nodes);
	free(sim->path_hash);
	sim->nodes = NULL;
	sim->path_hash = NULL;
}

static inline uint32_t shift(uint32_t i, uint32_t k)
{
	return i >= k ? i + 1 : i;
}

void sim_path_add_root(struct sim *sim, int kind)
{
	uint32_t k = (uint32_t)kind;
	struct sim_path_node *n;

	nodes_reserve(sim, sim->nr_nodes + 1);
	if (k < sim->nr_nodes) {
		/* Renumber: every index >= k moves up by one. */
		memmove(&sim->nodes[k + 1], &sim->nodes[k],
			(sim->nr_nodes - k) * sizeof(*sim->nodes));
		for (uint32_t i = 0; i <= sim->nr_nodes; i++) {
			if (i == k)
				continue;
			n = &sim->nodes[i];
			if (n->first_child)
				n->first_child = shift(n->first_child, k);
			if (n->next_sibling)
				n->next_sibling = shift(n->next_sibling, k);
			if (i > k && n->parent)	/* roots (i < k) keep parent 0 */
				n->parent = shift(n->parent, k);
			if (i > k && n->parent == 0 && n->kind != 0)
				SIM_BUG("path tree inconsistent");
		}
		for (uint32_t t = 0; t < sim->nr_tasks; t++) {
			struct sim_task *task = sim->tasks[t];

			task->top = shift(task->top, k);
			for (uint32_t d = 0; d < task->depth; d++)
				task->path_stack[d] = shift(task->path_stack[d], k);
		}
		hash_rebuild(sim, sim->path_hash_mask + 1, k);
	}
	if (k < sim->nr_path_base) {	/* the window's copy follows the renumbering */
		struct sim_path_node *b = realloc(sim->path_base,
						  (sim->nr_path_base + 1) * sizeof(*b));

		if (!b)
			SIM_BUG("out of memory");
		memmove(&b[k + 1], &b[k], (sim->nr_path_base - k) * sizeof(*b));
		memset(&b[k], 0, sizeof(*b));
		sim->path_base = b;
		sim->nr_path_base++;
	}
	n = &sim->nodes[k];
	memset(n, 0, sizeof(*n));
	n->name = sim->kind_names[kind];
	n->kind = kind;
	sim->nr_nodes++;
}

/* Find or create the child `name` of `parent`. */
static uint32_t path_child(struct sim *sim, uint32_t parent, const char *name)
{
	uint32_t i = slot_hash(sim, parent, name);
	uint32_t c, last = 0;
	struct sim_path_node *n;

	for (;;) {
		const struct sim_path_slot *s = &sim->path_hash[i];

		if (s->name == name && s->parent == parent)
			return s->node;
		if (!s->name)
			break;
		i = (i + 1) & sim->path_hash_mask;
	}
	/* Miss: compare by content among the children, else create. */
	for (c = sim->nodes[parent].first_child; c; c = sim->nodes[c].next_sibling) {
		if (strcmp(sim->nodes[c].name, name) == 0)
			break;
		last = c;
	}
	if (!c) {
		nodes_reserve(sim, sim->nr_nodes + 1);
		c = sim->nr_nodes++;
		n = &sim->nodes[c];
		memset(n, 0, sizeof(*n));
		n->name = name;
		n->parent = parent;
		n->kind = sim->nodes[parent].kind;
		if (last)
			sim->nodes[last].next_sibling = c;
		else
			sim->nodes[parent].first_child = c;
	}
	if (2 * (sim->path_hash_used + 1) > sim->path_hash_mask + 1)
		hash_rebuild(sim, 2 * (sim->path_hash_mask + 1), UINT32_MAX);
	hash_insert(sim, parent, name, c);
	return c;
}

void sim_path_push(struct sim *sim, const char *name)
{
	struct sim_task *t = sim->current;
	uint32_t c;

	if (!t)
		return;
	if (unlikely(t->depth == SIM_PATH_DEPTH))
		SIM_BUG("task %s: call path deeper than %d at %s", t->name, SIM_PATH_DEPTH, name);
	c = path_child(sim, t->top, name);
	t->path_stack[t->depth++] = t->top;
	t->top = c;
	sim->nodes[c].calls++;
}

void sim_path_pop(struct sim *sim)
{
	struct sim_task *t = sim->current;

	if (!t)
		return;
	if (unlikely(t->depth == 0))
		SIM_BUG("task %s: sim_path_pop without push", t->name);
	t->top = t->path_stack[--t->depth];
}

void sim_path_assert_empty(struct sim *sim)
{
	const struct sim_task *t = sim->current;

	if (SIM_DEBUG >= 1 && t && unlikely(t->depth))
		SIM_BUG("task %s: %u call path(s) left open, innermost %s", t->name, t->depth,
			sim->nodes[t->top].name);
}

uint32_t sim_path_nodes(const struct sim *sim, const struct sim_path_node **nodes)
{
	*nodes = sim->nodes;
	return sim->nr_nodes;
}

/* Each task's open sleep, I/O, run-queue wait or spin, charged up to now
 * to its node in `b` (a copy of the tree; the tree is not touched). */
static void add_open_intervals(const struct sim *sim, struct sim_path_node *b)
{
	for (uint32_t i = 0; i < sim->nr_tasks; i++) {
		const struct sim_task *t = sim->tasks[i];
		struct sim_path_node *n = &b[t->top];

		if (t->state == TASK_BLOCKED && !t->is_irq && sim->now > t->mark) {
			if (t->block_kind == BLOCK_IO)
				n->io_ns += sim->now - t->mark;
			else
				n->sleep_ns += sim->now - t->mark;
		} else if (t->state == TASK_RUNNABLE && sim->now > t->mark) {
			n->runq_ns += sim->now - t->mark;
		} else if (t->state == TASK_RUNNING && t->spinning &&
			   sim->now > t->mark + t->spin_charged) {
			n->spin_ns += sim->now - t->mark - t->spin_charged;
		}
	}
}

static struct sim_path_node *closed_copy(const struct sim *sim)
{
	struct sim_path_node *b = malloc((sim->nr_nodes ? sim->nr_nodes : 1) * sizeof(*b));

	if (!b)
		SIM_BUG("out of memory");
	memcpy(b, sim->nodes, sim->nr_nodes * sizeof(*b));
	add_open_intervals(sim, b);
	return b;
}

void sim_path_window_start(struct sim *sim)
{
	struct sim_path_node *b = closed_copy(sim);

	free(sim->path_base);
	sim->path_base = b;
	sim->nr_path_base = sim->nr_nodes;
	sim->path_base_at = sim->now;
}

static uint64_t window_part(uint64_t now, uint64_t before)
{
	SIM_ASSERT(now >= before);
	return now - before;
}

uint32_t sim_path_window(const struct sim *sim, struct sim_path_node **out, sim_time_t *at)
{
	struct sim_path_node *w;

	*out = NULL;
	*at = sim->path_base_at;
	if (!sim->path_base)
		return 0;
	w = closed_copy(sim);
	for (uint32_t i = 0; i < sim->nr_path_base; i++) {
		const struct sim_path_node *b = &sim->path_base[i];

		w[i].calls = window_part(w[i].calls, b->calls);
		w[i].cpu_ns = window_part(w[i].cpu_ns, b->cpu_ns);
		w[i].spin_ns = window_part(w[i].spin_ns, b->spin_ns);
		w[i].sleep_ns = window_part(w[i].sleep_ns, b->sleep_ns);
		w[i].io_ns = window_part(w[i].io_ns, b->io_ns);
		w[i].runq_ns = window_part(w[i].runq_ns, b->runq_ns);
	}
	*out = w;
	return sim->nr_nodes;
}

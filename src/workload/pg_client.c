/* SPDX-License-Identifier: MIT */
/*
 * pg_client.c — pgbench on the machine under test ([pgbench] client=local):
 * pgbench's threads (-j) as tasks on the same CPUs as the backends, and a
 * loopback TCP round trip per statement (pgbench.c's threadRun loop over
 * its connections; PostgreSQL's pq_getmessage / pq_flush on the backend
 * side; tcp_sendmsg over loopback, whose receive processing runs on the
 * sending CPU, and tcp_recvmsg on the other end).
 *
 * One transaction of simple-update under -M prepared is five statements,
 * each a round trip: the client thread sends it (pgbench_client_stmt of
 * user CPU, then a send system call: tcp_loopback_send), the backend,
 * asleep in ClientRead, wakes, receives it (tcp_recv), executes it (its
 * share of pg_tx_cpu, then the statement's own buffer accesses and WAL)
 * and sends the result (tcp_loopback_send), which wakes the thread; the
 * thread receives it (tcp_recv) and sends the connection's next statement.
 * A message read on another CPU than the one it was sent from costs its
 * reader tcp_remote besides (the skb and the socket's receive queue come
 * over from the sender's CPU, and the skb is freed back to it).
 * The client measures the latency from sending BEGIN to receiving END's
 * result, as pgbench does.
 *
 * pg_tx_cpu keeps its meaning (all of a transaction's backend CPU the
 * modelled steps do not charge), less the ten loopback operations the
 * backend now does explicitly; each statement gets a fifth of the rest.
 *
 * With [kernel] slab=on the connections hold kernel memory (slub.c):
 * each backend's socket (sock_inode_cache + TCP; the accepted child sock
 * is cloned in softirq, GFP_ATOMIC) in both client modes, and with
 * client=local pgbench's end too (GFP_KERNEL).  Each message sent over
 * loopback (client=local) is an skb (skbuff_head_cache + skbuff_small_head)
 * with its payload in the sending task's page fragment
 * (skb_page_frag_refill: order 3 without direct reclaim, else order 0),
 * freed when the peer has read it.
 *
 * Simplified: a thread handles ready connections in arrival order, one
 * result per wake-up loop pass (pgbench polls all its sockets and serves
 * every readable one); the five statements' CPU shares are equal; the
 * client's think time is zero (-T runs a closed loop).  Under slab=on:
 * one skb per message (no ACK skbs, no fclone pair, no socket buffer
 * accounting or sk_stream_wait_memory: a failed skb allocation sends
 * without one); the payload sizes are estimates (PG_STMT_BYTES,
 * PG_RESULT_BYTES); sockets live as long as the run (no disconnect).
 */
#include <stdio.h>
#include <stdlib.h>

#include "workload/pg_internal.h"

/* est: a -M prepared statement is a Bind + Execute + Sync of about a
 * hundred bytes; its result (BindComplete, a DataRow for the SELECT,
 * CommandComplete, ReadyForQuery) under a hundred */
#define PG_STMT_BYTES	128
#define PG_RESULT_BYTES	96

static uint32_t thread_of(const struct pg *pg, const struct pg_proc *p)
{
	return p->id % pg->nthreads;
}

int pg_client_init(struct pg *pg)
{
	uint32_t n = (uint32_t)pg->cfg.threads;

	if (n > pg->nbackends)
		n = pg->nbackends;
	pg->nthreads = n;
	pg->threads = calloc(n, sizeof(*pg->threads));
	if (!pg->threads)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		struct pg_client_thread *t = &pg->threads[i];

		t->pg = pg;
		t->index = i;
		t->cap = pg->nbackends / n + 2;
		t->ready = calloc(t->cap, sizeof(*t->ready));
		if (!t->ready)
			return -1;
		sim_waitq_init(&t->wait, "pgbench poll");
		t->frag.pfn = PFN_NONE;
	}
	for (uint32_t i = 0; i < pg->nbackends; i++)
		sim_waitq_init(&pg->backends[i].sock, "ClientRead");
	return 0;
}

void pg_client_release(struct pg *pg)
{
	for (uint32_t i = 0; i < pg->nthreads && pg->threads; i++)
		free(pg->threads[i].ready);
	free(pg->threads);
	pg->threads = NULL;
	pg->nthreads = 0;
}

/*
 * The connections' sockets (slab=on): accept() on the server gives each
 * backend a socket inode (sock_alloc, GFP_KERNEL) and a TCP sock cloned
 * from the listener in softirq (inet_csk_clone_lock -> sk_clone_lock,
 * GFP_ATOMIC); with client=local pgbench's socket() + connect() makes the
 * other end (GFP_KERNEL).  Nothing without the slab model.
 */
void pg_client_connect(struct pg *pg)
{
	struct machine *m = pg->m;

	for (uint32_t i = 0; i < pg->nbackends; i++) {
		struct pg_proc *p = &pg->backends[i];

		p->frag.pfn = PFN_NONE;
		p->to_backend.frag_pfn = p->to_client.frag_pfn = PFN_NONE;
		if (!slab_enabled(m))
			continue;
		if (pg->cfg.client == PG_CLIENT_LOCAL) {
			p->sk_client[0] = slab_alloc_named(m, SC_sock_inode_cache, GFP_KERNEL);
			p->sk_client[1] = slab_alloc_named(m, SC_TCP, GFP_KERNEL);
		}
		p->sk_server[0] = slab_alloc_named(m, SC_sock_inode_cache, GFP_KERNEL);
		p->sk_server[1] = slab_alloc_named(m, SC_TCP, GFP_ATOMIC);
	}
}

/* send(): the message crosses loopback TCP; the peer is woken. */
static void loopback_send(struct sim *sim)
{
	sim_kernel_enter(sim);
	sim_charge_cost(sim, COST_tcp_loopback_send, 1);
	sim_kernel_exit(sim);
}

/* recv() of a message sent from CPU `from`: on another CPU than that,
 * the skb and the socket's receive state were written there, and the
 * freed skb goes back to that CPU's caches (tcp_remote). */
static void loopback_recv(struct pg *pg, unsigned int from)
{
	struct sim *sim = pg->sim;

	sim_kernel_enter(sim);
	sim_charge_cost(sim, COST_tcp_recv, 1);
	if (from != sim_cpu(sim)) {
		pg->tcp_remote_msgs++;
		sim_charge_cost(sim, COST_tcp_remote, 1);
	}
	sim_kernel_exit(sim);
}

/* The client sends backend `p` its next statement. */
static void client_send(struct sim *sim, struct pg_client_thread *t, struct pg_proc *p)
{
	sim_charge_cost(sim, COST_pgbench_client_stmt, 1);
	loopback_send(sim);
	if (slab_enabled(t->pg->m)) {	/* tcp_sendmsg's skb, in kernel mode */
		sim_kernel_enter(sim);
		alloc_skb_frag(t->pg->m, &t->frag, PG_STMT_BYTES, GFP_KERNEL, &p->to_backend);
		sim_kernel_exit(sim);
	}
	p->stmt_ready = true;
	p->stmt_cpu = sim_cpu(sim);
	sim_wake_one(sim, &p->sock);
}

void pg_stmt_begin(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct sim *sim = pg->sim;
	const struct cost_table *c = sim_costs(sim);
	uint64_t net, cpu = pg_tx_cpu_unmodelled(pg);

	if (pg->cfg.client != PG_CLIENT_LOCAL)
		return;
	sim_path_push(sim, "ClientRead");
	pgstat_report_wait_start(p, PG_WAIT_CLIENT_READ);	/* secure_read's WaitEventSetWait */
	sim_wait_event(sim, &p->sock, p->stmt_ready);
	pgstat_report_wait_end(p);
	p->stmt_ready = false;
	loopback_recv(pg, p->stmt_cpu);
	consume_skb(pg->m, &p->to_backend);	/* tcp_recvmsg: the skb is eaten */
	sim_path_pop(sim);
	net = PG_STATEMENTS * (cost_ns(c, COST_tcp_loopback_send, 1) + cost_ns(c, COST_tcp_recv, 1));
	sim_path_push(sim, "exec");
	sim_charge(sim, cpu > net ? (cpu - net) / PG_STATEMENTS : 0);
	sim_path_pop(sim);
}

void pg_stmt_end(struct pg_proc *p)
{
	struct pg *pg = p->pg;
	struct pg_client_thread *t;

	if (pg->cfg.client != PG_CLIENT_LOCAL)
		return;
	sim_path_push(pg->sim, "pq_flush");
	loopback_send(pg->sim);
	if (slab_enabled(pg->m)) {
		sim_kernel_enter(pg->sim);
		alloc_skb_frag(pg->m, &p->frag, PG_RESULT_BYTES, GFP_KERNEL, &p->to_client);
		sim_kernel_exit(pg->sim);
	}
	sim_path_pop(pg->sim);
	p->result_cpu = sim_cpu(pg->sim);
	t = &pg->threads[thread_of(pg, p)];
	SIM_ASSERT((t->tail - t->head) < t->cap);
	t->ready[t->tail++ % t->cap] = p->id;
	sim_wake_one(pg->sim, &t->wait);
}

/* threadRun: start every connection's first transaction, then serve
 * results as they come. */
static void client_thread_main(struct sim *sim, void *arg)
{
	struct pg_client_thread *t = arg;
	struct pg *pg = t->pg;

	for (uint32_t i = t->index; i < pg->nbackends; i += pg->nthreads) {
		pg->backends[i].stmt = 0;
		pg->backends[i].tx_start = sim_now(sim);
		client_send(sim, t, &pg->backends[i]);
	}
	for (;;) {
		struct pg_proc *p;

		sim_wait_event(sim, &t->wait, t->head != t->tail);
		p = &pg->backends[t->ready[t->head++ % t->cap]];
		loopback_recv(pg, p->result_cpu);
		consume_skb(pg->m, &p->to_client);
		if (p->stmt == PG_STATEMENTS - 1) {	/* END's result: the transaction is done */
			pg_tx_done(pg, p, sim_now(sim) - p->tx_start);
			p->stmt = 0;
			p->tx_start = sim_now(sim);
		} else {
			p->stmt++;
		}
		client_send(sim, t, p);
	}
}

void pg_client_start(struct pg *pg)
{
	int kind = sim_task_kind(pg->sim, "pgbench");
	uint32_t mm = sim_mm_new(pg->sim);	/* -j threads: one process */

	for (uint32_t i = 0; i < pg->nthreads; i++) {
		struct sim_task_config tc = { .kind = kind, .cpu = SIM_CPU_ANY, .mm = mm };
		char name[32];

		snprintf(name, sizeof(name), "pgbench/%u", i);
		tc.name = name;
		pg->threads[i].task = sim_task_create(pg->sim, &tc, client_thread_main, &pg->threads[i], 0);
	}
}

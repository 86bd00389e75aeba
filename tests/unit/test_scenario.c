/* SPDX-License-Identifier: MIT */
/*
 * Tests of the scenario syntax (cli/scenario.c) on a small test schema
 * and an in-memory file system, so every message can be checked exactly.
 * slowpath's own sections are tested by the CLI suites and test_sections.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "cli/scenario.h"
#include "harness.h"

/* ---- a test schema --------------------------------------------------------- */

struct t_global {
	uint64_t	seed;
	uint64_t	duration;
	char		*description;
};

struct t_machine {
	uint64_t	memory;
	uint64_t	cpus;
	uint64_t	share;
};

struct t_sysctl {
	bool		defrag_mode;
	int		thp;
	uint64_t	wsf;
};

struct t_device {
	uint64_t	iops;
	uint64_t	size;
};

struct t_work {
	uint64_t	tasks;
	uint64_t	duration;
	char		*path;
};

struct t_single {
	uint64_t	x;
};

static const char *const thp_names[] = { "always", "madvise", "never", NULL };

static const struct opt_def global_opts[] = {
	{ "seed", OPT_UINT, offsetof(struct t_global, seed), "1", 0, 0, NULL, 0, "seed" },
	{ "duration", OPT_TIME, offsetof(struct t_global, duration), "60", 1000000, 0, NULL,
	  1000000000ULL, "run length" },
	{ "description", OPT_STRING, offsetof(struct t_global, description), NULL, 0, 0, NULL, 0, "text" },
	OPT_END
};

static const struct opt_def machine_opts[] = {
	{ "memory", OPT_SIZE, offsetof(struct t_machine, memory), "1g", 4ULL << 20, 1ULL << 40, NULL, 0, "RAM" },
	{ "cpus", OPT_UINT, offsetof(struct t_machine, cpus), "4", 1, 4096, NULL, 0, "CPUs" },
	{ "share", OPT_PERCENT, offsetof(struct t_machine, share), "25%", 0, 1000000, NULL, 0, "a share" },
	OPT_END
};

static const struct opt_def sysctl_opts[] = {
	{ "vm.defrag_mode", OPT_BOOL, offsetof(struct t_sysctl, defrag_mode), "0", 0, 0, NULL, 0, "" },
	{ "/sys/kernel/mm/transparent_hugepage/enabled", OPT_ENUM, offsetof(struct t_sysctl, thp),
	  "madvise", 0, 0, thp_names, 0, "" },
	{ "vm.watermark_scale_factor", OPT_UINT, offsetof(struct t_sysctl, wsf), "10", 1, 3000, NULL, 0, "" },
	OPT_END
};

static const struct opt_def device_opts[] = {
	{ "iops", OPT_UINT, offsetof(struct t_device, iops), "0", 0, 0, NULL, 0, "" },
	{ "size", OPT_SIZE, offsetof(struct t_device, size), "1t", 0, 0, NULL, 0, "" },
	OPT_END
};

static const struct opt_def work_opts[] = {
	{ "tasks", OPT_UINT, offsetof(struct t_work, tasks), "8", 1, 0, NULL, 0, "" },
	{ "duration", OPT_TIME, offsetof(struct t_work, duration), "1ms", 0, 0, NULL, 0, "" },
	{ "path", OPT_STRING, offsetof(struct t_work, path), "/tmp/x", 0, 0, NULL, 0, "" },
	OPT_END
};

static const struct opt_def single_opts[] = {
	{ "x", OPT_UINT, offsetof(struct t_single, x), "0", 0, 0, NULL, 0, "" },
	OPT_END
};

static int work_validate(const struct scn_section_type *t, const char *name, const void *config,
			 const char **bad_key, char *err, size_t errlen)
{
	const struct t_work *w = config;

	(void)t;
	(void)name;
	if (w->tasks > 100) {
		*bad_key = "tasks";
		snprintf(err, errlen, "tasks must be at most 100");
		return -1;
	}
	if (w->duration == 7) {
		snprintf(err, errlen, "duration 7ns is unlucky");
		return -1;
	}
	return 0;
}

static int work_scale(const struct scn_section_type *t, void *config, unsigned int n,
		      char *err, size_t errlen)
{
	struct t_work *w = config;

	(void)t;
	if (w->tasks < n) {
		snprintf(err, errlen, "%llu tasks cannot be divided by %u", (unsigned long long)w->tasks, n);
		return -1;
	}
	w->tasks /= n;
	return 0;
}

static const struct scn_section_type types[] = {
	{ .kind = "global", .help = "", .options = global_opts, .config_size = sizeof(struct t_global),
	  .flags = SCN_ALWAYS },
	{ .kind = "machine", .help = "", .options = machine_opts, .config_size = sizeof(struct t_machine),
	  .flags = SCN_ALWAYS },
	{ .kind = "sysctl", .help = "", .options = sysctl_opts, .config_size = sizeof(struct t_sysctl),
	  .flags = SCN_ALWAYS },
	{ .kind = "device", .help = "", .options = device_opts, .config_size = sizeof(struct t_device),
	  .flags = SCN_NAME_REQUIRED | SCN_MULTIPLE },
	{ .kind = "work", .help = "", .options = work_opts, .config_size = sizeof(struct t_work),
	  .flags = SCN_NAME_ALLOWED | SCN_MULTIPLE, .validate = work_validate, .scale = work_scale },
	{ .kind = "single", .help = "", .options = single_opts, .config_size = sizeof(struct t_single),
	  .flags = SCN_NAME_ALLOWED },
};

static const struct scn_schema schema = { types, sizeof(types) / sizeof(types[0]), NULL };

/* ---- an in-memory file system ------------------------------------------------ */

struct memfile {
	const char *name, *text;
};

struct memfs {
	const struct memfile *files;
};

static int mem_read(void *ctx, const char *path, char **data, size_t *len, char **id,
		    char *err, size_t errlen)
{
	const struct memfs *fs = ctx;

	for (const struct memfile *f = fs->files; f->name; f++)
		if (strcmp(f->name, path) == 0) {
			*len = strlen(f->text);
			*data = strdup(f->text);
			*id = strdup(path);
			return 0;
		}
	snprintf(err, errlen, "%s", strerror(ENOENT));
	return -1;
}

static char err[1024];

/* Parse `main` from the file table; returns the scenario (also on error). */
static struct scenario *load(const struct memfile *files, int *rc)
{
	static struct memfs fs;
	struct scn_io io = { mem_read, &fs };
	struct scenario *s = scn_create(&schema);

	fs.files = files;
	scn_set_io(s, &io);
	err[0] = '\0';
	*rc = scn_parse_file(s, files[0].name, err, sizeof(err));
	return s;
}

static struct scenario *load1(const char *text, int *rc)
{
	static struct memfile files[2];

	files[0].name = "t.ini";
	files[0].text = text;
	files[1].name = NULL;
	return load(files, rc);
}

/* Expect parsing `text` (as t.ini) to fail with exactly `msg`. */
#define EXPECT_ERROR(text, msg) do {					\
	int _rc;							\
	struct scenario *_s = load1(text, &_rc);			\
	scn_destroy(_s);						\
	ASSERT_EQ(_rc, -1);						\
	ASSERT_STR_EQ(err, msg);					\
} while (0)

/* ---- tests ---------------------------------------------------------------------------- */

/* A test of the basic syntax: sections, key=value with blanks around '=',
 * ';' and '#' comments (whole-line and after a blank), blank and indented
 * lines, CRLF line ends, a BOM, '#' inside a value.  Expect every value set. */
TEST(basic_syntax)
{
	int rc;
	struct scenario *s = load1(
		"\xef\xbb\xbf; a comment\r\n"
		"# another\n"
		"\n"
		"[global]\n"
		"  seed = 7   ; inline\n"
		"description=issue#3 and more # trailing\n"
		"\t[machine]  ; header comment\n"
		"memory=384g\r\n"
		"cpus=96\n"
		"share=0.5\n"
		"[sysctl]\n"
		"vm.defrag_mode=1\n"
		"/sys/kernel/mm/transparent_hugepage/enabled=never\n", &rc);
	struct t_global *g = scn_config(s, "global", NULL);
	struct t_machine *m = scn_config(s, "machine", NULL);
	struct t_sysctl *y = scn_config(s, "sysctl", "");

	ASSERT_EQ(rc, 0);
	ASSERT_U64_EQ(g->seed, 7);
	ASSERT_STR_EQ(g->description, "issue#3 and more");
	ASSERT_U64_EQ(g->duration, 60000000000ULL);
	ASSERT_U64_EQ(m->memory, 384ULL << 30);
	ASSERT_U64_EQ(m->cpus, 96);
	ASSERT_U64_EQ(m->share, 500000);
	ASSERT_TRUE(y->defrag_mode);
	ASSERT_EQ(y->thp, 2);
	ASSERT_U64_EQ(y->wsf, 10);
	ASSERT_STR_EQ(scn_path(s), "t.ini");
	scn_destroy(s);
}

/* A test of named sections: [device NAME] several times, [work] and
 * [work NAME] side by side, a section reopened later in the file, an
 * empty named section that still exists.  Expect four instances after the
 * three always-present ones, in first-seen order, with their values. */
TEST(named_sections)
{
	int rc;
	struct scenario *s = load1(
		"[device md0]\niops=1000\n"
		"[work]\ntasks=3\n"
		"[device nvme1]\n"
		"[work a]\ntasks=4\n"
		"[device md0]\nsize=2t\n", &rc);
	const struct t_device *d;

	ASSERT_EQ(rc, 0);
	ASSERT_EQ(scn_nr_instances(s), 7);
	ASSERT_STR_EQ(scn_instance_at(s, 3)->name, "md0");
	ASSERT_STR_EQ(scn_instance_at(s, 4)->name, "");
	ASSERT_STR_EQ(scn_instance_at(s, 5)->name, "nvme1");
	ASSERT_STR_EQ(scn_instance_at(s, 6)->name, "a");
	d = scn_config(s, "device", "md0");
	ASSERT_U64_EQ(d->iops, 1000);
	ASSERT_U64_EQ(d->size, 2ULL << 40);
	ASSERT_U64_EQ(((struct t_work *)scn_config(s, "work", NULL))->tasks, 3);
	ASSERT_U64_EQ(((struct t_work *)scn_config(s, "work", "a"))->tasks, 4);
	ASSERT_TRUE(scn_config(s, "device", "nope") == NULL);
	ASSERT_TRUE(scn_config(s, "nokind", NULL) == NULL);
	scn_destroy(s);
}

/* A test of include=: paths relative to the including file, nesting, the
 * included file starting in the includer's section, the includer's section
 * unchanged afterwards, and an includer overriding an included value.
 * Expect the values below and key places in the right files. */
TEST(include_nested_and_override)
{
	static const struct memfile files[] = {
		{ "dir/main.ini",
		  "[machine]\n"
		  "include=presets/m.ini\n"	/* line 2 */
		  "cpus=8\n"			/* overrides presets/m.ini */
		  "[sysctl]\n"
		  "include=/abs/sys.ini\n" },
		{ "dir/presets/m.ini", "memory=2g\ncpus=64\ninclude=deeper.ini\n" },
		{ "dir/presets/deeper.ini", "share=10%\n[global]\nseed=99\n" },
		{ "/abs/sys.ini", "; only a comment and one key\nvm.watermark_scale_factor=30\n" },
		{ NULL, NULL }
	};
	int rc;
	struct scenario *s = load(files, &rc);
	const struct scn_instance *m = scn_find(s, "machine", NULL);
	struct t_machine *mc = m->config;
	char place[256];

	ASSERT_STR_EQ(err, "");
	ASSERT_EQ(rc, 0);
	ASSERT_U64_EQ(mc->memory, 2ULL << 30);
	ASSERT_U64_EQ(mc->cpus, 8);
	ASSERT_U64_EQ(mc->share, 100000);
	ASSERT_U64_EQ(((struct t_global *)scn_config(s, "global", NULL))->seed, 99);
	ASSERT_U64_EQ(((struct t_sysctl *)scn_config(s, "sysctl", NULL))->wsf, 30);
	scn_key_place(m, "cpus", place, sizeof(place));
	ASSERT_STR_EQ(place, "dir/main.ini:3");
	scn_key_place(m, "memory", place, sizeof(place));
	ASSERT_STR_EQ(place, "dir/presets/m.ini:1");
	scn_key_place(m, "share", place, sizeof(place));
	ASSERT_STR_EQ(place, "dir/presets/deeper.ini:1");
	scn_key_place(scn_find(s, "sysctl", NULL), "vm.watermark_scale_factor", place, sizeof(place));
	ASSERT_STR_EQ(place, "/abs/sys.ini:2");
	scn_key_place(scn_find(s, "sysctl", NULL), "vm.defrag_mode", place, sizeof(place));
	ASSERT_STR_EQ(place, "");
	scn_destroy(s);
}

/* A test of the include error paths: missing file, cycle, self-include,
 * an included file overriding its includer, two includes setting one key,
 * nesting too deep, empty include=, and an error inside an included file.
 * Expect each exact message with the file and line that caused it. */
TEST(include_errors)
{
	static const struct memfile missing[] = {
		{ "a.ini", "[global]\n\ninclude=nope.ini\n" }, { NULL, NULL } };
	static const struct memfile cycle[] = {
		{ "a.ini", "include=b.ini\n" }, { "b.ini", "\ninclude=a.ini\n" }, { NULL, NULL } };
	static const struct memfile self[] = {
		{ "a.ini", "include=a.ini\n" }, { NULL, NULL } };
	static const struct memfile upward[] = {
		{ "a.ini", "[global]\nseed=1\ninclude=b.ini\n" }, { "b.ini", "seed=2\n" }, { NULL, NULL } };
	static const struct memfile siblings[] = {
		{ "a.ini", "[global]\ninclude=b.ini\ninclude=c.ini\n" },
		{ "b.ini", "seed=2\n" }, { "c.ini", "\nseed=3\n" }, { NULL, NULL } };
	static const struct memfile twice[] = {	/* the same preset twice: its key twice */
		{ "a.ini", "[global]\ninclude=b.ini\ninclude=b.ini\n" },
		{ "b.ini", "seed=2\n" }, { NULL, NULL } };
	static const struct memfile deep[] = {
		{ "a.ini", "include=a1.ini\n" },
		{ "a1.ini", "include=a2.ini\n" }, { "a2.ini", "include=a3.ini\n" },
		{ "a3.ini", "include=a4.ini\n" }, { "a4.ini", "include=a5.ini\n" },
		{ "a5.ini", "include=a6.ini\n" }, { "a6.ini", "include=a7.ini\n" },
		{ "a7.ini", "include=a8.ini\n" }, { "a8.ini", "include=a9.ini\n" },
		{ "a9.ini", "include=a10.ini\n" }, { "a10.ini", "include=a11.ini\n" },
		{ "a11.ini", "include=a12.ini\n" }, { "a12.ini", "include=a13.ini\n" },
		{ "a13.ini", "include=a14.ini\n" }, { "a14.ini", "include=a15.ini\n" },
		{ "a15.ini", "include=a16.ini\n" }, { "a16.ini", "[global]\n" }, { NULL, NULL } };
	static const struct memfile inner[] = {
		{ "a.ini", "[machine]\ninclude=sub/b.ini\n" },
		{ "sub/b.ini", "cpus=4\n\nmemory=12q\n" }, { NULL, NULL } };
	static const struct memfile empty[] = {
		{ "a.ini", "[machine]\ninclude=\n" }, { NULL, NULL } };
	int rc;

	scn_destroy(load(missing, &rc));
	ASSERT_EQ(rc, -1);
	ASSERT_STR_EQ(err, "a.ini:3: cannot include 'nope.ini': No such file or directory");
	scn_destroy(load(cycle, &rc));
	ASSERT_STR_EQ(err, "b.ini:2: include cycle: 'a.ini' is already being read");
	scn_destroy(load(self, &rc));
	ASSERT_STR_EQ(err, "a.ini:1: include cycle: 'a.ini' is already being read");
	scn_destroy(load(upward, &rc));
	ASSERT_STR_EQ(err, "b.ini:1: key 'seed' in [global] is already set at a.ini:2 "
		      "(a file may only override values from files it includes)");
	scn_destroy(load(siblings, &rc));
	ASSERT_STR_EQ(err, "c.ini:2: key 'seed' in [global] is already set at b.ini:1 "
		      "(a file may only override values from files it includes)");
	scn_destroy(load(twice, &rc));
	ASSERT_STR_EQ(err, "b.ini:1: key 'seed' in [global] is already set at b.ini:1 "
		      "(a file may only override values from files it includes)");
	scn_destroy(load(deep, &rc));
	ASSERT_STR_EQ(err, "a15.ini:1: includes nested more than 16 deep");
	scn_destroy(load(inner, &rc));
	ASSERT_STR_EQ(err, "sub/b.ini:3: invalid size '12q' for 'memory' (expected a number with "
		      "an optional k, m, g or t suffix)");
	scn_destroy(load(empty, &rc));
	ASSERT_STR_EQ(err, "a.ini:2: empty include=");
	ASSERT_EQ(rc, -1);
}

/* A test of ${ENV} expansion: whole values, parts of values, several in
 * one value, in include paths, and a lone '$' kept as is.  Expect the
 * expanded values. */
TEST(env_expansion)
{
	static const struct memfile files[] = {
		{ "a.ini", "[machine]\nmemory=${SP_TEST_MEM}\ncpus=${SP_TEST_ONE}${SP_TEST_ONE}\n"
			   "include=${SP_TEST_DIR}/b.ini\n[work]\npath=$HOME/${SP_TEST_DIR}/x\n" },
		{ "presets/b.ini", "share=${SP_TEST_ONE}0%\n" }, { NULL, NULL } };
	int rc;
	struct scenario *s;
	struct t_machine *m;

	setenv("SP_TEST_MEM", "3g", 1);
	setenv("SP_TEST_ONE", "1", 1);
	setenv("SP_TEST_DIR", "presets", 1);
	s = load(files, &rc);
	ASSERT_STR_EQ(err, "");
	m = scn_config(s, "machine", NULL);
	ASSERT_U64_EQ(m->memory, 3ULL << 30);
	ASSERT_U64_EQ(m->cpus, 11);
	ASSERT_U64_EQ(m->share, 100000);
	ASSERT_STR_EQ(((struct t_work *)scn_config(s, "work", NULL))->path, "$HOME/presets/x");
	scn_destroy(s);
}

/* A test of every ${ENV} error: unset variable, unterminated, empty and
 * invalid names, and a variable whose value cannot be written back into a
 * scenario (it would read as a comment).  Expect each exact message. */
TEST(env_errors)
{
	unsetenv("SP_TEST_UNSET");
	setenv("SP_TEST_SEMI", "a ; b", 1);
	setenv("SP_TEST_NL", "a\nb", 1);
	EXPECT_ERROR("[global]\ndescription=${SP_TEST_UNSET}\n",
		     "t.ini:2: environment variable 'SP_TEST_UNSET' is not set");
	EXPECT_ERROR("[global]\ndescription=x${SP_TEST\n",
		     "t.ini:2: unterminated '${' in value (write ${NAME})");
	EXPECT_ERROR("[global]\ndescription=${}\n",
		     "t.ini:2: invalid variable name '${}' (letters, digits and '_', not starting with a digit)");
	EXPECT_ERROR("[global]\ndescription=${1A}\n",
		     "t.ini:2: invalid variable name '${1A}' (letters, digits and '_', not starting with a digit)");
	EXPECT_ERROR("[global]\ndescription=${A-B}\n",
		     "t.ini:2: invalid variable name '${A-B}' (letters, digits and '_', not starting with a digit)");
	EXPECT_ERROR("[global]\ndescription=${SP_TEST_SEMI}\n",
		     "t.ini:2: value for 'description' contains ';' after a blank, which would start a "
		     "comment in a scenario file");
	EXPECT_ERROR("[global]\ndescription=${SP_TEST_NL}\n",
		     "t.ini:2: value for 'description' contains the control character 0x0a");
	setenv("SP_TEST_NESTED", "${HOME}", 1);
	EXPECT_ERROR("[global]\ndescription=${SP_TEST_NESTED}\n",
		     "t.ini:2: value for 'description' contains '${', which a scenario file would expand");
	EXPECT_ERROR("include=${SP_TEST_UNSET}.ini\n",
		     "t.ini:1: environment variable 'SP_TEST_UNSET' is not set");
}

/* A test of every key and section error path of the syntax and of the
 * option tables, each reported with file:line.  Expect the exact messages. */
TEST(syntax_errors)
{
	EXPECT_ERROR("[machine]\nmemroy=4g\n",
		     "t.ini:2: unknown key 'memroy' in [machine] (did you mean 'memory'?)");
	EXPECT_ERROR("[machine]\n\nfrobnicate=4g\n", "t.ini:3: unknown key 'frobnicate' in [machine]");
	EXPECT_ERROR("[work a]\ntaks=4\n", "t.ini:2: unknown key 'taks' in [work a] (did you mean 'tasks'?)");
	EXPECT_ERROR("[machine]\nmemory=4x\n",
		     "t.ini:2: invalid size '4x' for 'memory' (expected a number with an optional k, m, g or t suffix)");
	EXPECT_ERROR("[machine]\nmemory=2t\n", "t.ini:2: size '2t' for 'memory' is out of range (4m..1t)");
	EXPECT_ERROR("[machine]\nmemory=1m\n", "t.ini:2: size '1m' for 'memory' is out of range (4m..1t)");
	EXPECT_ERROR("[machine]\ncpus=0\n", "t.ini:2: number '0' for 'cpus' is out of range (1..4096)");
	EXPECT_ERROR("[machine]\ncpus=\n", "t.ini:2: empty value for 'cpus'");
	EXPECT_ERROR("[global]\nduration=10x\n",
		     "t.ini:2: invalid time '10x' for 'duration' (expected a number with an optional ns, us, ms, s, m or h suffix)");
	EXPECT_ERROR("[sysctl]\nvm.defrag_mode=2\n",
		     "t.ini:2: invalid boolean '2' for 'vm.defrag_mode' (use 1/0, true/false, yes/no or on/off)");
	EXPECT_ERROR("[sysctl]\n/sys/kernel/mm/transparent_hugepage/enabled=sometimes\n",
		     "t.ini:2: invalid value 'sometimes' for '/sys/kernel/mm/transparent_hugepage/enabled' "
		     "(expected one of: always, madvise, never)");
	EXPECT_ERROR("[machine]\nshare=50\n",
		     "t.ini:2: percentage '50' for 'share' is ambiguous: write '50%', or a fraction not above 1");
	EXPECT_ERROR("[machine]\ncpus=4\n[global]\n[machine]\ncpus=8\n",
		     "t.ini:5: duplicate key 'cpus' in [machine] (first set at t.ini:2)");
	EXPECT_ERROR("\n[frob]\n", "t.ini:2: unknown section '[frob]'");
	EXPECT_ERROR("[machine\n", "t.ini:1: section header '[machine' is missing ']'");
	EXPECT_ERROR("[ ]\n", "t.ini:1: empty section name '[]'");
	EXPECT_ERROR("[machine big]\n", "t.ini:1: section [machine] takes no name (found 'big')");
	EXPECT_ERROR("[device]\n", "t.ini:1: section [device] needs a name: [device NAME]");
	EXPECT_ERROR("[device a.b]\n", "t.ini:1: invalid section name 'a.b' (letters, digits, '_' and '-' only)");
	EXPECT_ERROR("[device a b]\n", "t.ini:1: invalid section name 'a b' (letters, digits, '_' and '-' only)");
	EXPECT_ERROR("[device a1234567890123456789012345678901234567890123456789012345678901234]\n",
		     "t.ini:1: section name 'a1234567890123456789...' is longer than 64 characters");
	EXPECT_ERROR("[single]\n[single two]\n",
		     "t.ini:2: only one [single] section is allowed ([single] is at t.ini:1)");
	EXPECT_ERROR("[machine]\nmemory 4g\n",
		     "t.ini:2: expected 'key=value' or '[section]', found 'memory 4g'");
	EXPECT_ERROR("[machine]\n = 4g\n", "t.ini:2: missing key before '='");
	EXPECT_ERROR("[machine]\nmem ory=4g\n", "t.ini:2: invalid key 'mem ory'");
	EXPECT_ERROR("[machine]\nmem:ory=4g\n", "t.ini:2: invalid key 'mem:ory'");
	EXPECT_ERROR("seed=1\n", "t.ini:1: key 'seed' is outside any section (put a [section] line above it)");
	EXPECT_ERROR("[global]\nseed=1\x1b\n", "t.ini:2: invalid character 0x1b in line");
	EXPECT_ERROR("[global]\nseed=1\x01\n", "t.ini:2: invalid character 0x01 in line");
}

/* A test that a NUL byte, which ends C strings, is caught with its line,
 * and that a missing top-level file is reported.  Expect both messages. */
TEST(nul_byte_and_missing_file)
{
	struct scenario *s = scn_create(&schema);
	static const char text[] = "[global]\nseed=1\0junk\n";

	ASSERT_EQ(scn_parse_buffer(s, "buf.ini", text, sizeof(text) - 1, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "buf.ini:2: invalid character 0x00 in line");
	scn_destroy(s);
	s = scn_create(&schema);
	ASSERT_EQ(scn_parse_file(s, "/nonexistent/x.ini", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "/nonexistent/x.ini: cannot read scenario: No such file or directory");
	scn_destroy(s);
}

/* A test that lines longer than inih's 200-byte buffer work: a long value
 * (passed aside), a long comment, and an over-long key refused; line
 * numbers stay right after them.  Expect the full value and exact lines. */
TEST(long_lines)
{
	char text[4096], value[1001], key[300];
	int rc;
	struct scenario *s;

	memset(value, 'v', 1000);
	value[1000] = '\0';
	snprintf(text, sizeof(text), "[global]\n; %s\ndescription=%s ; comment\nseed=oops\n", value, value);
	s = load1(text, &rc);
	ASSERT_EQ(rc, -1);
	ASSERT_STR_EQ(err, "t.ini:4: invalid number 'oops' for 'seed' (expected a decimal or 0x hexadecimal integer)");
	ASSERT_STR_EQ(((struct t_global *)scn_config(s, "global", NULL))->description, value);
	scn_destroy(s);
	memset(key, 'k', 299);
	key[299] = '\0';
	snprintf(text, sizeof(text), "[global]\n%s=1\n", key);
	s = load1(text, &rc);
	ASSERT_EQ(rc, -1);
	ASSERT_STR_EQ(err, "t.ini:2: key 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...' is too long");
	scn_destroy(s);
}

/* A test of --set in each form: section.key, kind:name.key, a bare key
 * unique in the scenario, a sysctl name, overriding a file value, the last
 * --set winning.  Expect the values and the --set place on the key. */
TEST(set_forms)
{
	int rc;
	struct scenario *s = load1("[machine]\ncpus=4\n[work a]\n[work b]\n[device md0]\n", &rc);
	const struct scn_instance *m = scn_find(s, "machine", NULL);
	char place[128];

	ASSERT_EQ(rc, 0);
	ASSERT_EQ(scn_set(s, "machine.cpus=16", err, sizeof(err)), 0);
	ASSERT_U64_EQ(((struct t_machine *)m->config)->cpus, 16);
	scn_key_place(m, "cpus", place, sizeof(place));
	ASSERT_STR_EQ(place, "--set 'machine.cpus=16'");
	ASSERT_EQ(scn_set(s, "cpus=32", err, sizeof(err)), 0);
	ASSERT_U64_EQ(((struct t_machine *)m->config)->cpus, 32);
	ASSERT_EQ(scn_set(s, "work:b.tasks=5", err, sizeof(err)), 0);
	ASSERT_U64_EQ(((struct t_work *)scn_config(s, "work", "b"))->tasks, 5);
	ASSERT_U64_EQ(((struct t_work *)scn_config(s, "work", "a"))->tasks, 8);
	ASSERT_EQ(scn_set(s, "vm.defrag_mode=1", err, sizeof(err)), 0);
	ASSERT_TRUE(((struct t_sysctl *)scn_config(s, "sysctl", NULL))->defrag_mode);
	ASSERT_EQ(scn_set(s, "sysctl.vm.watermark_scale_factor=200", err, sizeof(err)), 0);
	ASSERT_U64_EQ(((struct t_sysctl *)scn_config(s, "sysctl", NULL))->wsf, 200);
	ASSERT_EQ(scn_set(s, "/sys/kernel/mm/transparent_hugepage/enabled=always", err, sizeof(err)), 0);
	ASSERT_EQ(((struct t_sysctl *)scn_config(s, "sysctl", NULL))->thp, 0);
	ASSERT_EQ(scn_set(s, "device.iops=7", err, sizeof(err)), 0);
	ASSERT_U64_EQ(((struct t_device *)scn_config(s, "device", "md0"))->iops, 7);
	ASSERT_EQ(scn_set(s, "global.description=a=b", err, sizeof(err)), 0);
	ASSERT_STR_EQ(((struct t_global *)scn_config(s, "global", NULL))->description, "a=b");
	ASSERT_EQ(scn_set(s, "seed=5", err, sizeof(err)), 0);
	ASSERT_EQ(scn_set(s, "seed=6", err, sizeof(err)), 0);
	ASSERT_U64_EQ(((struct t_global *)scn_config(s, "global", NULL))->seed, 6);
	scn_destroy(s);
}

/* A test of every --set error: no '=', empty key, unknown key (with and
 * without a section), ambiguous bare key, ambiguous section, absent
 * section, bad value, include.  Expect each exact message. */
TEST(set_errors)
{
	int rc;
	struct scenario *s = load1("[work a]\n[work b]\n", &rc);

	ASSERT_EQ(rc, 0);
	ASSERT_EQ(scn_set(s, "cpus", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'cpus': expected 'key=value'");
	ASSERT_EQ(scn_set(s, "=4", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set '=4': expected 'key=value'");
	ASSERT_EQ(scn_set(s, "frob=1", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'frob=1': unknown key 'frob' (no section of the scenario has it)");
	ASSERT_EQ(scn_set(s, "machine.memroy=1g", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'machine.memroy=1g': unknown key 'memroy' in [machine] (did you mean 'memory'?)");
	ASSERT_EQ(scn_set(s, "duration=1s", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'duration=1s': key 'duration' is ambiguous: it is in [global], [work a], "
		      "[work b]; write 'section.duration=...'");
	ASSERT_EQ(scn_set(s, "work.tasks=1", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'work.tasks=1': [work] is ambiguous: the scenario has [work a], [work b]; "
		      "write 'work:NAME.tasks=...'");
	ASSERT_EQ(scn_set(s, "device.iops=1", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'device.iops=1': the scenario has no [device] section");
	ASSERT_EQ(scn_set(s, "device:md0.iops=1", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'device:md0.iops=1': the scenario has no section [device md0]");
	ASSERT_EQ(scn_set(s, "frob:x.y=1", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'frob:x.y=1': unknown section '[frob]'");
	ASSERT_EQ(scn_set(s, "work:a=1", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'work:a=1': expected 'kind:name.key=value'");
	ASSERT_EQ(scn_set(s, "work:a.frob=1", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'work:a.frob=1': unknown key 'frob' in [work a]");
	ASSERT_EQ(scn_set(s, "machine.cpus=lots", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'machine.cpus=lots': invalid number 'lots' for 'cpus' (expected a decimal "
		      "or 0x hexadecimal integer)");
	ASSERT_EQ(scn_set(s, "global.description= x", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'global.description= x': value for 'description' has leading or trailing blanks");
	ASSERT_EQ(scn_set(s, "include=x.ini", err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'include=x.ini': include= works only in files");
	scn_destroy(s);
}

/* A test of --scale: the 1/N syntax and its errors, a section's scale hook
 * applied, and a hook's error with the section named.  Expect the values
 * and messages below. */
TEST(scale)
{
	int rc;
	struct scenario *s = load1("[work a]\ntasks=64\n[work b]\ntasks=2\n", &rc);
	unsigned int n = 0;

	ASSERT_EQ(scn_parse_scale("1/8", &n, err, sizeof(err)), 0);
	ASSERT_EQ(n, 8);
	ASSERT_EQ(scn_parse_scale("1/1", &n, err, sizeof(err)), 0);
	ASSERT_EQ(scn_parse_scale("8", &n, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--scale '8': expected 1/N, for example 1/8");
	ASSERT_EQ(scn_parse_scale("1/0", &n, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--scale '1/0': N must be a whole number from 1 to 1000000");
	ASSERT_EQ(scn_parse_scale("1/2x", &n, err, sizeof(err)), -1);
	ASSERT_EQ(scn_parse_scale("1/-2", &n, err, sizeof(err)), -1);
	ASSERT_EQ(scn_parse_scale("2/3", &n, err, sizeof(err)), -1);
	ASSERT_EQ(scn_scale(s, 2, err, sizeof(err)), 0);
	ASSERT_U64_EQ(((struct t_work *)scn_config(s, "work", "a"))->tasks, 32);
	ASSERT_U64_EQ(((struct t_work *)scn_config(s, "work", "b"))->tasks, 1);
	ASSERT_EQ(scn_scale_n(s), 2);
	ASSERT_EQ(scn_scale(s, 4, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--scale 1/4: [work b]: 1 tasks cannot be divided by 4");
	scn_destroy(s);
}

/* A test of validation after parsing: a blamed key is reported at the line
 * that set it (file or --set), an unblamed error at the section header.
 * Expect the three exact messages. */
TEST(validate_places)
{
	int rc;
	struct scenario *s = load1("[global]\n\n[work a]\ntasks=101\n", &rc);

	ASSERT_EQ(rc, 0);
	ASSERT_EQ(scn_validate(s, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "t.ini:4: tasks must be at most 100");
	ASSERT_EQ(scn_set(s, "tasks=102", err, sizeof(err)), 0);
	ASSERT_EQ(scn_validate(s, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "--set 'tasks=102': tasks must be at most 100");
	ASSERT_EQ(scn_set(s, "tasks=1", err, sizeof(err)), 0);
	ASSERT_EQ(scn_validate(s, err, sizeof(err)), 0);
	ASSERT_EQ(scn_set(s, "work.duration=7ns", err, sizeof(err)), 0);
	ASSERT_EQ(scn_validate(s, err, sizeof(err)), -1);
	ASSERT_STR_EQ(err, "t.ini:3: [work a]: duration 7ns is unlucky");
	scn_destroy(s);
}

/* A test of the round trip behind `slowpath check`: printing a scenario
 * and parsing the text again gives the same values, so printing that
 * gives the same text.  Expect identical texts and the exact first form. */
TEST(print_round_trip)
{
	int rc;
	struct scenario *s = load1("[global]\ndescription=two words, with #hash\nduration=1.5s\n"
				   "[machine]\nmemory=1536m\nshare=12.5%\n"
				   "[work]\n[device md0]\niops=5\n[work b]\ntasks=2\n", &rc);
	struct scenario *t;
	char *a, *b;

	ASSERT_EQ(rc, 0);
	ASSERT_EQ(scn_set(s, "global.description=", err, sizeof(err)), 0);
	a = scn_print_string(s);
	ASSERT_STR_EQ(a,
		"; the resolved scenario: every key with its value, defaults included\n"
		"\n[global]\nseed=1\nduration=1500ms\ndescription=\n"
		"\n[machine]\nmemory=1536m\ncpus=4\nshare=12.5%\n"
		"\n[sysctl]\nvm.defrag_mode=0\n/sys/kernel/mm/transparent_hugepage/enabled=madvise\n"
		"vm.watermark_scale_factor=10\n"
		"\n[work]\ntasks=8\nduration=1ms\npath=/tmp/x\n"
		"\n[device md0]\niops=5\nsize=1t\n"
		"\n[work b]\ntasks=2\nduration=1ms\npath=/tmp/x\n");
	t = scn_create(&schema);
	ASSERT_EQ(scn_parse_buffer(t, "check.ini", a, strlen(a), err, sizeof(err)), 0);
	b = scn_print_string(t);
	ASSERT_STR_EQ(a, b);
	free(a);
	free(b);
	scn_destroy(s);
	scn_destroy(t);
}
